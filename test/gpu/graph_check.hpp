// Graphs for the GPU tests: equality of shape, structure and values, entry by entry.
#pragma once

#include <algorithm>

#include "gql/graph.hpp"

namespace gql::gpu_test {

template <class T>
bool same_graph(const Csr<T>& a, const Csr<T>& b) {
  return a.n_rows() == b.n_rows() && a.n_cols() == b.n_cols() &&
         std::equal(a.row_offsets().begin(), a.row_offsets().end(), b.row_offsets().begin(), b.row_offsets().end()) &&
         std::equal(a.col_indices().begin(), a.col_indices().end(), b.col_indices().begin(), b.col_indices().end()) &&
         std::equal(a.values().begin(), a.values().end(), b.values().begin(), b.values().end());
}

}  // namespace gql::gpu_test
