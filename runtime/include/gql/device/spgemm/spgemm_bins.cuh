// Row classes of C = A * B on the device, from each row's product bound: every row of a batch gets
// a bin (empty, tiny, small, medium, sorted, large), the bins' row counts and the batch's products
// are summed into a census, and each row's scratch segment is sized (its bound, or at most one
// entry per column of C for large rows). The driver then sorts the rows by bin in one radix pass.
// NVRTC-compatible.
#pragma once

#include "gql/device/spgemm/spgemm_bin_limits.cuh"
#include "gql/device/types.cuh"

namespace gql::device::spgemm {

__device__ __forceinline__ unsigned char spgemm_bin_of(long long bound, const SpgemmBinLimits& limits) {
  if (bound == 0) return bin_empty;
  if (bound <= limits.tiny) return bin_tiny;
  if (bound <= limits.small) return bin_small;
  if (bound <= limits.medium) return bin_medium;
  if (bound <= limits.sorted) return bin_sorted;
  return bin_large;
}

// Rows [first, first + count): bins[r], row ids rows[r] and scratch sizes segment_sizes[r] of row
// first + r; the census is added to (zeroed by the caller).
template <int Threads>
__global__ void __launch_bounds__(Threads)
spgemm_classify_rows(const long long* bounds, long long first, long long count, long long n_cols,
                     SpgemmBinLimits limits, unsigned char* bins, index_t* rows, long long* segment_sizes,
                     unsigned long long* census) {
  __shared__ unsigned long long block_census[spgemm_census_size];
  if (threadIdx.x < spgemm_census_size) block_census[threadIdx.x] = 0;
  __syncthreads();
  const long long r = static_cast<long long>(blockIdx.x) * Threads + threadIdx.x;
  if (r < count) {
    const long long bound = bounds[first + r];
    const unsigned char bin = spgemm_bin_of(bound, limits);
    bins[r] = bin;
    rows[r] = static_cast<index_t>(first + r);
    const long long segment = bin == bin_large ? min_of(bound, n_cols) : bound;
    segment_sizes[r] = segment;
    atomicAdd(&block_census[bin], 1ull);
    atomicAdd(&block_census[bin_count + bin], static_cast<unsigned long long>(bound));
    atomicAdd(&block_census[2 * bin_count], static_cast<unsigned long long>(segment));
  }
  __syncthreads();
  if (threadIdx.x < spgemm_census_size && block_census[threadIdx.x] != 0)
    atomicAdd(&census[threadIdx.x], block_census[threadIdx.x]);
}

// out[r] = values[rows[r]] for r < count, and out[count] = 0 when with_end is set (so an exclusive
// scan over count + 1 items ends with the total).
template <class T>
__global__ void spgemm_gather_by_row(const index_t* rows, long long count, const T* values, long long base,
                                     T* out, bool with_end) {
  const long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < count) out[r] = values[rows[r] - base];
  else if (with_end && r == count) out[r] = T{};
}

}  // namespace gql::device::spgemm
