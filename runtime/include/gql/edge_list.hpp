// An edge list (coordinate form) as readers and generators produce it, and the one builder that turns
// it into a Csr under the caller's ReadOptions (self-loops, duplicates, symmetrize).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gql/array.hpp"
#include "gql/graph.hpp"
#include "gql/read_options.hpp"

namespace gql {

// The most vertices (rows or columns) a reader or generator gives: every id fits a 32-bit index.
inline constexpr int64_t max_vertex_count = int64_t{1} * 0x7fffffff;

template <class T>
struct EdgeList {
  int64_t n_rows = 0;
  int64_t n_cols = 0;
  // gql::Array: sized without a fill (a generator's or reader's threads write every entry, and first
  // touch its pages), in huge pages from 4 MiB.
  Array<index_t> rows;                // 0-based
  Array<index_t> cols;                // 0-based
  Array<storage_t<T>> values;         // one per entry; empty for T = bool
  Array<int64_t> lines;               // source line of each entry, or empty (only used in messages)
  int index_base = 0;                 // how ids are written in the source (1 for Matrix Market), for messages
};

// Sorts rows by column, combines duplicates and applies the policies; entries are taken in list order,
// so the result does not depend on the number of threads. Errors (duplicates under Duplicates::error,
// overflowing sums, disagreeing values under symmetrize + error) are Error(io) naming `source`.
// Dimensions and index ranges are the caller's to check: indices must lie in [0, n_rows) x [0, n_cols).
template <class T>
Csr<T> build_csr(EdgeList<T>&& edges, const ReadOptions& options, const std::string& source);

}  // namespace gql
