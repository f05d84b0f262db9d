// The row classes of C = A * B (bins) and their limits, as the classification kernel and the host
// driver share them. NVRTC-compatible and host-compilable (plain types only).
#pragma once

#include "gql/device/types.cuh"

namespace gql::device::spgemm {

// Bins in the order the rows are sorted into.
enum SpgemmBin : unsigned char {
  bin_empty = 0,   // no products
  bin_tiny = 1,    // products sorted in shared memory by a small block
  bin_small = 2,   // products sorted in shared memory by a full block
  bin_medium = 3,  // a shared-memory hash table
  bin_sorted = 4,  // spilled to global memory: the hybrid sort (bitonic chunks, merge path)
  bin_large = 5,   // dense accumulators over column chunks
  bin_count = 6,
};

// Upper ends (inclusive) of the classes' bounds; large rows are the rest.
struct SpgemmBinLimits {
  long long tiny;
  long long small;
  long long medium;
  long long sorted;
};

// census[bin]: the rows of each bin; census[bin_count + bin]: their products; census[2 * bin_count]:
// the scratch cells of all rows.
inline constexpr int spgemm_census_size = 2 * bin_count + 1;

}  // namespace gql::device::spgemm
