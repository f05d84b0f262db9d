// A graph mask of a product on the GPU: the mask's structure where its device value is (GraphBLAS's
// structural mask: an entry counts by its presence; complemented, by its absence). The product reads
// it there while it accumulates, so a mask the kernel made on the device is never brought to the
// host; a product merged into an output on the host reads the mask's host side. Host code.
#pragma once

#include <cstdint>
#include <string>

#include "gql/cpu/mask.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
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

  cpu::MaskMode mode() const noexcept {
    if (row_offsets == nullptr) return cpu::MaskMode::none;
    return complement ? cpu::MaskMode::deny : cpu::MaskMode::allow;
  }
  void check_shape(int64_t rows, int64_t cols, const char* op) const {
    if (mode() == cpu::MaskMode::none || (n_rows == rows && n_cols == cols)) return;
    throw Error(ErrorKind::usage, std::string(op) + ": mask is " + std::to_string(n_rows) + " x " +
                                      std::to_string(n_cols) + ", output is " + std::to_string(rows) + " x " +
                                      std::to_string(cols));
  }
};

// A product's mask as generated code passes it: the mask's value (where it is) and whether it is
// complemented.
template <class M>
struct GraphMaskOf {
  Resident<Csr<M>>* value;
  bool complement;
};
template <class M>
GraphMaskOf<M> graph_mask(Resident<Csr<M>>& m, bool complement) noexcept {
  return {&m, complement};
}

template <class M>
DeviceGraphMask as_device_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  const DeviceCsr<M>& g = m.value->device(stream);
  return {g.row_offsets().data(), g.col_indices().data(), g.nvals(), g.n_rows(), g.n_cols(), m.complement};
}
inline DeviceGraphMask as_device_graph_mask(cpu::NoMask, const Stream&) noexcept { return {}; }
template <class M>
DeviceGraphMask as_device_graph_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  return as_device_mask(m, stream);
}

template <class M>
cpu::MatrixMask as_host_mask(const GraphMaskOf<M>& m, const Stream& stream) {
  return cpu::structural_mask(m.value->host(stream), m.complement);
}

}  // namespace gql::gpu
