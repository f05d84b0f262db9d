// A kernel as an untyped handle that keeps its parameter types, and the helpers that launch it
// (cudaLaunchKernel with the kernel's address). Ahead of time a handle holds a kernel template's
// instantiation; in the JIT's host code, a kernel NVRTC built (a cudaKernel_t, which the CUDA
// runtime takes in place of an address). A launch with mismatched arguments does not compile.
// Host code; compiles with nvcc or a host compiler.
#pragma once

#include <cstddef>
#include <type_traits>

#include "gql/device.hpp"
#include "gql/error.hpp"

namespace gql {

template <class... Params>
struct KernelHandle {
  const void* address = nullptr;
};

template <class... Params>
KernelHandle<Params...> kernel_handle(void (*kernel)(Params...)) {
  return {reinterpret_cast<const void*>(kernel)};
}

// Launches `kernel` with a grid and blocks of up to three dimensions on `stream` (nothing when the
// grid is empty), allowing its dynamic shared memory first. A handle left null (a kernel the table
// was not built with) is an internal error, never a launch of nothing.
template <class... Params>
void launch_grid(const KernelHandle<Params...>& kernel, dim3 grid, dim3 block, size_t shared_bytes,
                 cudaStream_t stream, std::type_identity_t<Params>... args) {
  if (grid.x == 0 || grid.y == 0 || grid.z == 0) return;
  if (kernel.address == nullptr) throw Error(ErrorKind::internal, "launch of a kernel the table lacks");
  if (shared_bytes > 0)  // static and dynamic shared memory together may pass the default 48 KB
    GQL_CUDA_CHECK(cudaFuncSetAttribute(kernel.address, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes)));
  void* arguments[] = {static_cast<void*>(&args)...};
  GQL_CUDA_CHECK(cudaLaunchKernel(kernel.address, grid, block, arguments, shared_bytes, stream));
}

// A one-dimensional launch of `blocks` blocks of `threads`.
template <class... Params>
void launch(const KernelHandle<Params...>& kernel, unsigned long long blocks, int threads, size_t shared_bytes,
            const Stream& stream, std::type_identity_t<Params>... args) {
  if (blocks > 0x7fffffffull) throw Error(ErrorKind::usage, "a launch of more than 2^31 - 1 blocks");
  launch_grid(kernel, dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads)), shared_bytes,
              stream.get(), args...);
}

}  // namespace gql
