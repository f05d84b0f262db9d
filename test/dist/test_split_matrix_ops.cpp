// What a generated kernel does with a matrix held split across the ranks (gql/dist/split_matrix_ops.hpp)
// against the same on a whole matrix: copies, element stores in every rank's block (and none in a rank
// holding no rows), a store outside the shape failing on every rank alike, and the gather on one rank.
#include <algorithm>
#include <cstdint>

#include "dist_test.hpp"
#include "gql/dist/split_matrix_ops.hpp"

namespace gql::dist_test {
namespace {

Matrix<int64_t> numbered(int64_t n_rows, int64_t n_cols) {
  Matrix<int64_t> M(n_rows, n_cols);
  for (int64_t i = 0; i < n_rows; ++i)
    for (int64_t j = 0; j < n_cols; ++j) M(i, j) = i * 1000 + j;
  return M;
}

bool same(const Matrix<int64_t>& a, const Matrix<int64_t>& b) {
  return a.n_rows() == b.n_rows() && a.n_cols() == b.n_cols() &&
         std::equal(a.data().begin(), a.data().end(), b.data().begin(), b.data().end());
}

TEST(DistSplitMatrixOps, StoresCopiesAndTheGather) {
  // 70 rows in units of 8: blocks of whole units, the last one short; with more ranks than units
  // some rank holds none.
  for (const int64_t unit : {int64_t{8}, int64_t{64}}) {
    const Matrix<int64_t> D = numbered(70, 5);
    dist::SplitMatrix<int64_t> split = dist::scatter_rows(world(), world().rank() == 0 ? &D : nullptr, 0, unit);
    EXPECT_EQ(rows(split), 70);
    EXPECT_EQ(cols(split), 5);
    EXPECT_EQ(nvals(split), 350);
    dist::SplitMatrix<int64_t> copy;
    dist::assign(copy, split);
    Matrix<int64_t> want = D.clone();
    for (int64_t i = 0; i < 70; i += 3) {
      dist::set_element(copy, i, i % 5, -i);
      cpu::set_element(want, i, i % 5, -i);
    }
    EXPECT_EQ(copy.starts(), split.starts());
    const Matrix<int64_t> got = dist::gathered_on(world(), copy, 0);
    if (world().rank() == 0) EXPECT_TRUE(same(got, want)) << "unit " << unit;
    else EXPECT_EQ(got.n_rows() * got.n_cols(), 0);
    // The copy is its own: the source kept its entries.
    EXPECT_TRUE(same(dist::gathered(world(), split), D));
  }
}

TEST(DistSplitMatrixOps, AStoreOutsideTheShapeFailsEverywhere) {
  const Matrix<int64_t> D = numbered(10, 10);
  dist::SplitMatrix<int64_t> split = dist::split_rows(world(), D, 4);
  EXPECT_THROW(dist::set_element(split, 10, 0, 1), Error);
  EXPECT_THROW(dist::set_element(split, 0, -1, 1), Error);
  EXPECT_TRUE(same(dist::gathered(world(), split), D));
}

TEST(DistSplitMatrixOps, EmptyMatrix) {
  const Matrix<int64_t> none(0, 0);
  dist::SplitMatrix<int64_t> split = dist::scatter_rows(world(), world().rank() == 0 ? &none : nullptr);
  const Matrix<int64_t> got = dist::gathered_on(world(), split, 0);
  EXPECT_EQ(got.n_rows(), 0);
  dist::SplitMatrix<int64_t> unset;
  EXPECT_EQ(rows(unset), 0);
}

}  // namespace
}  // namespace gql::dist_test
