// What a traversal did (levels, pull steps, edges read, the searched component's edges for TEPS)
// and the check of its source vertex: the same for the OpenMP traversals (gql/cpu/traversal.hpp) and
// the GPU's (gql/device/traversal/bfs.hpp, sssp.hpp, components.hpp).
#pragma once

#include <cstdint>
#include <string>

#include "gql/error.hpp"

namespace gql::common {

struct TraversalStats {
  int64_t levels = 0;          // frontier steps taken
  int64_t pull_steps = 0;      // of which pulled
  int64_t edges_examined = 0;  // adjacency entries read
  // The input edges of the searched component, as Graph500 counts them for TEPS: the out-edges of
  // every reached vertex, halved when the graph is symmetric (an undirected edge is stored twice).
  int64_t searched_edges = 0;
};

// Error(usage) naming `op` when `source` is not a vertex of an n-vertex graph.
inline void check_source(int64_t n, int64_t source, const char* op) {
  if (source < 0 || source >= n)
    throw Error(ErrorKind::usage, std::string(op) + ": source " + std::to_string(source) + " is not a vertex of a " +
                                      std::to_string(n) + "-vertex graph");
}

}  // namespace gql::common
