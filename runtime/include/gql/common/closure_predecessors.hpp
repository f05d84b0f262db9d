// The predecessors a closure with paths starts from, the same for the OpenMP closure
// (gql/cpu/closure.hpp) and the GPU's (gql/device/closure/closure_ops.hpp): made on the host, where D is.
#pragma once

#include <cstdint>

#include "gql/graph.hpp"

namespace gql::common {

// pred(i, j) = i where D(i, j) is an edge (not S::zero()) and i != j, otherwise -1.
template <class S, class T>
Matrix<int32_t> initial_predecessors(const Matrix<T>& D) {
  Matrix<int32_t> pred(D.n_rows(), D.n_cols(), -1);
  for (int64_t i = 0; i < D.n_rows(); ++i)
    for (int64_t j = 0; j < D.n_cols(); ++j)
      if (i != j && D(i, j) != S::zero()) pred(i, j) = static_cast<int32_t>(i);
  return pred;
}

}  // namespace gql::common
