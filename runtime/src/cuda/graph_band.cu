// The band of a graph on the device (gql/device/values/graph_ops.hpp): each row's kept entries are one run
// of its sorted columns, found by a binary search per row; the runs' lengths are scanned (CUB) into
// the result's row offsets, then each result entry finds its row and copies its column and value.
// The scan of row lengths into offsets serves the graph ops of the header that count rows too.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cstdint>

#include "gql/device/values/graph_ops.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

// Row i keeps columns j with j - i <= k (lower) or j - i >= k (upper): first[i] is where its run
// starts, lengths[i] how long it is.
__global__ void band_runs(const offset_t* offsets, const index_t* columns, long long n_rows, long long k, bool lower,
                          offset_t* first, offset_t* lengths) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < n_rows;
       i += static_cast<long long>(gridDim.x) * block) {
    const offset_t begin = offsets[i], end = offsets[i + 1];
    const long long border_column = lower ? i + k + 1 : i + k;  // the first column past (lower) or in (upper) the band
    offset_t lo = begin, hi = end;
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (static_cast<long long>(columns[mid]) < border_column) lo = mid + 1;
      else hi = mid;
    }
    first[i] = lower ? begin : lo;
    lengths[i] = lower ? lo - begin : end - lo;
  }
}

template <class Word>
__global__ void gather_band(const offset_t* band_offsets, long long n_rows, long long nvals, const offset_t* first,
                            const index_t* columns, const Word* values, index_t* band_columns, Word* band_values) {
  for (long long q = blockIdx.x * static_cast<long long>(block) + threadIdx.x; q < nvals;
       q += static_cast<long long>(gridDim.x) * block) {
    const long long i = launches::row_holding(band_offsets, n_rows, q);
    const offset_t p = first[i] + (q - band_offsets[i]);
    band_columns[q] = columns[p];
    if (values != nullptr) band_values[q] = values[p];
  }
}

}  // namespace

namespace detail {

int64_t offsets_of_lengths(offset_t* lengths, offset_t* offsets, int64_t n_rows, const Stream& stream) {
  const auto rows = static_cast<size_t>(n_rows);
  memset_async(lengths + rows, 0, sizeof(offset_t), stream);
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, lengths, offsets, static_cast<int64_t>(rows + 1),
                                               stream.get()));
  StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, lengths, offsets, static_cast<int64_t>(rows + 1),
                                               stream.get()));
  return static_cast<int64_t>(launches::read_back(offsets + rows, stream));
}

BandRows band_rows(const offset_t* offsets, const index_t* columns, int64_t n_rows, int64_t n_cols, int64_t k,
                   bool lower, const Stream& stream) {
  k = std::clamp<int64_t>(k, -n_rows - 1, n_cols + 1);  // j - i lies within: the same entries, no overflow
  const auto rows = static_cast<size_t>(n_rows);
  BandRows band{DeviceBuffer<offset_t>(rows + 1), DeviceBuffer<offset_t>(std::max<size_t>(rows, 1)), 0};
  StreamBuffer<offset_t> lengths(rows + 1, stream);
  if (n_rows > 0) {
    band_runs<<<grid_for(n_rows), block, 0, stream.get()>>>(offsets, columns, n_rows, k, lower, band.first.data(),
                                                            lengths.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  band.nvals = offsets_of_lengths(lengths.data(), band.offsets.data(), n_rows, stream);
  return band;
}

void band_entries(const BandRows& band, int64_t n_rows, const index_t* columns, const void* values, size_t value_bytes,
                  index_t* band_columns, void* band_values, const Stream& stream) {
  if (band.nvals == 0) return;
  const auto launch = [&](auto word) {
    using Word = decltype(word);
    gather_band<Word><<<grid_for(band.nvals), block, 0, stream.get()>>>(
        band.offsets.data(), n_rows, band.nvals, band.first.data(), columns, static_cast<const Word*>(values),
        band_columns, static_cast<Word*>(band_values));
    GQL_CUDA_CHECK_LAUNCH();
  };
  if (value_bytes == 0) launch(uint8_t{});  // values null: columns only
  else launches::with_word_of(value_bytes, "tril/triu", launch);
}

}  // namespace detail
}  // namespace gql::gpu
