// A graph mask of a product on the GPU: the mask's structure where its device value is (GraphBLAS's
// structural mask: an entry counts by its presence; complemented, by its absence). The product reads
// it there while it accumulates, so a mask the kernel made on the device is never brought to the
// host; a product merged into an output on the host reads the mask's host side. A value mask is the
// structure of the mask's true entries (gql/device/values/mask_values.hpp), gathered on the device by the
// runtime library (runtime/src/cuda/graph_value_mask.cu). Host code.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "gql/common/mask.hpp"
#include "gql/cpu/value_mask.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/mask_values.hpp"
#include "gql/error.hpp"

namespace gql::gpu {

// The mask's row offsets and columns on the device, or no mask (null offsets).
struct DeviceGraphMask {
  const offset_t* row_offsets = nullptr;
  const index_t* col_indices = nullptr;
  int64_t nvals = 0;
  int64_t n_rows = 0;
  int64_t n_cols = 0;
  bool complement = false;
  std::shared_ptr<const DeviceCsr<bool>> kept;  // the structure viewed when the mask made it (value masks)

  common::MaskMode mode() const noexcept {
    if (row_offsets == nullptr) return common::MaskMode::none;
    return complement ? common::MaskMode::deny : common::MaskMode::allow;
  }
  void check_shape(int64_t rows, int64_t cols, const char* op) const {
    if (mode() == common::MaskMode::none || (n_rows == rows && n_cols == cols)) return;
    throw Error(ErrorKind::usage, std::string(op) + ": mask is " + std::to_string(n_rows) + " x " +
                                      std::to_string(n_cols) + ", output is " + std::to_string(rows) + " x " +
                                      std::to_string(cols));
  }
};

// The pattern graph of the entries of a graph's structure whose values (one per entry) select.
DeviceCsr<bool> true_entries(const offset_t* row_offsets, const index_t* col_indices, int64_t n_rows, int64_t n_cols,
                             int64_t nvals, const MaskValues& values, const Stream& stream);

// A product's mask as generated code passes it: the mask's value (where it is), whether it is
// complemented and whether it is a value mask.
template <class M>
struct GraphMaskOf {
  Resident<Csr<M>>* value;
  bool complement;
  bool reads_values;
};
template <class M>
GraphMaskOf<M> graph_mask(Resident<Csr<M>>& m, bool complement) noexcept {
  return {&m, complement, false};
}
template <class M>
GraphMaskOf<M> graph_value_mask(Resident<Csr<M>>& m, bool complement) noexcept {
  return {&m, complement, true};
}

template <class T>
DeviceGraphMask structure_of(const DeviceCsr<T>& g, bool complement) noexcept {
  return {g.row_offsets().data(), g.col_indices().data(), g.nvals(), g.n_rows(), g.n_cols(), complement, nullptr};
}

// A pattern graph's entries are all true: its value mask is its structure.
template <class M>
DeviceGraphMask as_device_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  const DeviceCsr<M>& g = m.value->device(stream);
  if (!m.reads_values || !stores_values<M>) return structure_of(g, m.complement);
  auto kept = std::make_shared<const DeviceCsr<bool>>(true_entries(g.row_offsets().data(), g.col_indices().data(),
                                                                   g.n_rows(), g.n_cols(), g.nvals(),
                                                                   mask_values<M>(g.values().data()), stream));
  DeviceGraphMask mask = structure_of(*kept, m.complement);
  mask.kept = std::move(kept);
  return mask;
}
inline DeviceGraphMask as_device_graph_mask(common::NoMask, const Stream&) noexcept { return {}; }
template <class M>
DeviceGraphMask as_device_graph_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  return as_device_mask(m, stream);
}

template <class M>
common::MatrixMask as_host_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  const Csr<M>& g = m.value->host(stream);
  return m.reads_values ? cpu::value_mask(g, m.complement) : common::structural_mask(g, m.complement);
}

}  // namespace gql::gpu
