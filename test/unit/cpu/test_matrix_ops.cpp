// The dense matrices' scalar assignment, union, intersect and transpose (gql/cpu/matrix_ops.hpp)
// against their definitions position by position, large enough for the parallel paths, with an
// element conversion into the result and the shape checks of union and intersect.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "gql/cpu/ops.hpp"

namespace {

using gql::Matrix;

template <class T>
Matrix<T> numbered(int64_t rows, int64_t cols, int seed) {
  Matrix<T> m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) m(i, j) = static_cast<T>((i * 31 + j * 17 + seed) % 23 - 7);
  return m;
}

TEST(MatrixOps, AssignScalarFillsEveryPositionKeepingTheShape) {
  Matrix<int32_t> C = numbered<int32_t>(301, 257, 1);
  gql::cpu::assign_scalar(C, gql::cpu::no_mask(), false, 2.75);  // converted as the language converts
  ASSERT_EQ(C.n_rows(), 301);
  ASSERT_EQ(C.n_cols(), 257);
  for (int64_t i = 0; i < C.n_rows(); ++i)
    for (int64_t j = 0; j < C.n_cols(); ++j) ASSERT_EQ(C(i, j), gql::convert_element<int32_t>(2.75));
}

TEST(MatrixOps, UnionAndIntersectApplyTheFunctionEverywhere) {
  const Matrix<int32_t> A = numbered<int32_t>(400, 300, 2), B = numbered<int32_t>(400, 300, 5);
  const auto fn = [](int32_t a, int32_t b) { return double(a) * 0.5 + double(b); };
  Matrix<double> U, I;
  gql::cpu::ewise_union(U, gql::cpu::no_mask(), false, A, B, fn);
  gql::cpu::ewise_intersect(I, gql::cpu::no_mask(), false, A, B, fn);
  ASSERT_EQ(U.n_rows(), 400);
  ASSERT_EQ(I.n_cols(), 300);
  for (int64_t i = 0; i < A.n_rows(); ++i)
    for (int64_t j = 0; j < A.n_cols(); ++j) {
      ASSERT_EQ(U(i, j), fn(A(i, j), B(i, j)));
      ASSERT_EQ(I(i, j), fn(A(i, j), B(i, j)));
    }
}

TEST(MatrixOps, UnionRefusesOperandsOfAnotherShape) {
  const Matrix<float> A(3, 4), B(4, 3);
  Matrix<float> C;
  const auto add = [](float a, float b) { return a + b; };
  EXPECT_THROW(gql::cpu::ewise_union(C, gql::cpu::no_mask(), false, A, B, add), gql::Error);
  EXPECT_THROW(gql::cpu::ewise_intersect(C, gql::cpu::no_mask(), false, A, B, add), gql::Error);
}

TEST(MatrixOps, TransposeSwapsRowsAndColumns) {
  for (auto [rows, cols] : {std::pair<int64_t, int64_t>{513, 129}, {1, 7}, {0, 5}}) {
    const Matrix<int64_t> A = numbered<int64_t>(rows, cols, 3);
    Matrix<int64_t> T;
    gql::cpu::transpose(T, gql::cpu::no_mask(), false, A);
    ASSERT_EQ(T.n_rows(), cols);
    ASSERT_EQ(T.n_cols(), rows);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) ASSERT_EQ(T(j, i), A(i, j)) << i << ", " << j;
  }
}

}  // namespace
