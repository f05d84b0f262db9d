// The distributed closure against the one-process closure: shortest paths over integers and
// reachability, for k-blocks that do and do not divide n, and more ranks than blocks; on every rank
// and split across the ranks.
#include <cstdint>
#include <random>

#include "dist_test.hpp"
#include "gql/cpu/closure.hpp"
#include "gql/dist/closure.hpp"
#include "gql/kernel_context.hpp"
#include "gql/dist/split_matrix.hpp"
#include "reference_semirings.hpp"

namespace gql::dist_test {
namespace {

using reference_semirings::MinPlus;
using reference_semirings::OrAnd;

// "No path": large, yet two of them add up without overflow (min never makes an entry larger).
constexpr int32_t no_path = 100'000'000;

// A random n x n distance matrix: about a fifth of the pairs joined, weights 1 to 100, none elsewhere.
Matrix<int32_t> distances(int64_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  Matrix<int32_t> D(n, n, no_path);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (i == j) D(i, j) = 0;
      else if (random() % 5 == 0) D(i, j) = static_cast<int32_t>(1 + random() % 100);
  return D;
}

// The closure on every rank, and split across the ranks (split by each rank, and sent out by rank 0):
// the one-process closure's entries, each rank's own rows kept by it.
template <class S, class T>
void expect_same_closure(const Matrix<T>& D, int64_t k_block) {
  Matrix<T> got = D.clone(), want = D.clone();
  dist::closure<S>(world(), got, k_block);
  cpu::closure<S>(want);
  const auto same = [](auto a, auto b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); };
  EXPECT_TRUE(same(got.data(), want.data())) << "k-block " << k_block;
  dist::SplitMatrix<T> split = dist::split_rows(world(), D, k_block);
  dist::SplitMatrix<T> sent = dist::scatter_rows(world(), world().rank() == 0 ? &D : nullptr, 0, k_block);
  EXPECT_EQ(split.starts(), sent.starts());
  EXPECT_TRUE(same(split.block().data(), sent.block().data()));
  dist::closure<S>(world(), split, k_block);
  EXPECT_EQ(split.block().n_rows(), split.mine().size());
  EXPECT_TRUE(same(dist::gathered(world(), split).data(), want.data())) << "split, k-block " << k_block;
}

TEST(DistClosure, ShortestPaths) {
  const Matrix<int32_t> D = distances(150, 7);
  for (int64_t k_block : {1, 7, 64, 150, 1000}) expect_same_closure<MinPlus<int32_t>>(D, k_block);
}

TEST(DistClosure, PositionalConSeesTheGlobalIntermediates) {
  // via_k adds each intermediate's id to a path: a block product handed local ids gives other values.
  const Matrix<int32_t> D32 = distances(130, 11);
  Matrix<long long> D(130, 130, 0);
  for (int64_t i = 0; i < 130; ++i)
    for (int64_t j = 0; j < 130; ++j) D(i, j) = D32(i, j);
  for (int64_t k_block : {7, 64}) expect_same_closure<reference_semirings::ViaK>(D, k_block);
}

TEST(DistClosure, SplitBlocksMustBeWholeKBlocks) {
  const Matrix<int32_t> D = distances(40, 3);
  dist::SplitMatrix<int32_t> split = dist::split_rows(world(), D, 3);
  // With one rank the only block starts at 0; with more, the second rank's starts at a multiple of 3
  // that is not one of 8 (40 rows in 14 units of 3: row 21 on two ranks, row 12 on three).
  if (world().size() > 1) {
    EXPECT_THROW(dist::closure<MinPlus<int32_t>>(world(), split, 8), Error);
  }
  EXPECT_THROW(dist::split_rows(world(), D, 0), Error);
}

TEST(DistClosure, Reachability) {
  const Matrix<int32_t> D = distances(97, 11);
  Matrix<bool> R(97, 97, false);
  for (int64_t i = 0; i < 97; ++i)
    for (int64_t j = 0; j < 97; ++j) R(i, j) = D(i, j) != no_path && i != j;
  for (int64_t k_block : {5, 64}) expect_same_closure<OrAnd>(R, k_block);
}

// The kernel op's form (what a --mpi program calls): the one-process closure's entries on every rank
// count, the tiled closure itself on one rank, the updates counted and the choice explained.
TEST(DistClosure, AsTheKernelsOp) {
  const Matrix<int32_t> D = distances(130, 5);
  Matrix<int32_t> want = D.clone();
  cpu::closure<MinPlus<int32_t>>(want);
  const cpu::ClosureSchedule schedule{.tile = 32, .label = "apsp"};
  KernelContext ctx(true);
  Matrix<int32_t> whole = D.clone();
  dist::closure<MinPlus<int32_t>>(world(), whole, schedule, ctx);
  EXPECT_TRUE(std::equal(whole.data().begin(), whole.data().end(), want.data().begin(), want.data().end()));
  dist::SplitMatrix<int32_t> split = dist::scatter_rows(world(), world().rank() == 0 ? &D : nullptr);
  dist::closure<MinPlus<int32_t>>(world(), split, schedule, ctx);
  const Matrix<int32_t> joined = dist::gathered(world(), split);
  EXPECT_TRUE(std::equal(joined.data().begin(), joined.data().end(), want.data().begin(), want.data().end()));
  EXPECT_EQ(ctx.work().updates, 2 * 130 * 130 * 130);
  ASSERT_EQ(ctx.plan().size(), 1u);
  EXPECT_EQ(ctx.plan()[0], world().size() == 1 ? "apsp: closure on one rank, tasks, tile 32 (the last of 2 calls)"
                                                : "apsp: closure over " + std::to_string(world().size()) +
                                                      " ranks, row blocks of whole 64-row k-blocks (the last of 2 calls)");
}

TEST(DistClosure, EmptyAndNotSquare) {
  Matrix<int32_t> none(0, 0);
  EXPECT_NO_THROW(dist::closure<MinPlus<int32_t>>(world(), none));
  Matrix<int32_t> wide(3, 4);
  EXPECT_THROW(dist::closure<MinPlus<int32_t>>(world(), wide), Error);
}

}  // namespace
}  // namespace gql::dist_test
