// lu(A) over the ranks' GPUs (what a gqlc --mpi CUDA program's lu op calls): LU with partial pivoting
// as the one-GPU LU (gql/device/dense/lu.hpp), its panels dealt to the ranks in turn
// (gql/dist/cyclic_panels.hpp), A whole in every rank's GPU memory. For each panel, its rank factors
// it with the one-GPU LU's panel steps (32 columns per cooperative launch, their swaps applied to the
// other columns, the rest of the panel by trsm and gemm) and broadcasts its rows from the diagonal
// down, its pivots and the first singular column so far (DeviceWorld: NCCL, or host memory over MPI);
// every other rank applies the pivots' swaps to its columns; then every rank updates its own trailing
// panels: U's block row by cuBLAS trsm, A22 -= L21 U12 by cuBLAS gemm (or the semiring GEMM) on its
// panels' columns. At the end each panel is broadcast by its rank, so every rank's GPU holds the
// factors. Each entry goes through the one-GPU LU's steps in its order, but by calls of other column
// counts, for which cuBLAS's trsm and gemm may take other algorithms: the factors agree with the
// one-GPU LU's to rounding, the pivots unless rounding breaks a near tie.
// Host code; compiles with nvcc (generated programs and the GPU tests).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/dense/lu.hpp"
#include "gql/device/resident.hpp"
#include "gql/dist/cyclic_panels.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/error.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist {
namespace detail {

// Columns [c0, c1) of rows [r0, n) of the row-major matrix at `a` (leading dimension ld), copied to
// or from `packed` (row after row, c1 - c0 apart) on stream s.
template <class T>
void copy_columns_out(const T* a, int64_t ld, int64_t n, int64_t r0, int64_t c0, int64_t c1, T* packed, cudaStream_t s) {
  const size_t w = static_cast<size_t>(c1 - c0) * sizeof(T);
  GQL_CUDA_CHECK(cudaMemcpy2DAsync(packed, w, a + r0 * ld + c0, static_cast<size_t>(ld) * sizeof(T), w,
                                   static_cast<size_t>(n - r0), cudaMemcpyDeviceToDevice, s));
}
template <class T>
void copy_columns_in(const T* packed, int64_t ld, int64_t n, int64_t r0, int64_t c0, int64_t c1, T* a, cudaStream_t s) {
  const size_t w = static_cast<size_t>(c1 - c0) * sizeof(T);
  GQL_CUDA_CHECK(cudaMemcpy2DAsync(a + r0 * ld + c0, static_cast<size_t>(ld) * sizeof(T), packed, w, w,
                                   static_cast<size_t>(n - r0), cudaMemcpyDeviceToDevice, s));
}

}  // namespace detail

