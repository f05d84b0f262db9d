// A vector mask on the device: one byte per index of the output, 1 where the mask lets an entry
// through (GraphBLAS's structural mask: a mask entry counts by its presence; complemented, by its
// absence; a value mask: an entry counts when its value is true, gql/device/values/mask_values.hpp). Made
// from the mask's device value where it is; the byte map depends on the mask's structure and, for a
// value mask, on its values read as words, so the runtime library builds it (runtime/src/cuda/
// vector_mask.cu) and host-compiled code can make one. Host code.
#pragma once

#include <cstdint>
#include <string>

#include "gql/common/mask.hpp"
#include "gql/cpu/value_mask.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/mask_values.hpp"
#include "gql/error.hpp"

namespace gql::gpu {

class DeviceVectorMask {
 public:
  DeviceVectorMask() = default;  // no mask: every index is allowed
  DeviceVectorMask(int64_t size, DeviceBuffer<unsigned char> allowed)
      : active_(true), size_(size), allowed_(std::move(allowed)) {}

  bool active() const noexcept { return active_; }
  int64_t size() const noexcept { return size_; }
  // The byte map, or null without a mask.
  const unsigned char* allowed() const noexcept { return active_ ? allowed_.data() : nullptr; }

  void check_size(int64_t n, const char* op) const {
    if (active_ && size_ != n)
      throw Error(ErrorKind::usage, std::string(op) + ": the mask has " + std::to_string(size_) +
                                        " entries, the output " + std::to_string(n));
  }

 private:
  bool active_ = false;
  int64_t size_ = 0;
  DeviceBuffer<unsigned char> allowed_;
};

// The byte map of a mask of n indices whose present ones are `indices` (nvals of them; null with
// nvals == n: every index, a dense mask; an empty mask may pass null too), complemented or not; on `stream`. With `values` (one per present index) an
// index counts only where its value selects.
DeviceBuffer<unsigned char> allowed_map(int64_t n, const index_t* indices, int64_t nvals, const MaskValues& values,
                                        bool complement, const Stream& stream);

// A vector op's mask as generated code passes it: the mask's value (where it is), whether it is
// complemented and whether it is a value mask. A device op reads it as a byte map on the device
// (as_device_mask), a host op as a host mask (as_host_mask).
template <class M>
struct VectorMaskOf {
  Resident<Vector<M>>* value;
  bool complement;
  bool reads_values;
};
template <class M>
VectorMaskOf<M> vector_mask(Resident<Vector<M>>& m, bool complement) noexcept {
  return {&m, complement, false};
}
template <class M>
VectorMaskOf<M> vector_value_mask(Resident<Vector<M>>& m, bool complement) noexcept {
  return {&m, complement, true};
}

template <class M>
DeviceVectorMask as_device_mask(const VectorMaskOf<M>& m, const Stream& stream) {
  const DeviceVector<M>& v = m.value->device(stream);
  const MaskValues values = m.reads_values ? mask_values<M>(v.values().data()) : MaskValues{};
  return DeviceVectorMask(v.size(), allowed_map(v.size(), v.is_dense() ? nullptr : v.indices().data(), v.nvals(),
                                                values, m.complement, stream));
}
inline DeviceVectorMask as_device_mask(common::NoMask, const Stream&) noexcept { return {}; }

template <class M>
common::VectorMask as_host_mask(const VectorMaskOf<M>& m, const Stream& stream) {
  const Vector<M>& v = m.value->host(stream);
  return m.reads_values ? cpu::value_mask(v, m.complement) : common::VectorMask(v, m.complement);
}
inline common::NoMask as_host_mask(common::NoMask, const Stream&) noexcept { return {}; }

}  // namespace gql::gpu
