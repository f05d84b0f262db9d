// The dense matrices' ops of a CUDA kernel that run where the matrix is (Residents): a copy made on
// the device, and element stores that wait with the matrix until it is next read (gql/device/
// element_stores.hpp), so that `var D2 = D; D2[i, i] = 0.0` in a loop moves no matrix through the host.
// A matrix current only on the host is copied and written there, as is a copy that converts the
// element type (cpu::assign).
//
// Host code (g++ or nvcc): the JIT's NVRTC path runs the same ops on the device.
#pragma once

#include <type_traits>

#include "gql/cpu/ops.hpp"
#include "gql/device/resident.hpp"

namespace gql::gpu {

// C = A (dense matrices take no mask), made on the side where A is current: a matrix only in host
// memory is not uploaded for a copy (out of core, the device may hold neither).
template <class TC, class TA>
void assign(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, const Stream& stream) {
  if constexpr (std::is_same_v<TC, TA>) {
    if (A.on_device()) {
      DeviceMatrix<TC> copy = copy_on_device(A.device(stream), stream);
      stream.synchronize();
      C.set_device(std::move(copy));
      return;
    }
  }
  cpu::assign(C.host_for_write(stream), common::no_mask(), false, A.host(stream));
}

// C(i, j) = value, on the side where C is current (the device's when it is current on both).
template <class TC, class S>
void set_element(Resident<Matrix<TC>>& C, int64_t i, int64_t j, S value, const Stream& stream) {
  cpu::check_element_index(i, j, C.rows(), C.cols(), "matrix");
  if (!C.on_device()) {
    cpu::set_element(C.host_for_write(stream), i, j, value);
    return;
  }
  C.store_on_device(i * C.cols() + j, cpu::detail::cast_value<TC>(value), stream);
}

}  // namespace gql::gpu
