// A BFS's levels compacted on the device into a sparse vector: one CUB selection of the reached
// vertices' ids (in order) into scratch, then ids and depths written into the result, whose size the
// search counted. The host waits once, at the end, and checks the selection's count.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <climits>
#include <string>

#include "gql/device/traversal/levels_vector.hpp"

namespace gql::gpu {
namespace {

constexpr int block = 256;

__device__ inline int level_of(const unsigned char* narrow, const int* wide, long long v) {
  if (narrow != nullptr) return narrow[v] == 0xff ? -1 : static_cast<int>(narrow[v]);
  return wide[v] == INT_MAX ? -1 : wide[v];
}

struct Reached {
  const unsigned char* narrow;
  const int* wide;
  __device__ bool operator()(index_t v) const { return level_of(narrow, wide, v) >= 0; }
};

__global__ void gather_levels(const unsigned char* narrow, const int* wide, const index_t* selected, long long nvals,
                              index_t* indices, int* values) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < nvals;
       i += static_cast<long long>(gridDim.x) * block) {
    indices[i] = selected[i];
    values[i] = level_of(narrow, wide, selected[i]);
  }
}

}  // namespace

DeviceVector<int32_t> levels_vector(const unsigned char* narrow, const int* wide, int64_t n, int64_t reached,
                                    const Stream& stream) {
  DeviceVector<int32_t> out = DeviceVector<int32_t>::sparse(n, reached);
  if (n == 0) return out;
  const cudaStream_t s = stream.get();
  const Reached is_reached{narrow, wide};
  const thrust::counting_iterator<index_t> ids(0);
  // Selected into scratch of n ids (pooled), so that a wrong count cannot write past the result.
  StreamBuffer<index_t> selected(static_cast<size_t>(n), stream);
  StreamBuffer<long long> count_on_device(1, stream);
  size_t bytes = 0;
  GQL_CUDA_CHECK(
      cub::DeviceSelect::If(nullptr, bytes, ids, selected.data(), count_on_device.data(), n, is_reached, s));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(cub::DeviceSelect::If(scratch.data(), bytes, ids, selected.data(), count_on_device.data(), n,
                                       is_reached, s));
  if (reached > 0 && reached <= n) {
    const auto grid = static_cast<unsigned>(std::min<int64_t>((reached + block - 1) / block, 4096));
    gather_levels<<<grid, block, 0, s>>>(narrow, wide, selected.data(), reached, out.indices().data(),
                                         out.values().data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  auto* count = static_cast<long long*>(small_pinned_scratch());
  copy_async(count, count_on_device.data(), sizeof(long long), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  if (*count != reached)
    throw Error(ErrorKind::internal, "bfs: the search counted " + std::to_string(reached) +
                                         " reached vertices and its levels hold " + std::to_string(*count));
  return out;
}

}  // namespace gql::gpu
