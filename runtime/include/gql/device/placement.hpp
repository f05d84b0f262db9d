// A CUDA kernel's arguments and result where its caller keeps them (a JIT kernel bound with device
// types, gql/jit.hpp): each argument is borrowed as a Resident on the side the caller passed it
// (gql/device/resident.hpp), so a device graph goes straight into the kernel's device ops; the
// result is handed over from the side the caller asks for, without a copy when it is there already.
//
// Host code (g++ or nvcc).
#pragma once

#include <cstdint>

#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

// Argument n of a kernel: the caller's host container, or its device container
// (KernelContext::argument_on_device).
template <class Host>
Resident<Host> argument(const void* argument, int n, const KernelContext& ctx) {
  if (ctx.argument_on_device(n)) return Resident<Host>::borrow(*static_cast<const on_device_t<Host>*>(argument));
  return Resident<Host>::borrow(*static_cast<const Host*>(argument));
}

// Made in the library for every element type (runtime/src/cuda/placement.cpp), so that the host
// code the JIT compiles only calls them.
#define GQL_PLACED_ELEMENT_TYPES(X) \
  X(bool) X(int8_t) X(int16_t) X(int32_t) X(int64_t) X(uint8_t) X(uint16_t) X(uint32_t) X(uint64_t) X(float) X(double)
#define GQL_PLACED(T) \
  extern template class Resident<Csr<T>>; extern template class Resident<Matrix<T>>; extern template class Resident<Vector<T>>;
GQL_PLACED_ELEMENT_TYPES(GQL_PLACED)
#undef GQL_PLACED

}  // namespace gql::gpu
