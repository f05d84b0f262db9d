// The byte map of a device vector mask (gql/device/values/vector_mask.hpp): every byte set to "absent",
// then the mask's indices scattered as "present" (for a value mask: as "present" where the index's
// value selects, "absent" elsewhere).
#include <algorithm>

#include "gql/device/values/vector_mask.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

__global__ void scatter_present(const index_t* indices, long long nvals, unsigned char value, unsigned char* map) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    map[indices[p]] = value;
}

// Entry p (at index indices[p], or p when indices is null) is present where its value selects.
template <class Word>
__global__ void scatter_selected(const index_t* indices, const Word* words, long long nvals, MaskValues values,
                                 unsigned char present, unsigned char* map) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    map[indices != nullptr ? indices[p] : p] =
        values.selects(static_cast<uint64_t>(words[p])) ? present : static_cast<unsigned char>(1 - present);
}

}  // namespace

DeviceBuffer<unsigned char> allowed_map(int64_t n, const index_t* indices, int64_t nvals, const MaskValues& values,
                                        bool complement, const Stream& stream) {
  DeviceBuffer<unsigned char> map(static_cast<size_t>(std::max<int64_t>(n, 1)));
  const unsigned char present = complement ? 0 : 1;
  // Null indices with every index present: a dense mask. An empty sparse mask has null indices too
  // (its buffer was never allocated) and lets nothing through (everything, complemented).
  const bool dense = indices == nullptr && nvals == n;
  const bool every_index = dense && values.words == nullptr;
  GQL_CUDA_CHECK(cudaMemsetAsync(map.data(), every_index ? present : 1 - present, map.size(), stream.get()));
  if (every_index || nvals == 0) return map;
  if (values.words == nullptr) {
    scatter_present<<<grid_for(nvals), block, 0, stream.get()>>>(indices, nvals, present, map.data());
  } else {
    launches::with_word_of(values.bytes, "value mask", [&](auto word) {
      using Word = decltype(word);
      scatter_selected<Word><<<grid_for(nvals), block, 0, stream.get()>>>(
          indices, static_cast<const Word*>(values.words), nvals, values, present, map.data());
    });
  }
  GQL_CUDA_CHECK_LAUNCH();
  return map;
}

}  // namespace gql::gpu
