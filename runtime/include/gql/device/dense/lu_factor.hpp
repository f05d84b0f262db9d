// lu(A) on the GPU as generated code calls it: the options, the factors, the factorization's
// declarations (defined in gql/device/dense/lu.hpp, which nvcc compiles) and the op of a CUDA kernel.
// Host-compilable: LU's kernels depend only on the element type (f32 or f64), so the runtime library
// holds the factorization for both and host code compiled without nvcc (the JIT's) calls it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gql/common/lu_options.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

using common::LuOptions;

struct DeviceLuOptions {
  int64_t panel = 256;      // panel width (the trailing update's k)
  bool vendor_gemm = true;  // trailing update by cuBLAS (else the semiring GEMM)
};

template <class T>
struct LuFactors {
  Matrix<T> lu;
  std::vector<int32_t> pivots;
};

// P A = L U for a float or double matrix, on `stream` (gql/device/dense/lu.hpp).
template <class T>
LuFactors<T> lu(const Matrix<T>& A, const DeviceLuOptions& options = {}, Stream stream = Stream());

// The same for a matrix in device memory, in place: A becomes the packed factors; returns the pivots
// (dense, on the device) once done. A singular matrix throws.
template <class T>
DeviceVector<int32_t> lu_in_place(DeviceMatrix<T>& A, const DeviceLuOptions& options, const Stream& stream);

// LU, pivots = lu(A), the op of generated code, on the kernel's values: the factors are made in a
// device copy of A (uploaded once, or the caller's) and left on the device with the pivots.
template <class T>
void lu(Resident<Matrix<T>>& LU, Resident<Vector<int32_t>>& pivots, Resident<Matrix<T>>& A, const LuOptions& options,
        KernelContext& ctx) {
  const CallStream call(ctx);  // the call's stream; one of the op's own, waited for, when called alone
  const Stream stream = call.stream();
  DeviceMatrix<T> factors = copy_on_device(A.device(stream), stream);
  pivots.set_device(lu_in_place(factors, DeviceLuOptions{options.tile, options.vendor_gemm}, stream));
  LU.set_device(std::move(factors));
  const int64_t n = LU.rows();
  ctx.work().updates += 2 * n * n * n / 3;
  ctx.explain(options.label, std::string("LU on the GPU, panel ") + std::to_string(options.tile) +
              ", trailing update by " + (options.vendor_gemm ? "cuBLAS gemm" : "the register-tiled semiring GEMM") +
              "; the factors left on the device");
}

}  // namespace gql::gpu
