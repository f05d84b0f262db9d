// Synthetic graphs: Graph500 Kronecker, GAP-style uniform random, and 2-D grids. Every random draw
// comes from a counter-based generator keyed by (seed, edge number), so a graph depends on its
// parameters only: not on the run, the machine or the number of threads.
//
// The *_edges functions give the raw edge list (Kronecker and urand keep self-loops and duplicates, as
// Graph500 and GAP make them); the others build the Csr under ReadOptions (e.g. symmetrize for an
// undirected graph, SelfLoops::drop).
#pragma once

#include <cstdint>
#include <string_view>

#include "gql/edge_list.hpp"
#include "gql/graph.hpp"
#include "gql/read_options.hpp"

namespace gql {

inline constexpr uint64_t default_generator_seed = 1;

struct KroneckerOptions {
  int scale = 16;              // 2^scale vertices, 0..30
  int64_t edge_factor = 16;    // edge_factor * 2^scale directed edges
  uint64_t seed = default_generator_seed;
  bool weighted = false;       // values uniform in [1, 255] (otherwise 1)
};

// Graph500's generator: initiator probabilities A=0.57, B=0.19, C=0.19 (D=0.05) at every level,
// then vertex labels permuted by a seeded random permutation.
template <class T>
EdgeList<T> kronecker_edges(const KroneckerOptions& options);
template <class T>
Csr<T> kronecker(const KroneckerOptions& options, const ReadOptions& read = {});

struct UniformOptions {
  int scale = 16;              // 2^scale vertices, 0..30
  int64_t edge_factor = 16;    // edge_factor * 2^scale directed edges, endpoints uniform
  uint64_t seed = default_generator_seed;
  bool weighted = false;       // values uniform in [1, 255] (otherwise 1)
};

// GAP's "urand": every endpoint uniform over the vertices (an Erdos-Renyi-like graph).
template <class T>
EdgeList<T> urand_edges(const UniformOptions& options);
template <class T>
Csr<T> urand(const UniformOptions& options, const ReadOptions& read = {});

// A rows x cols 4-neighbour grid, vertex r * cols + c, each edge in both directions, values 1.
template <class T>
EdgeList<T> grid_edges(int64_t rows, int64_t cols);
template <class T>
Csr<T> grid(int64_t rows, int64_t cols, const ReadOptions& read = {});

// The graph a spec string names: "kron:SCALE[:EDGEFACTOR[:SEED]]", "urand:SCALE[:EDGEFACTOR[:SEED]]"
// (edge factor 16 and seed 1 by default, unweighted) or "grid:ROWSxCOLS". Error(usage) if malformed.
template <class T>
Csr<T> generate_graph(std::string_view spec, const ReadOptions& read = {});

}  // namespace gql
