// Element-wise operations, transposes and reductions end to end (specs/elementwise.gql).
#include <algorithm>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

std::vector<std::string> weighted_inputs() {
  std::vector<std::string> in = {"grid:5x4"};
  if (have_shared_data())
    for (const char* f : {"netscience.mtx", "rome99.gr", "ca-HepTh.csv"}) in.push_back(data_graph(f));
  return in;
}

RowMap<double> transposed(const RowMap<double>& a) {
  RowMap<double> t(a.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (const auto& [j, v] : a[i]) t[static_cast<size_t>(j)][static_cast<index_t>(i)] = v;
  return t;
}

TEST(Elementwise, ApplyUnionIntersectAndReduce) {
  for (const auto& input : weighted_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<double>(input);
    const auto a = to_rows<double>(G);
    ASSERT_EQ(G.n_rows(), G.n_cols()) << "the transposes below need a square graph";
    const auto t = transposed(a);
    RowMap<double> twice(a.size()), clamped(a.size()), sym(a.size()), diff(a.size());
    double total = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      for (const auto& [j, v] : a[i]) {
        twice[i][j] = 2.0 * v;
        clamped[i][j] = std::min(std::max(v, 0.0), 1.0);
        sym[i][j] = v;
        total += v;
        auto it = t[i].find(j);
        if (it != t[i].end()) diff[i][j] = v - it->second;
      }
      for (const auto& [j, v] : t[i]) sym[i][j] = a[i].count(j) ? std::max(a[i].at(j), v) : v;
    }
    auto run_graph = [&](const char* kernel) {
      return to_rows<double>(read_graph<double>(run_ok("specs_elementwise", kernel, "--G " + input)));
    };
    expect_same(twice, run_graph("scale"));
    expect_same(clamped, run_graph("clamp"));
    expect_same(sym, run_graph("symmetric_max"));
    expect_same(diff, run_graph("reciprocal_diff"));
    const double got = std::stod(read_text(run_ok("specs_elementwise", "total", "--G " + input, "total.txt")));
    EXPECT_NEAR(got, total, 1e-9 * std::max(1.0, std::abs(total)));
    EXPECT_EQ(read_text(run_ok("specs_elementwise", "edges", "--G " + input, "edges.txt")),
              std::to_string(G.nvals()) + "\n");
  }
}

// A scalar result that cannot be written (standard output on a full disk) is an error, not exit 0.
TEST(Elementwise, AnUnwritableScalarResultFails) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const RunResult r = run("(" + program("specs_elementwise") + " total --G grid:5x4 >/dev/full)");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("cannot write the result"), std::string::npos) << r.output;
}

// So is a graph result's summary (and --stats) that cannot be written: it exited 0.
TEST(Elementwise, AnUnwritableSummaryFails) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  for (const char* stats : {"", " --stats"}) {
    const RunResult r = run("(" + program("specs_elementwise") + " scale --G grid:5x4" + stats + " >/dev/full)");
    EXPECT_EQ(r.status, 1) << stats << ": " << r.output;
    EXPECT_NE(r.output.find("standard output: io error: cannot write the program's output"), std::string::npos)
        << r.output;
  }
}

}  // namespace
}  // namespace gql::e2e