// The row-major n x n matrix at `a` (device memory, the same on every rank) factored in place over
// the ranks' GPUs; `pivots`: n ints on every rank's device. Returns when done, every rank holding the
// factors and pivots; a singular matrix throws on every rank (Error(requirement), the first zero-pivot
// column, as the one-GPU LU).
template <class T>
void lu_on_devices(const DeviceWorld& devices, T* a, int64_t n, int* pivots, const gpu::DeviceLuOptions& options,
                   const Stream& stream) {
  namespace k = device::dense::lu;
  const World& world = devices.world();
  const int me = world.rank();
  const cudaStream_t s = stream.get();
  const CyclicPanels panels{n, options.panel, world.size()};
  std::optional<gpu::CublasLease> cublas;
  std::optional<gpu::detail::PanelFactorizer<T>> factorizer;
  std::optional<StreamBuffer<T>> panel;
  std::optional<StreamBuffer<int>> singular;
  world.on_every_rank([&] {
    cublas.emplace(s);
    factorizer.emplace(n);
    panel.emplace(static_cast<size_t>(n * std::min(n, options.panel)), stream);
    singular.emplace(1, stream);
  });
  const cublasHandle_t h = cublas->get();
  int* found = static_cast<int*>(small_pinned_scratch());
  *found = static_cast<int>(n);
  copy_async(singular->data(), found, sizeof(int), cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
  for (int64_t k0 = 0; k0 < n; k0 += options.panel) {
    const int64_t k1 = std::min(n, k0 + options.panel), w = k1 - k0;
    const int holder = panels.owner(k0);
    if (holder == me) {  // the one-GPU LU's steps within the panel
      gpu::detail::factor_block_columns(*factorizer, h, options.vendor_gemm, a, n, n, k0, k1, pivots,
                                        singular->data(), s);
      detail::copy_columns_out(a, n, n, k0, k0, k1, panel->data(), s);
    }
    devices.broadcast(panel->data(), static_cast<size_t>((n - k0) * w) * sizeof(T), holder, s);
    devices.broadcast(pivots + k0, static_cast<size_t>(w) * sizeof(int), holder, s);
    devices.broadcast(singular->data(), sizeof(int), holder, s);  // the smallest so far: every rank's alike
    if (holder != me) {
      detail::copy_columns_in(panel->data(), n, n, k0, k0, k1, a, s);
      if (n > w) {
        k::swap_outside_panel<T><<<static_cast<unsigned>((n - w + 255) / 256), 256, 0, s>>>(a, n, n, k0, k1, pivots);
        GQL_CUDA_CHECK_LAUNCH();
      }
    }
    if (k1 == n) break;
    panels.each_of(me, [&](int64_t c0, int64_t c1) {
      if (c0 < k1) return;
      gpu::detail::trsm_unit_lower(h, c1 - c0, w, a + k0 * n + k0, a + k0 * n + c0, n);
      gpu::detail::subtract_product(h, options.vendor_gemm, n - k1, c1 - c0, w, a + k1 * n + k0, a + k0 * n + c0,
                                    a + k1 * n + c0, n, s);
    });
  }
  // Every panel's columns, whole, from its rank to the others.
  for (int64_t k0 = 0; k0 < n; k0 += options.panel) {
    const int64_t k1 = std::min(n, k0 + options.panel);
    const int holder = panels.owner(k0);
    if (holder == me) detail::copy_columns_out(a, n, n, 0, k0, k1, panel->data(), s);
    devices.broadcast(panel->data(), static_cast<size_t>(n * (k1 - k0)) * sizeof(T), holder, s);
    if (holder != me) detail::copy_columns_in(panel->data(), n, n, 0, k0, k1, a, s);
  }
  copy_async(found, singular->data(), sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  const int first_singular = *found;
  world.on_every_rank([&] { gpu::check_singular(first_singular, n); });
}

// A kernel's lu op over the ranks' GPUs: LU, pivots = lu(A), A whole on every rank (on its host or
// device), the factors and pivots left on every rank's device. On one rank the one-GPU op.
template <class T>
void lu(const DeviceWorld& devices, gpu::Resident<Matrix<T>>& LU, gpu::Resident<Vector<int32_t>>& pivots,
        gpu::Resident<Matrix<T>>& A, const gpu::LuOptions& options, KernelContext& ctx) {
  const World& world = devices.world();
  if (world.size() == 1) return gpu::lu(LU, pivots, A, options, ctx);
  const CallStream call(ctx);
  const Stream stream = call.stream();
  const gpu::DeviceLuOptions device_options{options.tile, options.vendor_gemm};
  const int64_t n = A.rows();
  gpu::check_lu_shape(n, A.cols(), device_options);
  std::optional<DeviceMatrix<T>> factors;
  std::optional<DeviceVector<int32_t>> found;
  world.on_every_rank([&] {
    factors.emplace(gpu::copy_on_device(A.device(stream), stream));
    found.emplace(DeviceVector<int32_t>::dense(n));
  });
  if (n > 0) lu_on_devices(devices, factors->data().data(), n, found->values().data(), device_options, stream);
  pivots.set_device(std::move(*found));
  LU.set_device(std::move(*factors));
  ctx.work().updates += 2 * n * n * n / 3;
  ctx.explain(options.label, "LU over " + std::to_string(world.size()) + " ranks' GPUs (" + devices.describe() +
                                 "), panels of " + std::to_string(options.tile) +
                                 " columns dealt in turn, trailing updates by " +
                                 (options.vendor_gemm ? "cuBLAS gemm" : "the register-tiled semiring GEMM") +
                                 " on each rank's panels; the factors left on every rank's device");
}

}  // namespace gql::dist
