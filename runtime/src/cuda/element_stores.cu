// The launches of a device value's waiting element stores (gql/device/values/element_stores.hpp): positions
// and values uploaded together, then one thread per store (a dense value's scatter, a structure's
// search), and for a structure that gains entries one thread per row offset and per entry.
#include <algorithm>
#include <cstring>
#include <vector>

#include "gql/device/csr_view.cuh"
#include "gql/device/values/element_stores.hpp"
#include "gql/device/values/graph_ops.hpp"  // detail::offsets_of_lengths
#include "gql/error.hpp"
#include "small_launches.cuh"

namespace gql::gpu {
namespace {

using launches::block;
using launches::grid_for;

// The stores' positions, then their values (aligned, as the positions are 8 bytes each), in one upload.
StreamBuffer<unsigned char> uploaded(const int64_t* positions, const void* values, int64_t count, size_t value_bytes,
                                     const Stream& stream) {
  const auto n = static_cast<size_t>(count);
  std::vector<unsigned char> staged(n * (sizeof(int64_t) + value_bytes));
  std::memcpy(staged.data(), positions, n * sizeof(int64_t));
  if (value_bytes > 0) std::memcpy(staged.data() + n * sizeof(int64_t), values, n * value_bytes);
  StreamBuffer<unsigned char> on_device(staged.size(), stream);
  upload(on_device.data(), staged.data(), staged.size(), stream, __FILE__, __LINE__);  // returns once done
  return on_device;
}

template <class Word>
__global__ void scatter(Word* data, const int64_t* positions, const Word* values, int64_t count) {
  for (int64_t n = blockIdx.x * static_cast<int64_t>(block) + threadIdx.x; n < count;
       n += static_cast<int64_t>(gridDim.x) * block)
    data[positions[n]] = values[n];
}

// Row `row`'s entries: [begin, end) of the columns.
__device__ inline offset_t row_begin(const offset_t* offsets, long long row) { return offsets ? offsets[row] : 0; }
__device__ inline offset_t row_end(const offset_t* offsets, long long row, long long nvals) {
  return offsets ? offsets[row + 1] : nvals;
}

// Per store: where its position is or would go among the entries (slots), and 1 when it is new.
__global__ void locate(const offset_t* offsets, long long nvals, long long n_cols, const index_t* columns,
                       const int64_t* positions, long long count, offset_t* slots, offset_t* is_new) {
  for (long long s = blockIdx.x * static_cast<long long>(block) + threadIdx.x; s < count;
       s += static_cast<long long>(gridDim.x) * block) {
    const long long row = positions[s] / n_cols;
    const auto column = static_cast<index_t>(positions[s] % n_cols);
    const offset_t end = row_end(offsets, row, nvals);
    const offset_t at = device::first_not_below(columns, row_begin(offsets, row), end, column);
    slots[s] = at;
    is_new[s] = at < end && columns[at] == column ? 0 : 1;
  }
}

// How many new entries come before position `key`: new_before at the first store at or past it.
__device__ inline offset_t new_entries_before(const int64_t* positions, long long count, const offset_t* new_before,
                                              long long key) {
  return new_before[device::first_not_below(positions, 0LL, count, static_cast<int64_t>(key))];
}

// Row i starts after its old entries before it and the new ones before it.
__global__ void shift_offsets(const offset_t* offsets, long long n_rows, long long n_cols, const int64_t* positions,
                              long long count, const offset_t* new_before, offset_t* merged_offsets) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i <= n_rows;
       i += static_cast<long long>(gridDim.x) * block)
    merged_offsets[i] = offsets[i] + new_entries_before(positions, count, new_before, i * n_cols);
}

// Every old entry moved past the new entries before it (values null: a pattern graph).
template <class Word>
__global__ void move_entries(const offset_t* offsets, long long n_rows, long long nvals, long long n_cols,
                             const index_t* columns, const Word* values, const int64_t* positions, long long count,
                             const offset_t* new_before, index_t* merged_columns, Word* merged_values) {
  for (long long p = blockIdx.x * static_cast<long long>(block) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * block) {
    const long long row = offsets ? launches::row_holding(offsets, n_rows, p) : 0;
    const offset_t to = p + new_entries_before(positions, count, new_before, row * n_cols + columns[p]);
    merged_columns[to] = columns[p];
    if (values != nullptr) merged_values[to] = values[p];
  }
}

