// The byte map of a device vector mask (gql/device/vector_mask.hpp): every byte set to "absent",
// then the mask's indices scattered as "present".
#include <algorithm>

#include "gql/device/vector_mask.hpp"

namespace gql::gpu {
namespace {

constexpr int block = 256;

__global__ void scatter_present(const index_t* indices, long long nvals, unsigned char value, unsigned char* map) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    map[indices[p]] = value;
}

}  // namespace

DeviceBuffer<unsigned char> allowed_map(int64_t n, const index_t* indices, int64_t nvals, bool complement,
                                        const Stream& stream) {
  DeviceBuffer<unsigned char> map(static_cast<size_t>(std::max<int64_t>(n, 1)));
  const unsigned char present = complement ? 0 : 1;
  const bool dense = indices == nullptr;
  GQL_CUDA_CHECK(cudaMemsetAsync(map.data(), dense ? present : 1 - present, map.size(), stream.get()));
  if (!dense && nvals > 0) {
    const auto grid = static_cast<unsigned>(std::min<int64_t>((nvals + block - 1) / block, 4096));
    scatter_present<<<grid, block, 0, stream.get()>>>(indices, nvals, present, map.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  return map;
}

}  // namespace gql::gpu
