// Dense matrices for the GPU tests of matrix ops: one filled with small numbers that differ by
// position and seed (exact in every element type), and equality of shape and entries.
#pragma once

#include <cstdint>

#include "gql/graph.hpp"

namespace gql::gpu_test {

template <class T>
Matrix<T> numbered_matrix(int64_t rows, int64_t cols, int seed) {
  Matrix<T> m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m(i, j) = static_cast<storage_t<T>>(convert_element<T>((i * 31 + j * 17 + seed) % 13 - 4));
  return m;
}

template <class T>
bool same_matrix(const Matrix<T>& a, const Matrix<T>& b) {
  if (a.n_rows() != b.n_rows() || a.n_cols() != b.n_cols()) return false;
  for (int64_t i = 0; i < a.n_rows(); ++i)
    for (int64_t j = 0; j < a.n_cols(); ++j)
      if (a(i, j) != b(i, j)) return false;
  return true;
}

}  // namespace gql::gpu_test
