// The counters a device traversal's step leaves for the host: shared by the kernels (frontier.cuh)
// and the host drivers, which any compiler builds. NVRTC-compatible.
#pragma once

namespace gql::device::traversal {

// What a step leaves for the host: the next frontier's size and edges, and the work it did.
struct StepCounters {
  unsigned long long next_size;       // vertices in the next frontier
  unsigned long long next_out_edges;  // their out-degrees in G: the next frontier's edges
  unsigned long long next_in_edges;   // their in-degrees (rows of GT): edges no longer open
  unsigned long long examined;        // adjacency entries read (counted on the device by pull steps)
  unsigned long long stopped;         // a step of a device-driven batch that did not run (see sssp.hpp)
};

}  // namespace gql::device::traversal
