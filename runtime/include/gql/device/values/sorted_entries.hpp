// A device structure of sorted entries as the runtime library's element kernels read it (element reads,
// gql/device/values/element_reads.hpp; merges of waiting stores, gql/device/values/element_stores.hpp): a graph's
// rows of sorted columns, or a sparse vector's sorted indices as the one row of a 1 x size structure.
// Values are passed as bytes, so one compiled kernel serves every element type.
//
// Host code (g++ or nvcc).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gql/device.hpp"

namespace gql::gpu {

struct SortedEntries {
  const offset_t* offsets;  // n_rows + 1 row offsets; null: one row holding every entry (a vector)
  int64_t n_rows;
  int64_t n_cols;
  int64_t nvals;
  const index_t* columns;  // sorted and unique within each row
  const void* values;      // one per entry; null for a pattern graph
  size_t value_bytes;      // 0 for a pattern graph
};

template <class T>
SortedEntries sorted_entries_of(const DeviceCsr<T>& g) noexcept {
  if constexpr (stores_values<T>)
    return {g.row_offsets().data(), g.n_rows(), g.n_cols(), g.nvals(), g.col_indices().data(), g.values().data(),
            sizeof(storage_t<T>)};
  else
    return {g.row_offsets().data(), g.n_rows(), g.n_cols(), g.nvals(), g.col_indices().data(), nullptr, 0};
}

// A sparse vector (its indices are the columns of row 0).
template <class T>
SortedEntries sorted_entries_of(const DeviceVector<T>& v) noexcept {
  return {nullptr, 1, v.size(), v.nvals(), v.indices().data(), v.values().data(), sizeof(storage_t<T>)};
}

}  // namespace gql::gpu
