// The device transpose of gql/device/device_transpose.hpp: degrees counted by atomics and scanned
// (CUB), positions sorted by column with CUB's radix sort (stable: a column's entries keep their row
// order), then each new entry's column (its old row, found by a binary search in the row offsets)
// and value gathered.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <cstdint>

#include "gql/device/device_transpose.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

__global__ void count_columns(const index_t* columns, long long nvals, unsigned long long* counts) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    atomicAdd(&counts[columns[p]], 1ull);
}

__global__ void positions(offset_t* out, long long nvals) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    out[p] = p;
}

// Entry q of the transpose is entry order[q] of the graph: its row becomes q's column.
template <class Word>
__global__ void gather_transposed(const offset_t* offsets, long long n_rows, const offset_t* order, long long nvals,
                                  const Word* values, index_t* t_columns, Word* t_values) {
  for (long long q = blockIdx.x * static_cast<long long>(block) + threadIdx.x; q < nvals;
       q += static_cast<long long>(gridDim.x) * block) {
    const offset_t p = order[q];
    t_columns[q] = static_cast<index_t>(launches::row_holding(offsets, n_rows, p));
    if (values != nullptr) t_values[q] = values[p];
  }
}

}  // namespace

namespace detail {

DeviceBuffer<offset_t> column_offsets(const index_t* columns, int64_t nvals, int64_t n_cols, const Stream& stream) {
  const auto slots = static_cast<size_t>(n_cols) + 1;
  StreamBuffer<unsigned long long> counts(slots, stream);
  memset_async(counts.data(), 0, slots * sizeof(unsigned long long), stream);
  if (nvals > 0) {
    count_columns<<<grid_for(nvals), block, 0, stream.get()>>>(columns, nvals, counts.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  DeviceBuffer<offset_t> offsets(slots);
  auto* out = reinterpret_cast<unsigned long long*>(offsets.data());  // offset_t is 64-bit
  static_assert(sizeof(offset_t) == sizeof(unsigned long long));
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, counts.data(), out, static_cast<int64_t>(slots),
                                               stream.get()));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, counts.data(), out, static_cast<int64_t>(slots),
                                               stream.get()));
  return offsets;
}

void transpose_entries(const offset_t* offsets, const index_t* columns, const void* values, size_t value_bytes,
                       int64_t n_rows, int64_t n_cols, int64_t nvals, index_t* t_columns, void* t_values,
                       const Stream& stream) {
  if (nvals == 0) return;
  const auto n = static_cast<size_t>(nvals);
  StreamBuffer<offset_t> order_in(n, stream), order(n, stream);
  StreamBuffer<index_t> sorted_columns(n, stream);
  positions<<<grid_for(nvals), block, 0, stream.get()>>>(order_in.data(), nvals);
  GQL_CUDA_CHECK_LAUNCH();
  const int end_bit = std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(std::max<int64_t>(n_cols, 1)))));
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, columns, sorted_columns.data(), order_in.data(),
                                                 order.data(), nvals, 0, end_bit, stream.get()));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), bytes, columns, sorted_columns.data(),
                                                 order_in.data(), order.data(), nvals, 0, end_bit, stream.get()));
  // A pattern graph (no values) gathers its columns only: any word will do.
  launches::with_word_of(value_bytes == 0 ? 1 : value_bytes, "transpose", [&](auto word) {
    using Word = decltype(word);
    gather_transposed<Word><<<grid_for(nvals), block, 0, stream.get()>>>(
        offsets, n_rows, order.data(), nvals, static_cast<const Word*>(values), t_columns, static_cast<Word*>(t_values));
    GQL_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace detail
}  // namespace gql::gpu
