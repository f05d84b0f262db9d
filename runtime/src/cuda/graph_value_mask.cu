// The true entries of a value mask's graph on the device (gql/device/values/graph_mask.hpp): each entry is
// flagged where its value selects, the flags are scanned (CUB) into the kept entries' positions, a
// row's new offset is the position of its first old entry, and each kept entry copies its column.
#include <utility>

#include "gql/device/values/graph_mask.hpp"
#include "gql/device/values/graph_ops.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

template <class Word>
__global__ void flag_selected(const Word* words, long long nvals, MaskValues values, offset_t* flags) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    flags[p] = values.selects(static_cast<uint64_t>(words[p])) ? 1 : 0;
}

__global__ void offsets_at_positions(const offset_t* row_offsets, long long n_rows, const offset_t* positions,
                                     offset_t* kept_offsets) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i <= n_rows;
       i += static_cast<long long>(gridDim.x) * block)
    kept_offsets[i] = positions[row_offsets[i]];
}

// positions[p + 1] > positions[p] exactly where entry p is kept (the scan of its flag).
__global__ void gather_kept(const index_t* col_indices, long long nvals, const offset_t* positions,
                            index_t* kept_columns) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block)
    if (positions[p + 1] > positions[p]) kept_columns[positions[p]] = col_indices[p];
}

}  // namespace

DeviceCsr<bool> true_entries(const offset_t* row_offsets, const index_t* col_indices, int64_t n_rows, int64_t n_cols,
                             int64_t nvals, const MaskValues& values, const Stream& stream) {
  const auto entries = static_cast<size_t>(nvals);
  StreamBuffer<offset_t> flags(entries + 1, stream);
  StreamBuffer<offset_t> positions(entries + 1, stream);
  if (nvals > 0) {
    launches::with_word_of(values.bytes, "value mask", [&](auto word) {
      using Word = decltype(word);
      flag_selected<Word><<<grid_for(nvals), block, 0, stream.get()>>>(static_cast<const Word*>(values.words), nvals,
                                                                      values, flags.data());
    });
    GQL_CUDA_CHECK_LAUNCH();
  }
  const int64_t kept = detail::offsets_of_lengths(flags.data(), positions.data(), nvals, stream);
  DeviceBuffer<offset_t> kept_offsets(static_cast<size_t>(n_rows) + 1);
  DeviceBuffer<index_t> kept_columns(static_cast<size_t>(kept));
  offsets_at_positions<<<grid_for(n_rows + 1), block, 0, stream.get()>>>(row_offsets, n_rows, positions.data(),
                                                                          kept_offsets.data());
  GQL_CUDA_CHECK_LAUNCH();
  if (kept > 0) {
    gather_kept<<<grid_for(nvals), block, 0, stream.get()>>>(col_indices, nvals, positions.data(),
                                                             kept_columns.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  return DeviceCsr<bool>(n_rows, n_cols, kept, std::move(kept_offsets), std::move(kept_columns),
                         DeviceBuffer<uint8_t>());
}

}  // namespace gql::gpu
