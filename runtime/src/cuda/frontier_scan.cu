// The scan of a frontier queue's out-degrees that the edge-balanced push splits into equal tiles
// (gql/device/traversal/frontier.hpp): held by the library, so that the traversals' host drivers need no nvcc.
#include <cub/device/device_scan.cuh>

#include "gql/device/traversal/frontier.cuh"
#include "gql/device/traversal/frontier.hpp"

namespace gql::gpu::detail {

size_t queue_scan_bytes(int64_t n, cudaStream_t stream) {
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const long long*>(nullptr),
                                               static_cast<long long*>(nullptr), static_cast<int>(n), stream));
  return bytes;
}

void scan_queue_degrees(const offset_t* offsets, const index_t* queue, long long queue_size, long long* degrees,
                        long long* scan, unsigned char* scratch, size_t scratch_bytes, unsigned blocks,
                        cudaStream_t stream) {
  device::traversal::queue_degrees<traversal_block>
      <<<blocks, traversal_block, 0, stream>>>(offsets, queue, queue_size, degrees);
  GQL_CUDA_CHECK_LAUNCH();
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch, scratch_bytes, degrees, scan, static_cast<int>(queue_size),
                                               stream));
}

}  // namespace gql::gpu::detail
