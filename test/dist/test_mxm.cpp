// The distributed product against the one-process OpenMP product: the same entries in the same
// order, on generated and real graphs, through a mask and its complement, with a positional semiring
// (con reads the row) and with more rows than ranks and fewer; with A split across the ranks.
#include <cstdint>

#include "dist_test.hpp"
#include "gql/cpu/elementwise.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/dist/mxm.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "gql/kernel_context.hpp"
#include "reference_semirings.hpp"

namespace gql::dist_test {
namespace {

using reference_semirings::PlusTimes;
using Paths = reference_semirings::Paths<uint64_t>;

// con = i + 2k + 3j + a * b: every position read, so a row block handed the wrong row numbers differs.
struct Positional : reference_semirings::PolicyShape<int64_t, int64_t, int64_t, Monoid::sum, true, true> {
  static int64_t con(int64_t a, int64_t b, long long i, long long k, long long j) { return i + 2 * k + 3 * j + a * b; }
  static int64_t agg(int64_t x, int64_t y) { return x + y; }
  static int64_t zero() { return 0; }
  static int64_t terminal() { return 0; }
};

ReadOptions symmetric() {
  ReadOptions o;
  o.symmetrize = true;
  return o;
}

TEST(DistMxm, FriendsOfFriendsOnKronecker) {
  const auto G = generate_graph<bool>("kron:11", symmetric());
  expect_same(dist::mxm<Paths>(world(), G, G), cpu::spgemm<Paths>(G, G));
}

TEST(DistMxm, SplitRowsGiveASplitProduct) {
  // Rows of A split across the ranks, B on every rank: C split by A's row starts, its entries the
  // one-process product's (a positional con handed each row's place in A).
  const auto A = generate_graph<int64_t>("urand:9:4");
  const auto B = generate_graph<int64_t>("urand:9:3");
  const auto split_a = dist::split_rows(world(), A);
  const auto C = dist::mxm<Positional>(world(), split_a, B);
  EXPECT_EQ(C.starts(), split_a.starts());
  EXPECT_EQ(C.block().n_rows(), split_a.mine().size());
  const auto want = cpu::spgemm<Positional>(A, B);
  EXPECT_EQ(C.nvals(), want.nvals());
  expect_same(dist::gathered(world(), C), want);
  const auto G = generate_graph<bool>("kron:11", symmetric());
  const auto fof = dist::mxm<Paths>(world(), dist::scatter_rows(world(), world().rank() == 0 ? &G : nullptr), G);
  expect_same(dist::gathered(world(), fof), cpu::spgemm<Paths>(G, G));
}

TEST(DistMxm, BothSplitFetchTheRowsTheyNeed) {
  // A and B split, each by its own blocks of equal edges: each rank fetches the rows of B its block
  // names; C split by A's starts, the one-process product's entries.
  const auto A = generate_graph<int64_t>("urand:9:4");
  const auto B = generate_graph<int64_t>("urand:9:3");
  const auto split_a = dist::split_rows(world(), A), split_b = dist::split_rows(world(), B);
  const auto C = dist::mxm<Positional>(world(), split_a, split_b);
  EXPECT_EQ(C.starts(), split_a.starts());
  expect_same(dist::gathered(world(), C), cpu::spgemm<Positional>(A, B));
  // What a rank fetched is exactly the rows its columns name, whole.
  const auto needed = dist::detail::distinct_columns(split_a.block());
  const auto fetched = dist::fetched_rows(world(), split_b, needed);
  EXPECT_EQ(fetched.n_rows(), B.n_rows());
  size_t at = 0;
  for (int64_t r = 0; r < B.n_rows(); ++r) {
    const bool wanted = at < needed.size() && needed[at] == r;
    at += wanted;
    const auto f = fetched.row_offsets(), b = B.row_offsets();
    const auto length = static_cast<int64_t>(f[static_cast<size_t>(r) + 1] - f[static_cast<size_t>(r)]);
    EXPECT_EQ(length, wanted ? b[static_cast<size_t>(r) + 1] - b[static_cast<size_t>(r)] : 0) << "row " << r;
    if (wanted) {
      EXPECT_TRUE(std::equal(fetched.col_indices().begin() + f[static_cast<size_t>(r)],
                             fetched.col_indices().begin() + f[static_cast<size_t>(r) + 1],
                             B.col_indices().begin() + b[static_cast<size_t>(r)]));
    }
  }
  // fof over one symmetric graph split once, read as both A and B.
  const auto G = generate_graph<bool>("kron:11", symmetric());
  const auto split_g = dist::scatter_rows(world(), world().rank() == 0 ? &G : nullptr);
  expect_same(dist::gathered(world(), dist::mxm<Paths>(world(), split_g, split_g)), cpu::spgemm<Paths>(G, G));
  // A graph of two rows: with three ranks one holds none, and asks for none.
  const auto tiny = Csr<int64_t>(2, 2, Array<offset_t>{0, 1, 3}, Array<index_t>{1, 0, 1}, Array<int64_t>{2, 3, 5});
  const auto split_tiny = dist::split_rows(world(), tiny);
  expect_same(dist::gathered(world(), dist::mxm<PlusTimes<int64_t>>(world(), split_tiny, split_tiny)),
              cpu::spgemm<PlusTimes<int64_t>>(tiny, tiny));
}

TEST(DistMxm, JoinedOnOneRankOnly) {
  // The root gets the whole product, through a mask too; the other ranks its shape without entries.
  const auto G = generate_graph<bool>("kron:10", symmetric());
  for (int root : {0, world().size() - 1}) {
    const auto C = dist::mxm_on<Paths>(world(), root, G, G);
    if (world().rank() == root) {
      expect_same(C, cpu::spgemm<Paths>(G, G));
    } else {
      EXPECT_EQ(C.nvals(), 0);
      EXPECT_EQ(C.n_rows(), G.n_rows());
    }
    const cpu::MatrixMask not_g = cpu::mask(G, true);
    const auto masked = dist::mxm_on<Paths>(world(), root, G, G, not_g);
    if (world().rank() == root) expect_same(masked, dist::mxm<Paths>(world(), G, G, not_g));
    else dist::mxm<Paths>(world(), G, G, not_g);  // the same collective calls on every rank
  }
}

TEST(DistMxm, ValuesAndRectangularShapes) {
  const auto A = generate_graph<double>("urand:9:4");
  const auto B = generate_graph<double>("urand:9:2");
  expect_same(dist::mxm<PlusTimes<double>>(world(), A, B), cpu::spgemm<PlusTimes<double>>(A, B));
  // Fewer rows than ranks: some ranks multiply none.
  const auto tall = dist::rows_of(A, {0, 1});
  expect_same(dist::mxm<PlusTimes<double>>(world(), tall, B), cpu::spgemm<PlusTimes<double>>(tall, B));
  const Csr<double> empty(0, A.n_rows());
  expect_same(dist::mxm<PlusTimes<double>>(world(), empty, B), cpu::spgemm<PlusTimes<double>>(empty, B));
}

TEST(DistMxm, ThroughAMaskAndItsComplement) {
  const auto G = generate_graph<bool>("kron:10", symmetric());
  const auto L = cpu::triangle(G, cpu::Triangle::lower, -1);
  const auto U = cpu::triangle(G, cpu::Triangle::upper, 1);
  for (bool complement : {false, true}) {
    const cpu::MatrixMask mask = cpu::mask(L, complement);
    expect_same(dist::mxm<Paths>(world(), L, U, mask), cpu::spgemm<Paths>(L, U, mask));
  }
  const Csr<bool> wrong(3, 3);
  EXPECT_THROW(dist::mxm<Paths>(world(), L, U, cpu::mask(wrong, false)), Error);
}

TEST(DistMxm, PositionalSemiringSeesTheRowsOfA) {
  const auto A = generate_graph<int64_t>("urand:8:3");
  expect_same(dist::mxm<Positional>(world(), A, A), cpu::spgemm<Positional>(A, A));
}

TEST(DistMxm, RealGraph) {
  if (!have_shared_data()) GTEST_SKIP() << "no shared data at " GQL_SHARED_DATA_DIR;
  const auto G = read_graph<bool>(data_graph("ca-GrQc.csv"), symmetric());
  const auto want = cpu::spgemm<Paths>(G, G);
  expect_same(dist::mxm<Paths>(world(), G, G), want);
  const auto split = dist::split_rows(world(), G);
  expect_same(dist::gathered(world(), dist::mxm<Paths>(world(), split, split)), want);
}

TEST(DistMxm, CountsEveryRanksProducts) {
  // A kernel's --stats counts the products of every rank's rows: the one-process product's count,
  // whether the product is joined everywhere, on one rank or left split, and through a mask (dot or
  // saxpy, as the one-process product chose).
  const auto G = generate_graph<bool>("kron:10", symmetric());
  const cpu::ProductOptions options{.label = "fof"};
  const auto counted = [](auto&& product) {
    KernelContext ctx;
    product(ctx);
    return ctx.work().products;
  };
  const auto one_process = [&](const auto& mask) {
    return counted([&](KernelContext& ctx) {
      Csr<uint64_t> C(G.n_rows(), G.n_cols());
      cpu::mxm<Paths>(C, mask, false, G, G, options, ctx);
    });
  };
  const int64_t want = one_process(cpu::no_mask());
  EXPECT_GT(want, G.nvals());
  EXPECT_EQ(counted([&](KernelContext& ctx) { dist::mxm<Paths>(world(), G, G, {}, options, &ctx); }), want);
  EXPECT_EQ(counted([&](KernelContext& ctx) { dist::mxm_on<Paths>(world(), 0, G, G, {}, options, &ctx); }), want);
  const auto split = dist::split_rows(world(), G);
  EXPECT_EQ(counted([&](KernelContext& ctx) { dist::mxm<Paths>(world(), split, G, options, &ctx); }), want);
  EXPECT_EQ(counted([&](KernelContext& ctx) { dist::mxm<Paths>(world(), split, split, options, &ctx); }), want);
  for (bool complement : {false, true}) {
    const cpu::MatrixMask mask = cpu::mask(G, complement);
    EXPECT_EQ(counted([&](KernelContext& ctx) { dist::mxm<Paths>(world(), G, G, mask, options, &ctx); }),
              one_process(mask));
  }
}

TEST(DistMxm, MismatchedShapesRefusedOnEveryRank) {
  const Csr<double> A(4, 5), B(4, 4);
  EXPECT_THROW(dist::mxm<PlusTimes<double>>(world(), A, B), Error);
}

}  // namespace
}  // namespace gql::dist_test
