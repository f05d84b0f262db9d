// The JIT in each rank (CompilerOptions::ranks): the stdlib's fof, fof_new, bfs, bfs_parents,
// pagerank, apsp and lu_factor (BLAS on one thread: test_lu.cpp says why), compiled for the ranks and called on every rank with the same whole arguments,
// give every rank the one-process kernels' results, bit for bit. Every rank compiles the same source;
// one builds it into the shared cache while the others wait.
#include <limits>
#include <random>
#include <string>
#include <tuple>

#include "dist_test.hpp"
#include "gql/generate.hpp"
#include "gql/jit.hpp"
#include "stdlib_sources.hpp"

namespace gql::dist_test {
namespace {

Module compiled(const dist::World* ranks) {
  CompilerOptions options;
  options.cache_dir = std::string(GQL_BINARY_DIR) + "/test-jit-cache";
  options.ranks = ranks;
  return Compiler(options).compile_source(test_support::stdlib_sources({"fof", "bfs", "pagerank", "apsp", "lu"}),
                                          "stdlib_kernels.gql");
}

TEST(JitOverRanks, StdlibKernelsGiveTheOneProcessResults) {
  const Module over = compiled(&world()), one = compiled(nullptr);
  ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const Csr<bool> G = generate_graph<bool>("kron:9", symmetrize);
  const Csr<bool> directed = generate_graph<bool>("kron:8");

  const auto fof = [](const Module& m, const char* name) {
    return m.kernel(name).bind<Csr<uint64_t>(const Csr<bool>&)>();
  };
  for (const char* name : {"fof", "fof_new"}) expect_same(fof(over, name)(G), fof(one, name)(G), name);

  const auto bfs = [](const Module& m) { return m.kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>(); };
  const auto parents = [](const Module& m) {
    return m.kernel("bfs_parents").bind<Vector<int64_t>(const Csr<bool>&, int32_t)>();
  };
  for (int32_t source : {0, 7, 200}) {
    expect_same(bfs(over)(G, source), bfs(one)(G, source), "bfs from " + std::to_string(source));
    expect_same(parents(over)(directed, source), parents(one)(directed, source),
                "bfs_parents from " + std::to_string(source));
  }

  const auto pagerank = [](const Module& m) {
    return m.kernel("pagerank").bind<Vector<double>(const Csr<bool>&, int64_t)>();
  };
  expect_same(pagerank(over)(G, 20), pagerank(one)(G, 20), "pagerank");

  // 150 rows: three k-blocks of 64, the last short; on three ranks one rank holds none.
  constexpr int n = 150;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> weight(1, 9), coin(0, 9);
  Matrix<float> D(n, n, std::numeric_limits<float>::infinity());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (coin(rng) < 1) D(i, j) = static_cast<float>(weight(rng));
  const auto apsp = [](const Module& m) { return m.kernel("apsp").bind<Matrix<float>(const Matrix<float>&)>(); };
  const Matrix<float> got = apsp(over)(D), want = apsp(one)(D);
  bool equal = got.n_rows() == n && got.n_cols() == n;
  for (int i = 0; equal && i < n; ++i)
    for (int j = 0; equal && j < n; ++j) equal = got(i, j) == want(i, j);
  EXPECT_TRUE(equal) << "apsp";

  // 300 rows: three panels of 128, the last short; pivots that cross the ranks' panels.
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Matrix<double> A(300, 300, 0.0);
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 300; ++j) A(i, j) = entry(rng);
  using Factors = std::tuple<Matrix<double>, Vector<int32_t>>;
  const auto lu = [](const Module& m) { return m.kernel("lu_factor").bind<Factors(const Matrix<double>&)>(); };
  const BlasThreads one_thread(1);
  const Factors got_lu = lu(over)(A), want_lu = lu(one)(A);
  const auto& [got_factors, got_pivots] = got_lu;
  const auto& [want_factors, want_pivots] = want_lu;
  EXPECT_TRUE(std::equal(got_factors.data().begin(), got_factors.data().end(), want_factors.data().begin(),
                         want_factors.data().end()))
      << "lu_factor";
  expect_same(got_pivots, want_pivots, "lu_factor's pivots");
}

// A call that every rank makes with the same bad argument fails on every rank alike, and the calls
// after it run as before: no rank is left waiting in an exchange.
TEST(JitOverRanks, AnErrorOnEveryRankLeavesTheRanksInStep) {
  const Module over = compiled(&world()), one = compiled(nullptr);
  ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const Csr<bool> G = generate_graph<bool>("kron:8", symmetrize);
  const auto bfs = [](const Module& m) { return m.kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>(); };
  try {
    (void)bfs(over)(G, 1 << 20);
    ADD_FAILURE() << "a source outside the graph was searched";
  } catch (const Error& e) {
    EXPECT_TRUE(e.kind() == ErrorKind::usage) << e.what();
  }
  expect_same(bfs(over)(G, 3), bfs(one)(G, 3), "bfs after the error");
}

// A CUDA Compiler over the ranks needs their GPUs (CompilerOptions::devices; test/gpu/test_dist_jit.cpp
// runs one): without them it is refused at once, naming what is missing.
TEST(JitOverRanks, CudaNeedsTheRanksGpus) {
  CompilerOptions options;
  options.target = Target::cuda;
  options.ranks = &world();
  try {
    Compiler compiler(options);
    ADD_FAILURE() << "a CUDA Compiler over ranks without their GPUs was made";
  } catch (const Error& e) {
    EXPECT_TRUE(e.kind() == ErrorKind::usage) << e.what();
    EXPECT_NE(std::string(e.what()).find("CompilerOptions::devices"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace gql::dist_test
