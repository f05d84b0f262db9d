// Element stores into a value current on the device, kept on the host until the value is next read and
// then written in one pass (GraphBLAS's pending tuples, gql/pending_stores.hpp). A loop of `D[i, i] = x`
// or `G[i, j] = x` over a value on the device costs a host append per store, not a transfer and a
// synchronization each:
// - a dense matrix or a dense vector: the stores are written by one launch (scatter_elements);
// - a graph or a sparse vector: the stores, sorted on the host (they are few), are uploaded, located
//   among the entries (a binary search each in its row: an overwrite or a new entry), and when some are
//   new the value's arrays are rebuilt once: offsets shifted by the new entries before each row, every
//   old entry moved by the new ones before it, the stores written at their places (LocatedStores).
// Of two stores to one position the later wins, as on the host.
//
// Host code (g++ or nvcc); the kernels are in the runtime library (src/cuda/element_stores.cu).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/values/sorted_entries.hpp"
#include "gql/pending_stores.hpp"

namespace gql::gpu {

// data[positions[n]] = values[n] for n < count, on `stream`: `count` distinct positions of elements of
// `element_bytes` bytes (1, 2, 4 or 8); positions and values are host arrays, read before the return.
void scatter_elements(void* data, size_t element_bytes, const int64_t* positions, const void* values, int64_t count,
                      const Stream& stream);

// Resolved stores (positions row * n_cols + column, sorted and unique; values of entries.value_bytes
// bytes, ignored for a pattern graph) uploaded and located among a structure's entries on the device:
// which overwrite a stored entry and which are new. The structure and `stream` must outlive it.
class LocatedStores {
 public:
  LocatedStores(const SortedEntries& entries, const int64_t* positions, const void* values, int64_t count,
                const Stream& stream);

  // How many of the stores are new entries (one small read, made by the constructor).
  int64_t new_entries() const noexcept { return new_entries_; }
  // When none is new: the stores' values written over the structure's `values` in place.
  void overwrite(void* values) const;
  // The merged structure, nvals + new_entries() entries, into arrays of that size (offsets: n_rows + 1
  // of them, null for a vector; values: null for a pattern graph). Each entry is written once.
  void merge_into(offset_t* offsets, index_t* columns, void* values) const;

 private:
  SortedEntries entries_;
  int64_t count_;
  const Stream& stream_;
  StreamBuffer<unsigned char> staged_;  // the stores' positions (int64), then their values
  StreamBuffer<offset_t> slots_;        // per store: where its entry is, or would go, among the old entries
  StreamBuffer<offset_t> new_before_;   // per store (and one past): how many stores before it are new
  int64_t new_entries_ = 0;
};

namespace detail {
template <class V>
void scatter_stores(const typename PendingStores<V>::Resolved& stores, DeviceBuffer<V>& data, const Stream& stream) {
  scatter_elements(data.data(), sizeof(V), stores.positions.data(), stores.values.data(),
                   static_cast<int64_t>(stores.positions.size()), stream);
}

// The resolved stores merged into `entries`: `make(nvals, located)` makes the value's new arrays and
// merges into them when some stores are new, `overwrite(located)` writes in place otherwise.
template <class V, class Make, class Overwrite>
void merge_stores(const typename PendingStores<V>::Resolved& stores, const SortedEntries& entries, Make&& make,
                  Overwrite&& overwrite, const Stream& stream) {
  const LocatedStores located(entries, stores.positions.data(), stores.values.data(),
                              static_cast<int64_t>(stores.positions.size()), stream);
  if (located.new_entries() == 0) overwrite(located);
  else make(entries.nvals + located.new_entries(), located);
  stream.synchronize();  // complete on return: any stream may read the value
}
}  // namespace detail

// Writes the stores waiting for a device value into it, then forgets them.
template <class T>
void write_stores(PendingStores<storage_t<T>>& pending, DeviceMatrix<T>& m, const Stream& stream) {
  if (pending.empty()) return;
  detail::scatter_stores(pending.resolved(), m.data(), stream);
  pending.clear();
}
template <class T>
void write_stores(PendingStores<storage_t<T>>& pending, DeviceVector<T>& v, const Stream& stream) {
  if (pending.empty()) return;
  const auto stores = pending.resolved();
  if (v.is_dense()) {
    detail::scatter_stores(stores, v.values(), stream);
  } else {
    std::optional<DeviceVector<T>> merged;
    detail::merge_stores<storage_t<T>>(
        stores, sorted_entries_of(v),
        [&](int64_t nvals, const LocatedStores& located) {
          merged.emplace(DeviceVector<T>::sparse(v.size(), nvals));
          located.merge_into(nullptr, merged->indices().data(), merged->values().data());
        },
        [&](const LocatedStores& located) { located.overwrite(v.values().data()); }, stream);
    if (merged) v = std::move(*merged);
  }
  pending.clear();
}
template <class T>
void write_stores(PendingStores<storage_t<T>>& pending, DeviceCsr<T>& g, const Stream& stream) {
  if (pending.empty()) return;
  std::optional<DeviceCsr<T>> merged;
  detail::merge_stores<storage_t<T>>(
      pending.resolved(), sorted_entries_of(g),
      [&](int64_t nvals, const LocatedStores& located) {
        merged.emplace(g.n_rows(), g.n_cols(), nvals);
        located.merge_into(merged->row_offsets().data(), merged->col_indices().data(), merged->values().data());
      },
      [&](const LocatedStores& located) {
        if constexpr (stores_values<T>) located.overwrite(g.values().data());  // a pattern graph's entries stay
      },
      stream);
  if (merged) g = std::move(*merged);
  pending.clear();
}

}  // namespace gql::gpu
