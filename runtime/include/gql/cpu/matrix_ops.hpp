// The dense matrices' whole-value ops on the host: assignment of a scalar, union, intersect and
// transpose (apply, reduce and dense(G) are with the other containers' in elementwise.hpp and
// ops.hpp). A dense matrix has an entry at every position, so union and intersect both apply the
// function at every position, and none of these ops takes a mask (sema refuses one).
#pragma once

#include <cstdint>
#include <utility>

#include "gql/common/mask.hpp"
#include "gql/cpu/elementwise.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

namespace detail {

// fn(A(i, j), B(i, j)) at every position, as R.
template <class R, class TA, class TB, class F>
Matrix<R> combine_entries(const Matrix<TA>& A, const Matrix<TB>& B, F fn, const char* op) {
  check_same_shape(A.n_rows(), A.n_cols(), B.n_rows(), B.n_cols(), op);
  Matrix<R> out(A.n_rows(), A.n_cols());
  const auto a = A.data();
  const auto b = B.data();
  auto dst = out.data();
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(a.size())))
  for (size_t p = 0; p < a.size(); ++p) dst[p] = cast_value<R>(fn(TA(a[p]), TB(b[p])));
  return out;
}

}  // namespace detail

// C = value: every position of C (its shape kept).
template <class TC, class S>
void assign_scalar(Matrix<TC>& C, common::NoMask, bool, S value) {
  C = Matrix<TC>(C.n_rows(), C.n_cols(), detail::cast_value<TC>(value));
}

// C = union(A, B, fn) and C = intersect(A, B, fn): fn of the two entries at every position.
template <class TC, class TA, class TB, class F>
void ewise_union(Matrix<TC>& C, common::NoMask, bool, const Matrix<TA>& A, const Matrix<TB>& B, F fn) {
  C = detail::combine_entries<TC>(A, B, fn, "union");
}
template <class TC, class TA, class TB, class F>
void ewise_intersect(Matrix<TC>& C, common::NoMask, bool, const Matrix<TA>& A, const Matrix<TB>& B, F fn) {
  C = detail::combine_entries<TC>(A, B, fn, "intersect");
}

// C = A': row j of C is column j of A.
template <class TC, class TA>
void transpose(Matrix<TC>& C, common::NoMask, bool, const Matrix<TA>& A) {
  const int64_t rows = A.n_rows(), cols = A.n_cols();
  Matrix<TC> out(cols, rows);
  const auto in = A.data();
  auto dst = out.data();
#pragma omp parallel for schedule(static) if (worth_threads(rows * cols))
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      dst[static_cast<size_t>(j * rows + i)] = detail::cast_value<TC>(TA(in[static_cast<size_t>(i * cols + j)]));
  C = std::move(out);
}

}  // namespace gql::cpu
