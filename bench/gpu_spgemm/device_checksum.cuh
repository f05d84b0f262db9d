// Order-independent checksums of a CSR result computed where it lies (on the device), so a result
// of a billion entries is compared without copying it back: the number of entries, the sum of the
// values (as exact integers) and a sum of mixed hashes of (row, column, value).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <type_traits>

#include "gql/device.hpp"

namespace gql::bench {

struct Checksum {
  unsigned long long nvals = 0;
  unsigned long long value_sum = 0;  // sum of the values, each taken as an integer
  unsigned long long hash = 0;       // sum of mix(row, column, value) over the entries
  unsigned long long inexact = 0;    // entries whose value is not an integer below 2^24 (fp32 only)
  bool operator==(const Checksum&) const = default;
};

__host__ __device__ inline unsigned long long checksum_mix(unsigned long long i, unsigned long long j,
                                                           unsigned long long x) {
  unsigned long long h = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull) ^ (x * 0xD6E8FEB86659FD93ull);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

// One warp per row: entries' (count, value sum, hash, inexact) summed into out[0..3].
template <class Offset, class V>
__global__ void checksum_rows(long long n_rows, const Offset* offsets, const int* columns, const V* values,
                              unsigned long long* out) {
  const int lane = static_cast<int>(threadIdx.x % 32);
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  unsigned long long count = 0, sum = 0, hash = 0, inexact = 0;
  for (long long row = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32; row < n_rows;
       row += warps) {
    for (long long p = static_cast<long long>(offsets[row]) + lane; p < static_cast<long long>(offsets[row + 1]);
         p += 32) {
      const V v = values[p];
      const auto x = static_cast<unsigned long long>(v);
      if constexpr (std::is_floating_point_v<V>) {  // fp32 sums are exact integers below 2^24 only
        if (static_cast<V>(x) != v || v >= static_cast<V>(16777216.0f)) ++inexact;
      }
      ++count;
      sum += x;
      hash += checksum_mix(static_cast<unsigned long long>(row), static_cast<unsigned long long>(columns[p]), x);
    }
  }
  for (int shift = 16; shift > 0; shift /= 2) {
    count += __shfl_down_sync(0xffffffffu, count, shift);
    sum += __shfl_down_sync(0xffffffffu, sum, shift);
    hash += __shfl_down_sync(0xffffffffu, hash, shift);
    inexact += __shfl_down_sync(0xffffffffu, inexact, shift);
  }
  if (lane == 0 && count > 0) {
    atomicAdd(out + 0, count);
    atomicAdd(out + 1, sum);
    atomicAdd(out + 2, hash);
    atomicAdd(out + 3, inexact);
  }
}

template <class Offset, class V>
Checksum checksum(long long n_rows, const Offset* offsets, const int* columns, const V* values,
                  const Stream& stream) {
  DeviceBuffer<unsigned long long> totals(4);
  totals.fill_zero(stream);
  if (n_rows > 0) {
    const long long blocks = (n_rows * 32 + 255) / 256;
    checksum_rows<Offset, V><<<static_cast<unsigned>(blocks < 65536 ? blocks : 65536), 256, 0, stream.get()>>>(
        n_rows, offsets, columns, values, totals.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  unsigned long long host[4] = {0, 0, 0, 0};
  totals.copy_to_host(std::span<unsigned long long>(host, 4), stream);
  stream.synchronize();
  return {host[0], host[1], host[2], host[3]};
}

}  // namespace gql::bench