// Every store at its place: past the old entries before it and the new stores before it (an overwrite
// lands on its old entry's new place, after move_entries put the old value there).
template <class Word>
__global__ void place_stores(const int64_t* positions, const Word* values, long long count, long long n_cols,
                             const offset_t* slots, const offset_t* new_before, index_t* merged_columns,
                             Word* merged_values) {
  for (long long s = blockIdx.x * static_cast<long long>(block) + threadIdx.x; s < count;
       s += static_cast<long long>(gridDim.x) * block) {
    const offset_t to = slots[s] + new_before[s];
    merged_columns[to] = static_cast<index_t>(positions[s] % n_cols);
    if (merged_values != nullptr) merged_values[to] = values[s];
  }
}

// f(Word{}) with the word of the entries' values; a pattern graph's (no values) with a byte, its
// pointers null.
template <class F>
void with_value_word(size_t value_bytes, const char* op, F&& f) {
  if (value_bytes == 0) f(uint8_t{});
  else launches::with_word_of(value_bytes, op, f);
}

}  // namespace

void scatter_elements(void* data, size_t element_bytes, const int64_t* positions, const void* values, int64_t count,
                      const Stream& stream) {
  if (count <= 0) return;
  launches::with_word_of(element_bytes, "scatter_elements", [&](auto word) {
    using Word = decltype(word);
    const StreamBuffer<unsigned char> on_device = uploaded(positions, values, count, sizeof(Word), stream);
    const auto* device_positions = reinterpret_cast<const int64_t*>(on_device.data());
    const auto* device_values = reinterpret_cast<const Word*>(device_positions + count);
    scatter<<<grid_for(count), block, 0, stream.get()>>>(static_cast<Word*>(data), device_positions, device_values,
                                                         count);
    GQL_CUDA_CHECK_LAUNCH();
    stream.synchronize();  // the value is complete on return
  });
}

LocatedStores::LocatedStores(const SortedEntries& entries, const int64_t* positions, const void* values, int64_t count,
                             const Stream& stream)
    : entries_(entries),
      count_(count),
      stream_(stream),
      staged_(uploaded(positions, values, count, entries.value_bytes, stream)),
      slots_(static_cast<size_t>(std::max<int64_t>(count, 1)), stream),
      new_before_(static_cast<size_t>(count) + 1, stream) {
  if (count <= 0) return;
  StreamBuffer<offset_t> is_new(static_cast<size_t>(count) + 1, stream);
  locate<<<grid_for(count), block, 0, stream.get()>>>(entries.offsets, entries.nvals, entries.n_cols, entries.columns,
                                                      reinterpret_cast<const int64_t*>(staged_.data()), count,
                                                      slots_.data(), is_new.data());
  GQL_CUDA_CHECK_LAUNCH();
  new_entries_ = detail::offsets_of_lengths(is_new.data(), new_before_.data(), count, stream);
}

void LocatedStores::overwrite(void* values) const {
  if (count_ <= 0 || entries_.value_bytes == 0) return;
  launches::with_word_of(entries_.value_bytes, "element stores", [&](auto word) {
    using Word = decltype(word);
    const auto* positions = reinterpret_cast<const int64_t*>(staged_.data());
    scatter<<<grid_for(count_), block, 0, stream_.get()>>>(static_cast<Word*>(values), slots_.data(),
                                                           reinterpret_cast<const Word*>(positions + count_), count_);
    GQL_CUDA_CHECK_LAUNCH();
  });
}

void LocatedStores::merge_into(offset_t* offsets, index_t* columns, void* values) const {
  const auto* positions = reinterpret_cast<const int64_t*>(staged_.data());
  if (offsets != nullptr) {
    shift_offsets<<<grid_for(entries_.n_rows + 1), block, 0, stream_.get()>>>(
        entries_.offsets, entries_.n_rows, entries_.n_cols, positions, count_, new_before_.data(), offsets);
    GQL_CUDA_CHECK_LAUNCH();
  }
  with_value_word(entries_.value_bytes, "element stores", [&](auto word) {
    using Word = decltype(word);
    const auto* old_values = static_cast<const Word*>(entries_.values);
    auto* merged_values = entries_.value_bytes == 0 ? nullptr : static_cast<Word*>(values);
    if (entries_.nvals > 0) {
      move_entries<<<grid_for(entries_.nvals), block, 0, stream_.get()>>>(
          entries_.offsets, entries_.n_rows, entries_.nvals, entries_.n_cols, entries_.columns,
          entries_.value_bytes == 0 ? nullptr : old_values, positions, count_, new_before_.data(), columns,
          merged_values);
      GQL_CUDA_CHECK_LAUNCH();
    }
    place_stores<<<grid_for(count_), block, 0, stream_.get()>>>(
        positions, reinterpret_cast<const Word*>(positions + count_), count_, entries_.n_cols, slots_.data(),
        new_before_.data(), columns, merged_values);
    GQL_CUDA_CHECK_LAUNCH();
  });
}

}  // namespace gql::gpu
