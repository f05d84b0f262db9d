// Graph500's validation of a BFS, for levels (the search returns no parent array), on the device
// so that 64 roots of a scale-24 graph are checked in seconds. Over the symmetric graph G (the
// input edges both ways), one warp per vertex v:
//   1. the root is at level 0 and no other vertex is;
//   2. every reached vertex but the root has a neighbour one level up (a parent: levels fall by one
//      along it to the root, so the parents form a tree without cycles, joined by input edges);
//   3. the endpoints of every input edge differ by at most one level;
//   4. no input edge joins a reached vertex to an unreached one (the search spans the component);
//   5. levels are within [0, n).
// It also sums edge_count over the reached vertices (each input edge counted at one endpoint):
// Graph500's "input edges in the traversed component".
#pragma once

#include "gql/device/csr_view.cuh"

namespace gql::bench {

struct ValidationCounts {
  unsigned long long errors;
  unsigned long long reached;
  unsigned long long component_edges;
};

__device__ __forceinline__ long long level_of(const unsigned char* narrow, const int* wide, long long v) {
  if (narrow != nullptr) return narrow[v] == 0xff ? -1 : narrow[v];
  return wide[v] == 0x7fffffff ? -1 : wide[v];
}

__global__ void validate_levels(gql::device::CsrView<bool> g, const unsigned char* narrow, const int* wide,
                                long long root, const unsigned* edge_count, ValidationCounts* counts) {
  const int lane = static_cast<int>(threadIdx.x & 31);
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  unsigned long long errors = 0, reached = 0, edges = 0;
  for (long long v = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32; v < g.n_rows; v += warps) {
    const long long lv = level_of(narrow, wide, v);
    bool bad = false, has_parent = false;
    for (long long p = g.row_offsets[v] + lane; p < g.row_offsets[v + 1]; p += 32) {
      const long long lw = level_of(narrow, wide, g.col_indices[p]);
      if ((lv < 0) != (lw < 0)) bad = true;                                     // rule 4
      if (lv >= 0 && lw >= 0 && (lv - lw > 1 || lw - lv > 1)) bad = true;      // rule 3
      if (lv > 0 && lw == lv - 1) has_parent = true;                            // rule 2
    }
    bad = __any_sync(0xffffffffu, bad);
    has_parent = __any_sync(0xffffffffu, has_parent);
    if (lane == 0) {
      if ((v == root) != (lv == 0)) bad = true;     // rule 1
      if (lv > 0 && !has_parent) bad = true;        // rule 2
      if (lv >= g.n_rows) bad = true;               // rule 5
      errors += bad ? 1 : 0;
      if (lv >= 0) {
        ++reached;
        edges += edge_count[v];
      }
    }
  }
  if (lane == 0) {
    if (errors) atomicAdd(&counts->errors, errors);
    if (reached) atomicAdd(&counts->reached, reached);
    if (edges) atomicAdd(&counts->component_edges, edges);
  }
}

}  // namespace gql::bench
