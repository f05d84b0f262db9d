// Transpose of a CSR graph (a pull traversal reads in-edges: the rows of the transpose).
#pragma once

#include <cstdint>
#include <vector>

#include "gql/graph.hpp"

namespace gql::cpu {

// Counting sort by column: rows of the result come out sorted because source rows are walked in order.
template <class T>
Csr<T> transpose(const Csr<T>& g) {
  const int64_t n = g.n_rows(), m = g.n_cols();
  Array<offset_t> offsets(static_cast<size_t>(m) + 1, 0);
  for (index_t j : g.col_indices()) ++offsets[static_cast<size_t>(j) + 1];
  for (int64_t j = 0; j < m; ++j) offsets[static_cast<size_t>(j) + 1] += offsets[static_cast<size_t>(j)];
  std::vector<offset_t> next(offsets.begin(), offsets.end() - 1);
  Array<index_t> cols(static_cast<size_t>(g.nvals()));  // every entry scattered below
  Array<storage_t<T>> values(stores_values<T> ? cols.size() : 0);
  const CsrView view(g);
  const auto in_values = g.values();
  for (int64_t i = 0; i < n; ++i)
    for (offset_t p = view.begin(i); p < view.end(i); ++p) {
      const auto q = static_cast<size_t>(next[static_cast<size_t>(view.column(p))]++);
      cols[q] = static_cast<index_t>(i);
      if constexpr (stores_values<T>) values[q] = in_values[static_cast<size_t>(p)];
    }
  Csr<T> out(m, n, std::move(offsets), std::move(cols), std::move(values));
  if (g.derived().symmetric()) out.derived().mark_symmetric();
  return out;
}

// The transpose that pull steps read: g itself when g is known to be symmetric, else g's transpose,
// made once and kept with g's contents (dropped when g is written; gql/derived.hpp).
template <class T>
const Csr<T>& transpose_of(const Csr<T>& g) {
  if (g.derived().symmetric()) return g;
  return g.derived().template get<Csr<T>>("transpose", [&] { return transpose(g); });
}

}  // namespace gql::cpu
