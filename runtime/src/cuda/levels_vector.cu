// A BFS's levels compacted on the device into a sparse vector: flag the reached vertices, scan the
// flags (CUB) for their positions, and scatter ids and depths there.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>

#include "gql/device/levels_vector.hpp"

namespace gql::gpu {
namespace {

constexpr int block = 256;

__device__ inline int level_of(const unsigned char* narrow, const int* wide, long long v) {
  if (narrow != nullptr) return narrow[v] == 0xff ? -1 : static_cast<int>(narrow[v]);
  return wide[v] == INT_MAX ? -1 : wide[v];
}

__global__ void reached_flags(const unsigned char* narrow, const int* wide, long long n, int* flags) {
  for (long long v = blockIdx.x * static_cast<long long>(block) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * block)
    flags[v] = level_of(narrow, wide, v) >= 0 ? 1 : 0;
}

__global__ void scatter_levels(const unsigned char* narrow, const int* wide, long long n, const int* positions,
                               int* indices, int* values) {
  for (long long v = blockIdx.x * static_cast<long long>(block) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * block) {
    const int level = level_of(narrow, wide, v);
    if (level >= 0) {
      indices[positions[v]] = static_cast<int>(v);
      values[positions[v]] = level;
    }
  }
}

}  // namespace

DeviceVector<int32_t> levels_vector(const unsigned char* narrow, const int* wide, int64_t n, const Stream& stream) {
  if (n == 0) return DeviceVector<int32_t>::sparse(0, 0);
  const cudaStream_t s = stream.get();
  const unsigned grid = static_cast<unsigned>(std::min<int64_t>((n + block - 1) / block, 4096));
  StreamBuffer<int> flags(static_cast<size_t>(n), stream), positions(static_cast<size_t>(n), stream);
  reached_flags<<<grid, block, 0, s>>>(narrow, wide, n, flags.data());
  GQL_CUDA_CHECK_LAUNCH();
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, flags.data(), positions.data(), static_cast<int>(n), s));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, flags.data(), positions.data(), static_cast<int>(n), s));
  int* last = static_cast<int*>(small_pinned_scratch());
  copy_async(&last[0], positions.data() + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  copy_async(&last[1], flags.data() + n - 1, sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  DeviceVector<int32_t> out = DeviceVector<int32_t>::sparse(n, last[0] + last[1]);
  if (out.nvals() > 0) {
    scatter_levels<<<grid, block, 0, s>>>(narrow, wide, n, positions.data(), out.indices().data(), out.values().data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  stream.synchronize();
  return out;
}

}  // namespace gql::gpu
