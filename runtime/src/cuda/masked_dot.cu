// The structural pieces of the GPU's masked product by the mask's entries (gql/device/spgemm/masked_dot.hpp):
// the two work estimates (a thread per row or per mask entry, summed by atomics), and the compaction
// of the found entries (a CUB scan of the found flags, then each row's offset and each entry written
// where the scan puts it).
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <cstdint>

#include "gql/device/spgemm/masked_dot.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

__global__ void row_products(const offset_t* a_offsets, const index_t* a_columns, long long n_rows,
                             const offset_t* b_offsets, const offset_t* mask_offsets, unsigned long long* total) {
  unsigned long long sum = 0;
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < n_rows;
       i += static_cast<long long>(gridDim.x) * block) {
    if (mask_offsets[i] == mask_offsets[i + 1]) continue;
    for (offset_t p = a_offsets[i]; p < a_offsets[i + 1]; ++p) {
      const index_t k = a_columns[p];
      sum += static_cast<unsigned long long>(b_offsets[k + 1] - b_offsets[k]);
    }
  }
  atomicAdd(total, sum);
}

__device__ inline unsigned long long bit_width_of(unsigned long long x) { return 64 - __clzll(x); }

__global__ void join_steps(const offset_t* a_offsets, long long n_rows, const offset_t* bt_offsets,
                           const offset_t* mask_offsets, const index_t* mask_columns, long long entries,
                           unsigned long long* total) {
  unsigned long long sum = 0;
  for (long long e = blockIdx.x * static_cast<long long>(block) + threadIdx.x; e < entries;
       e += static_cast<long long>(gridDim.x) * block) {
    const long long lo = launches::row_holding(mask_offsets, n_rows, e);
    const index_t j = mask_columns[e];
    const auto na = static_cast<unsigned long long>(a_offsets[lo + 1] - a_offsets[lo]);
    const auto nb = static_cast<unsigned long long>(bt_offsets[j + 1] - bt_offsets[j]);
    const unsigned long long shorter = na < nb ? na : nb, longer = na < nb ? nb : na;
    sum += shorter == 0 ? 1 : shorter * (1 + bit_width_of(longer));
  }
  atomicAdd(total, sum);
}

struct AsOffset {
  __device__ offset_t operator()(unsigned char f) const { return f != 0 ? 1 : 0; }
};

__global__ void row_offsets_of(const offset_t* mask_offsets, long long n_rows, const offset_t* positions,
                               offset_t* c_offsets) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i <= n_rows;
       i += static_cast<long long>(gridDim.x) * block)
    c_offsets[i] = positions[mask_offsets[i]];
}

template <class Word>
__global__ void scatter_found(const index_t* mask_columns, long long entries, const unsigned char* found,
                              const offset_t* positions, const Word* values, index_t* c_columns, Word* c_values) {
  for (long long e = blockIdx.x * static_cast<long long>(block) + threadIdx.x; e < entries;
       e += static_cast<long long>(gridDim.x) * block)
    if (found[e]) {
      c_columns[positions[e]] = mask_columns[e];
      c_values[positions[e]] = values[e];
    }
}

// Launches a kernel that adds into one total (launch_with(total)), and reads the total back.
template <class Launch>
int64_t summed(const Stream& stream, Launch&& launch_with) {
  StreamBuffer<unsigned long long> total(1, stream);
  memset_async(total.data(), 0, sizeof(unsigned long long), stream);
  launch_with(total.data());
  GQL_CUDA_CHECK_LAUNCH();
  return static_cast<int64_t>(launches::read_back(total.data(), stream));
}

}  // namespace

namespace detail {

int64_t masked_row_products(const offset_t* a_offsets, const index_t* a_columns, int64_t n_rows,
                            const offset_t* b_offsets, const offset_t* mask_offsets, const Stream& stream) {
  if (n_rows == 0) return 0;
  return summed(stream, [&](unsigned long long* total) {
    row_products<<<grid_for(n_rows), block, 0, stream.get()>>>(a_offsets, a_columns, n_rows, b_offsets, mask_offsets,
                                                               total);
  });
}

int64_t masked_join_steps(const offset_t* a_offsets, int64_t n_rows, const offset_t* bt_offsets,
                          const offset_t* mask_offsets, const index_t* mask_columns, int64_t entries,
                          const Stream& stream) {
  if (entries == 0) return 0;
  return summed(stream, [&](unsigned long long* total) {
    join_steps<<<grid_for(entries), block, 0, stream.get()>>>(a_offsets, n_rows, bt_offsets, mask_offsets,
                                                              mask_columns, entries, total);
  });
}

int64_t found_positions(const unsigned char* found, int64_t entries, offset_t* positions, const Stream& stream) {
  if (entries == 0) {
    memset_async(positions, 0, sizeof(offset_t), stream);
    return 0;
  }
  // An exclusive scan over entries + 1 flags, the last read as 0: positions[entries] is the count.
  const auto flags = thrust::make_transform_iterator(found, AsOffset{});
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, flags, positions, entries, stream.get()));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, flags, positions, entries, stream.get()));
  // The count: the last position plus the last flag.
  const offset_t count = launches::read_back(positions + entries - 1, stream) +
                         (launches::read_back(found + entries - 1, stream) != 0 ? 1 : 0);
  launches::write_one(positions + entries, count, stream);
  return count;
}

void compact_found(const offset_t* mask_offsets, const index_t* mask_columns, int64_t n_rows, int64_t entries,
                   const unsigned char* found, const offset_t* positions, const void* values, size_t value_bytes,
                   offset_t* c_offsets, index_t* c_columns, void* c_values, const Stream& stream) {
  row_offsets_of<<<grid_for(n_rows + 1), block, 0, stream.get()>>>(mask_offsets, n_rows, positions, c_offsets);
  GQL_CUDA_CHECK_LAUNCH();
  if (entries == 0) return;
  launches::with_word_of(value_bytes, "masked product", [&](auto word) {
    using Word = decltype(word);
    scatter_found<Word><<<grid_for(entries), block, 0, stream.get()>>>(
        mask_columns, entries, found, positions, static_cast<const Word*>(values), c_columns, static_cast<Word*>(c_values));
    GQL_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace detail
}  // namespace gql::gpu
