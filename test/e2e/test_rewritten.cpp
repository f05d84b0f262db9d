// Loops that rewrite their graph, under every direction (specs/rewritten.gql): what a pull step
// derives from a graph (its transpose) follows the graph's contents, and ops keep their own state.
#include <cmath>
#include <fstream>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

// The issue's example: the 4 x 4 graph {(1,2)=1, (2,3)=2, (3,4)=3, (4,1)=4, (1,3)=5}, v = [1, 2, 3, 4].
std::string write_example(const std::string& dir) {
  const std::string path = dir + "/example.mtx";
  std::ofstream(path) << "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 2 1\n2 3 2\n3 4 3\n4 1 4\n1 3 5\n";
  return path;
}

// v = [1, 2, ..., n] as a Matrix Market array.
std::string write_ramp(const std::string& dir, int64_t n) {
  const std::string path = dir + "/v" + std::to_string(n) + ".mtx";
  std::ofstream out(path);
  out << "%%MatrixMarket matrix array real general\n" << n << " 1\n";
  for (int64_t i = 1; i <= n; ++i) out << i << "\n";
  return path;
}

// sum over rounds r of sum_ij v_i (2^(r+1) G_ij) for vxm (v_j for mxv: rows and columns swap).
double expected_total(const Csr<double>& G, int rounds, bool vector_first) {
  double once = 0;
  for (int64_t i = 0; i < G.n_rows(); ++i)
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p)
      once += double(vector_first ? i + 1 : G.col_indices()[p] + 1) * G.value_at(p);
  double total = 0, scale = 2;
  for (int r = 0; r < rounds; ++r, scale *= 2) total += scale * once;
  return total;
}

std::vector<std::string> inputs(const std::string& dir) {
  std::vector<std::string> in = {write_example(dir), "grid:6x5"};
  if (have_shared_data()) in.push_back(data_graph("netscience.mtx"));
  return in;
}

double run_scalar(const std::string& kernel, const std::string& args) {
  return std::stod(read_text(run_ok("specs_rewritten", kernel, args, kernel + ".txt")));
}

TEST(RewrittenLoops, EveryDirectionGivesTheAnswerOfTheCurrentGraph) {
  const std::string dir = scratch_dir();
  for (const std::string& input : inputs(dir)) {
    SCOPED_TRACE(input);
    const auto G = read_graph<double>(input);
    const std::string args = "--G " + input + " --v " + write_ramp(dir, G.n_rows()) + " --rounds 3";
    const double vxm = expected_total(G, 3, true), mxv = expected_total(G, 3, false);
    for (const char* kernel : {"vxm_push", "vxm_pull", "vxm_auto"})
      EXPECT_NEAR(run_scalar(kernel, args), vxm, 1e-9 * vxm) << kernel;
    for (const char* kernel : {"mxv_push", "mxv_pull"}) EXPECT_NEAR(run_scalar(kernel, args), mxv, 1e-9 * mxv) << kernel;
  }
}

TEST(RewrittenLoops, TheIssuesExampleGives490) {
  const std::string dir = scratch_dir();
  const std::string args = "--G " + write_example(dir) + " --v " + write_ramp(dir, 4) + " --rounds 3";
  EXPECT_EQ(run_scalar("vxm_pull", args), 490.0);
  EXPECT_EQ(run_scalar("vxm_push", args), 490.0);
}

TEST(RewrittenLoops, TwoUnlabelledProductsKeepTheirOwnState) {
  const std::string dir = scratch_dir();
  for (const std::string& input : inputs(dir)) {
    SCOPED_TRACE(input);
    const auto G = read_graph<double>(input);
    double a = 0, b = 0;
    for (int64_t i = 0; i < G.n_rows(); ++i)
      for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p) {
        a += double(i + 1) * G.value_at(p);
        if (G.value_at(p) != 0) b += double(i + 1);
      }
    const double got = run_scalar("two_products", "--G " + input + " --v " + write_ramp(dir, G.n_rows()));
    EXPECT_NEAR(got, a + 10 * b, 1e-9 * (a + 10 * b));
  }
}

}  // namespace
}  // namespace gql::e2e
