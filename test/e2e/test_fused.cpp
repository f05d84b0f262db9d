// Ops the OpenMP target fuses (an apply read inside the next vector op, a vxm inside the union that
// reads it: compiler/plan/fuse_elementwise.cpp) give the same bits as the ops run apart (the
// PROGRAM_unfused builds, gqlc --no-fusion), pulled and pushed, over dense and sparse operands.
#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

std::vector<std::string> fused_inputs() {
  std::vector<std::string> in = {"kron:10", "kron:11 --symmetrize", "grid:9x11", "urand:10:4"};
  if (have_shared_data())
    for (const char* f : {"karate.mtx", "rome99.gr", "ca-GrQc.csv"}) in.push_back(data_graph(f));
  return in;
}

void expect_same_as_unfused(const std::string& program_name, const std::string& kernel, const std::string& extra) {
  for (const auto& input : fused_inputs()) {
    SCOPED_TRACE(program_name + " " + kernel + " " + input);
    const std::string args = "--G " + input + extra;
    const std::string fused = read_text(run_ok(program_name, kernel, args, "fused.mtx"));
    const std::string apart = read_text(run_ok(program_name + "_unfused", kernel, args, "unfused.mtx"));
    EXPECT_FALSE(fused.empty());
    EXPECT_EQ(fused, apart);
  }
}

TEST(Fused, StdlibPagerankGivesTheBitsOfTheOpsApart) {
  expect_same_as_unfused("std_pagerank", "pagerank", " --iterations 20");
}

TEST(Fused, EveryShapeGivesTheBitsOfTheOpsApart) {
  expect_same_as_unfused("specs_fused", "ranks", " --iterations 7");
  for (const char* kernel : {"weighted_first", "typed", "sparse_side", "flags", "masked", "shared", "write_back"})
    expect_same_as_unfused("specs_fused", kernel, "");
}

// The fused union pulls while the frontier is large and pushes when a schedule says so: both ran.
TEST(Fused, TheFusedProductTakesBothDirections) {
  const RunResult pulled = run(program("specs_fused") + " ranks --G kron:10 --iterations 2 --explain");
  EXPECT_EQ(pulled.status, 0) << pulled.output;
  EXPECT_NE(pulled.output.find("ranks: vxm -> gathered: vxm pull step"), std::string::npos) << pulled.output;
  const RunResult pushed = run(program("specs_fused") + " masked --G kron:10 --explain");
  EXPECT_EQ(pushed.status, 0) << pushed.output;
  EXPECT_NE(pushed.output.find("masked @push: vxm push step"), std::string::npos) << pushed.output;
}

}  // namespace
}  // namespace gql::e2e
