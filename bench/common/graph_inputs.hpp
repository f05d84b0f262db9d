// The benchmarks' graphs: a generator spec ("kron:16") or a file, named in records by the spec or the
// file's base name; and weights for graphs that have none, derived from each entry's coordinates so
// that every library sees the same weighted graph.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checksum.hpp"
#include "gql/graph.hpp"

namespace gql::bench {

inline std::string graph_name(const std::string& spec) {
  const size_t slash = spec.find_last_of('/');
  return slash == std::string::npos ? spec : spec.substr(slash + 1);
}

// The same structure as g, entry (i, j) weighted 1 + (hash(i, j) mod 100): integers, so sums and
// minima are exact in fp32 and every library computes the same values.
template <class T>
Csr<T> hashed_weights(const Csr<bool>& g) {
  gql::Array<storage_t<T>> values(static_cast<size_t>(g.nvals()));
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p) {
      const auto j = static_cast<uint64_t>(g.col_indices()[static_cast<size_t>(p)]);
      values[static_cast<size_t>(p)] = static_cast<T>(1 + entry_hash(static_cast<uint64_t>(i), j, 0) % 100);
    }
  return Csr<T>(g.n_rows(), g.n_cols(), {g.row_offsets().begin(), g.row_offsets().end()},
                {g.col_indices().begin(), g.col_indices().end()}, std::move(values));
}

}  // namespace gql::bench
