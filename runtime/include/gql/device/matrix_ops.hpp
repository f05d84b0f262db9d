// The dense matrices' copy in a CUDA kernel, made where the matrix is (Residents): on the device, so
// that with the element stores that wait with the matrix there (gql/device/element_ops.hpp) `var D2 =
// D; D2[i, i] = 0.0` in a loop moves no matrix through the host. A matrix current only on the host is
// copied there, as is a copy that converts the element type (cpu::assign).
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

}  // namespace gql::gpu
