// The last step of C = A * B: every row's entries are copied from its scratch segment (sized by the
// row's bound) to its place in C, whose row offsets are the scan of the rows' entry counts.
// NVRTC-compatible.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device::spgemm {

// One warp per row rows[r] (r < count): its entries start at segments[r] in the scratch.
template <class V, int Threads>
__global__ void __launch_bounds__(Threads)
spgemm_compact_rows(const index_t* rows, const long long* segments, long long count, const offset_t* c_offsets,
                    const index_t* keys, const V* values, index_t* c_columns, V* c_values) {
  const long long r = (static_cast<long long>(blockIdx.x) * Threads + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (r >= count) return;
  const index_t row = rows[r];
  const offset_t dst = c_offsets[row], entries = c_offsets[row + 1] - dst;
  const long long src = segments[r];
  for (offset_t t = lane; t < entries; t += 32) {
    c_columns[dst + t] = keys[src + t];
    c_values[dst + t] = values[src + t];
  }
}

// One block per (large row, column chunk), numbered as spgemm_large_rows numbers them: the chunk's
// entries go after those of the row's earlier chunks.
template <class V, int Threads>
__global__ void __launch_bounds__(Threads)
spgemm_compact_large_rows(const index_t* rows, const long long* segments, int chunks, const long long* chunk_counts,
                          const long long* chunk_starts, const offset_t* c_offsets, const index_t* keys,
                          const V* values, index_t* c_columns, V* c_values) {
  __shared__ long long before;
  const long long slot = blockIdx.x / static_cast<unsigned>(chunks);
  const long long first_chunk = slot * chunks;
  if (threadIdx.x == 0) {
    long long sum = 0;
    for (long long c = first_chunk; c < static_cast<long long>(blockIdx.x); ++c) sum += chunk_counts[c];
    before = sum;
  }
  __syncthreads();
  const long long entries = chunk_counts[blockIdx.x];
  const offset_t dst = c_offsets[rows[slot]] + before;
  const long long src = segments[slot] + chunk_starts[blockIdx.x];
  for (long long t = threadIdx.x; t < entries; t += Threads) {
    c_columns[dst + t] = keys[src + t];
    c_values[dst + t] = values[src + t];
  }
}

// dst[r] = src[r] + base for r <= count: a batch's row offsets placed after the previous batches'.
template <class Offset>
__global__ void spgemm_shift_offsets(const Offset* src, long long count, Offset base, Offset* dst) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r <= count) dst[r] = src[r] + base;
}

}  // namespace gql::device::spgemm
