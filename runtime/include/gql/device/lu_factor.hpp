// lu(A) on the GPU as generated code calls it: the options, the factors, the factorization's
// declaration (defined in gql/device/lu.hpp, which nvcc compiles) and the op of a CUDA kernel.
// Host-compilable: LU's kernels depend only on the element type (f32 or f64), so the runtime library
// holds the factorization for both and host code compiled without nvcc (the JIT's) calls it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gql/cpu/lu_options.hpp"
#include "gql/device.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

using cpu::LuOptions;

struct DeviceLuOptions {
  int64_t panel = 256;      // panel width (the trailing update's k)
  bool vendor_gemm = true;  // trailing update by cuBLAS (else the semiring GEMM)
};

template <class T>
struct LuFactors {
  Matrix<T> lu;
  std::vector<int32_t> pivots;
};

// P A = L U for a float or double matrix, on `stream` (gql/device/lu.hpp).
template <class T>
LuFactors<T> lu(const Matrix<T>& A, const DeviceLuOptions& options = {}, Stream stream = Stream());

// LU, pivots = lu(A), the op of generated code.
template <class T>
void lu(Matrix<T>& LU, Vector<int32_t>& pivots, const Matrix<T>& A, const LuOptions& options, KernelContext& ctx) {
  auto factors = gpu::lu(A, DeviceLuOptions{options.tile, options.vendor_gemm}, Stream::for_call(ctx));
  const int64_t n = A.n_rows();
  LU = std::move(factors.lu);
  pivots = Vector<int32_t>::dense(static_cast<int64_t>(factors.pivots.size()), 0);
  std::copy(factors.pivots.begin(), factors.pivots.end(), pivots.values().begin());
  ctx.work().updates += 2 * n * n * n / 3;
  ctx.explain(std::string(options.label) + ": LU on the GPU, panel " + std::to_string(options.tile) +
              ", trailing update by " + (options.vendor_gemm ? "cuBLAS gemm" : "the register-tiled semiring GEMM"));
}

}  // namespace gql::gpu
