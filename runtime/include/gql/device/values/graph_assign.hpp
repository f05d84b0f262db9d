// C<mask, replace> = Z for a graph Z made on the device, as GraphBLAS (C API 2.x) defines the
// assignment without an accumulator and as gql::cpu::masked_assign computes it: where the mask
// selects (i, j), C(i, j) becomes Z(i, j) (absent where Z has none); elsewhere C keeps its entry, or
// loses it under `replace`. Each row of C, Z and the mask is merged by column (a thread per row):
// a count pass, a scan of the counts into the result's offsets, a fill pass. The kernels move
// values as words of the element's size, so the runtime library holds them (runtime/src/cuda/
// graph_masked_merge.cu) and host-compiled code (the JIT's NVRTC path) merges on the device too.
//
// Host code.
#pragma once

#include <cstdint>
#include <utility>

#include "gql/common/shape_checks.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/graph_mask.hpp"

namespace gql::gpu {

namespace detail {
// The rows a masked merge reads: C's old entries, Z's and the mask's structure (active).
struct MaskedMerge {
  int64_t n_rows;
  const offset_t* c_offsets;
  const index_t* c_columns;
  const void* c_values;  // null: pattern graphs
  const offset_t* z_offsets;
  const index_t* z_columns;
  const void* z_values;
  const offset_t* m_offsets;
  const index_t* m_columns;
  bool complement;
  bool replace;
};
// The result's row offsets (n_rows + 1 of them, into `offsets`); returns its entry count.
int64_t masked_merge_offsets(const MaskedMerge& merge, offset_t* offsets, const Stream& stream);
// The result's columns and values (elements of `value_bytes`; 0: none) at those offsets.
void masked_merge_entries(const MaskedMerge& merge, const offset_t* offsets, size_t value_bytes, index_t* columns,
                          void* values, const Stream& stream);

template <class T>
const void* values_of(const DeviceCsr<T>& g) noexcept {
  if constexpr (stores_values<T>) return g.values().data();
  else return nullptr;
}
}  // namespace detail

// C's new value after C<mask, replace> = z (C, z and the active mask of one shape).
template <class T>
DeviceCsr<T> masked_merge(const DeviceCsr<T>& c, const DeviceCsr<T>& z, const DeviceGraphMask& mask, bool replace,
                          const Stream& stream) {
  const detail::MaskedMerge merge{c.n_rows(),
                                  c.row_offsets().data(),
                                  c.col_indices().data(),
                                  detail::values_of(c),
                                  z.row_offsets().data(),
                                  z.col_indices().data(),
                                  detail::values_of(z),
                                  mask.row_offsets,
                                  mask.col_indices,
                                  mask.complement,
                                  replace};
  DeviceBuffer<offset_t> offsets(static_cast<size_t>(c.n_rows()) + 1);
  const int64_t nvals = detail::masked_merge_offsets(merge, offsets.data(), stream);
  DeviceBuffer<index_t> columns(static_cast<size_t>(nvals));
  DeviceBuffer<storage_t<T>> values(stores_values<T> ? static_cast<size_t>(nvals) : 0);
  if constexpr (stores_values<T>)
    detail::masked_merge_entries(merge, offsets.data(), sizeof(storage_t<T>), columns.data(), values.data(), stream);
  else
    detail::masked_merge_entries(merge, offsets.data(), 0, columns.data(), nullptr, stream);
  stream.synchronize();  // the next op may read it on another stream
  return DeviceCsr<T>(c.n_rows(), c.n_cols(), nvals, std::move(offsets), std::move(columns), std::move(values));
}

// C<mask, replace> = z for z made on the device in C's element type, with the host's checks and
// errors (those of gql::cpu::assign_result): without a mask C becomes z; through one, z and the mask must
// have C's shape.
template <class T>
void assign_graph(Resident<Csr<T>>& C, const DeviceGraphMask& mask, bool replace, DeviceCsr<T>&& z,
                  const Stream& stream) {
  if (mask.mode() == common::MaskMode::none) {
    C.set_device(std::move(z));
    return;
  }
  common::check_assignment_shape(C.rows(), C.cols(), z.n_rows(), z.n_cols());
  mask.check_shape(C.rows(), C.cols(), "assign");
  C.set_device(masked_merge(C.device(stream), z, mask, replace, stream));
}

}  // namespace gql::gpu
