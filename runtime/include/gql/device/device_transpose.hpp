// A graph's transpose made on the device: the columns' degrees counted and scanned into the
// transpose's row offsets, the entries ordered by column with a stable radix sort (CUB) of their
// positions, so that each new row keeps its columns (the old rows) sorted, then columns and values
// gathered. Kept with the graph value by the ops that read it (`transpose_of`). Held by the runtime
// library (runtime/src/cuda/device_transpose.cu); host code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gql/device.hpp"

namespace gql::gpu {

namespace detail {
// Row offsets of the transpose of a graph with `nvals` entries in `columns` (n_cols + 1 of them).
DeviceBuffer<offset_t> column_offsets(const index_t* columns, int64_t nvals, int64_t n_cols, const Stream& stream);
// The transpose's columns and values (elements of `value_bytes`, 0: none) from the graph's entries.
void transpose_entries(const offset_t* offsets, const index_t* columns, const void* values, size_t value_bytes,
                       int64_t n_rows, int64_t n_cols, int64_t nvals, index_t* t_columns, void* t_values,
                       const Stream& stream);
}  // namespace detail

template <class T>
DeviceCsr<T> transpose(const DeviceCsr<T>& g, const Stream& stream) {
  const auto nvals = static_cast<size_t>(g.nvals());
  DeviceCsr<T> t(g.n_cols(), g.n_rows(), g.nvals(),
                 detail::column_offsets(g.col_indices().data(), g.nvals(), g.n_cols(), stream),
                 DeviceBuffer<index_t>(nvals), DeviceBuffer<storage_t<T>>(stores_values<T> ? nvals : 0));
  if constexpr (stores_values<T>)
    detail::transpose_entries(g.row_offsets().data(), g.col_indices().data(), g.values().data(), sizeof(storage_t<T>),
                              g.n_rows(), g.n_cols(), g.nvals(), t.col_indices().data(), t.values().data(), stream);
  else
    detail::transpose_entries(g.row_offsets().data(), g.col_indices().data(), nullptr, 0, g.n_rows(), g.n_cols(),
                              g.nvals(), t.col_indices().data(), nullptr, stream);
  return t;
}

// The transpose of `g` kept with g's value: g itself when g is known to be symmetric.
template <class T>
const DeviceCsr<T>& transpose_of(const DeviceCsr<T>& g, const Stream& stream) {
  if (g.derived().symmetric()) return g;
  return g.derived().template get<DeviceCsr<T>>("gpu/transpose", [&] { return transpose(g, stream); });
}

}  // namespace gql::gpu
