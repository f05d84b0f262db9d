// The masked merge of a graph assignment on the device (gql/device/values/graph_assign.hpp): a thread per
// row walks C's and Z's columns in order, the mask's row alongside, and keeps what the host's
// masked_assign_row keeps (gql/cpu/assign.hpp); counted once, the counts scanned (CUB) into the
// result's offsets, then walked again to write the entries.
#include <climits>
#include <cstdint>

#include "gql/device/values/graph_assign.hpp"
#include "gql/device/values/graph_ops.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using detail::MaskedMerge;
using launches::block;
using launches::grid_for;

// emit(j, from_z, p) for each entry row i of the result keeps, in column order (p indexes Z or C).
template <class Emit>
__device__ void merge_row(const MaskedMerge& m, long long i, Emit&& emit) {
  offset_t pc = m.c_offsets[i], pz = m.z_offsets[i], pm = m.m_offsets[i];
  const offset_t pc_end = m.c_offsets[i + 1], pz_end = m.z_offsets[i + 1], pm_end = m.m_offsets[i + 1];
  while (pc < pc_end || pz < pz_end) {
    const index_t jc = pc < pc_end ? m.c_columns[pc] : INT_MAX;
    const index_t jz = pz < pz_end ? m.z_columns[pz] : INT_MAX;
    const index_t j = jc < jz ? jc : jz;
    while (pm < pm_end && m.m_columns[pm] < j) ++pm;  // the mask's columns come in order too
    const bool selected = (pm < pm_end && m.m_columns[pm] == j) != m.complement;
    if (selected) {
      if (jz == j) emit(j, true, pz);
    } else if (!m.replace && jc == j) {
      emit(j, false, pc);
    }
    pc += jc == j;
    pz += jz == j;
  }
}

__global__ void count_rows(MaskedMerge m, offset_t* lengths) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < m.n_rows;
       i += static_cast<long long>(gridDim.x) * block) {
    offset_t n = 0;
    merge_row(m, i, [&](index_t, bool, offset_t) { ++n; });
    lengths[i] = n;
  }
}

template <class Word>
__global__ void fill_rows(MaskedMerge m, const offset_t* offsets, index_t* columns, Word* values) {
  const auto* c_values = static_cast<const Word*>(m.c_values);
  const auto* z_values = static_cast<const Word*>(m.z_values);
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i < m.n_rows;
       i += static_cast<long long>(gridDim.x) * block) {
    offset_t at = offsets[i];
    merge_row(m, i, [&](index_t j, bool from_z, offset_t p) {
      columns[at] = j;
      if (values != nullptr) values[at] = from_z ? z_values[p] : c_values[p];
      ++at;
    });
  }
}

}  // namespace

namespace detail {

int64_t masked_merge_offsets(const MaskedMerge& merge, offset_t* offsets, const Stream& stream) {
  StreamBuffer<offset_t> lengths(static_cast<size_t>(merge.n_rows) + 1, stream);
  if (merge.n_rows > 0) {
    count_rows<<<grid_for(merge.n_rows), block, 0, stream.get()>>>(merge, lengths.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  return offsets_of_lengths(lengths.data(), offsets, merge.n_rows, stream);
}

void masked_merge_entries(const MaskedMerge& merge, const offset_t* offsets, size_t value_bytes, index_t* columns,
                          void* values, const Stream& stream) {
  if (merge.n_rows == 0) return;
  const auto launch = [&](auto word) {
    using Word = decltype(word);
    fill_rows<Word><<<grid_for(merge.n_rows), block, 0, stream.get()>>>(merge, offsets, columns,
                                                                        static_cast<Word*>(values));
    GQL_CUDA_CHECK_LAUNCH();
  };
  if (value_bytes == 0) launch(uint8_t{});  // values null: columns only
  else launches::with_word_of(value_bytes, "masked assignment", launch);
}

}  // namespace detail
}  // namespace gql::gpu
