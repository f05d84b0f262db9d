// The device half of a narrowed upload (gql/device.hpp's CopyPart): elements that crossed the link in
// fewer bytes (little-endian, `wire_bytes` each) widened into their place, 4 or 8 bytes each.
#include "small_launches.cuh"
#include "widen_ids.hpp"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

template <class Word>
__global__ void widen(const unsigned char* packed, unsigned wire_bytes, Word* out, long long count) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < count;
       i += static_cast<long long>(gridDim.x) * block) {
    const unsigned char* from = packed + i * wire_bytes;
    Word value = 0;
    for (unsigned b = 0; b < wire_bytes; ++b) value |= static_cast<Word>(from[b]) << (8 * b);
    out[i] = value;
  }
}

}  // namespace

void widen_on_device(const unsigned char* packed, unsigned wire_bytes, void* out, unsigned element_bytes,
                     size_t count, const Stream& stream) {
  if (count == 0) return;
  const auto n = static_cast<long long>(count);
  if (element_bytes == 8) {
    widen<<<grid_for(n), block, 0, stream.get()>>>(packed, wire_bytes, static_cast<unsigned long long*>(out), n);
  } else {
    widen<<<grid_for(n), block, 0, stream.get()>>>(packed, wire_bytes, static_cast<unsigned*>(out), n);
  }
  GQL_CUDA_CHECK_LAUNCH();
}

}  // namespace gql::gpu
