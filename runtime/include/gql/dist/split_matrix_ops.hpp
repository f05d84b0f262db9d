// What a kernel of a program for several processes does with a matrix it holds split across the
// ranks (plan::split_matrix, docs/programs.md): copies, element stores and the gather of
// a result on rank 0. Every rank calls each of them alike, as it does the one-process op; only the
// rank holding a row stores into it, and no rank ever holds more than its own rows until the gather.
#pragma once

#include <cstdint>
#include <utility>

#include "gql/cpu/ops.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/split_matrix.hpp"
#include "gql/dist/world.hpp"

namespace gql::dist {

// C = A: each rank copies its own rows.
template <class T>
void assign(SplitMatrix<T>& C, const SplitMatrix<T>& A) {
  C = A.clone();
}

// C(i, j) = value, stored by the rank holding row i. Every rank checks (i, j) against the whole
// shape, so an index outside it fails on every rank alike, with the one-process op's error.
template <class TC, class S>
void set_element(SplitMatrix<TC>& C, int64_t i, int64_t j, S value) {
  cpu::check_element_index(i, j, C.n_rows(), C.n_cols(), "matrix");
  const RowRange mine = C.mine();
  if (i >= mine.begin && i < mine.end) cpu::set_element(C.block(), i - mine.begin, j, value);
}

// The whole matrix on rank `root`, each rank's rows sent there and received in place; a 0 x 0
// matrix on the other ranks. For a result that only the root writes out.
template <class T>
Matrix<T> gathered_on(const World& world, const SplitMatrix<T>& D, int root = 0) {
  Array<storage_t<T>> entries = detail::items_on<storage_t<T>>(world, D.block().data(), root);
  if (world.rank() != root) return Matrix<T>();
  return Matrix<T>(D.n_rows(), D.n_cols(), std::move(entries));
}

}  // namespace gql::dist
