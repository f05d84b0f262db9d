// The launch of a matrix's pending element stores (gql/device/element_stores.hpp): positions and
// values uploaded together, then one thread per store.
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "gql/device/element_stores.hpp"
#include "gql/error.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;

template <class Word>
__global__ void scatter(Word* data, const int64_t* positions, const Word* values, int64_t count) {
  for (int64_t n = blockIdx.x * static_cast<int64_t>(block) + threadIdx.x; n < count;
       n += static_cast<int64_t>(gridDim.x) * block)
    data[positions[n]] = values[n];
}

template <class Word>
void scatter_words(void* data, const int64_t* positions, const void* values, int64_t count, const Stream& stream) {
  // One upload: the positions, then the values (aligned, as the positions are 8 bytes each).
  const auto n = static_cast<size_t>(count);
  std::vector<unsigned char> staged(n * (sizeof(int64_t) + sizeof(Word)));
  std::memcpy(staged.data(), positions, n * sizeof(int64_t));
  std::memcpy(staged.data() + n * sizeof(int64_t), values, n * sizeof(Word));
  DeviceBuffer<unsigned char> on_device(staged.size());
  on_device.copy_from_host(std::span<const unsigned char>(staged), stream);
  const auto* device_positions = reinterpret_cast<const int64_t*>(on_device.data());
  const auto* device_values = reinterpret_cast<const Word*>(on_device.data() + n * sizeof(int64_t));
  scatter<<<launches::grid_for(count), block, 0, stream.get()>>>(static_cast<Word*>(data), device_positions, device_values, count);
  GQL_CUDA_CHECK_LAUNCH();
  stream.synchronize();  // `staged` and `on_device` live on this frame
}

}  // namespace

void scatter_elements(void* data, size_t element_bytes, const int64_t* positions, const void* values, int64_t count,
                      const Stream& stream) {
  if (count <= 0) return;
  launches::with_word_of(element_bytes, "scatter_elements", [&](auto word) {
    scatter_words<decltype(word)>(data, positions, values, count, stream);
  });
}

}  // namespace gql::gpu
