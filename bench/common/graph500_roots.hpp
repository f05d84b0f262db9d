// Graph500's search roots: distinct random vertices that have an edge other than a self-loop, drawn
// from a seeded generator so that every run searches from the same roots.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "gql/graph.hpp"

namespace gql::bench {

inline std::vector<int64_t> pick_roots(const Csr<bool>& g, int count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int64_t> any(0, g.n_rows() - 1);
  std::vector<int64_t> roots;
  std::vector<char> taken(static_cast<size_t>(g.n_rows()), 0);
  for (int tries = 0; static_cast<int>(roots.size()) < count && tries < 100 * count + 1000; ++tries) {
    const int64_t v = any(rng);
    bool has_edge = false;
    for (offset_t p = g.row_offsets()[v]; p < g.row_offsets()[v + 1] && !has_edge; ++p)
      has_edge = g.col_indices()[p] != v;
    if (has_edge && !taken[static_cast<size_t>(v)]) {
      taken[static_cast<size_t>(v)] = 1;
      roots.push_back(v);
    }
  }
  return roots;
}

}  // namespace gql::bench
