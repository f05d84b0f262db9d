// The closure's kernel table filled with the kernel templates' instantiations for a semiring: every
// variant a plan may choose (nvcc only; the JIT's host code gets its kernels from NVRTC instead).
#pragma once

#include <cstddef>
#include <utility>

#include "gql/device/closure/closure_kernel_table.hpp"
#include "gql/device/closure/closure_kernels.cuh"

namespace gql::gpu {

namespace detail {

template <class S, size_t... Shape>
void fill_tile_kernels(ClosureKernelTable<typename S::value_type>& t, std::index_sequence<Shape...>) {
  using V = typename S::value_type;
  namespace k = device::closure;
  ((t.tiles[Shape] = {kernel_handle(k::fw_tile_diagonal<S, V, closure_tile_shapes[Shape].tile,
                                                         closure_tile_shapes[Shape].per_thread>),
                      kernel_handle(k::fw_tile_panels<S, V, closure_tile_shapes[Shape].tile,
                                                      closure_tile_shapes[Shape].per_thread>),
                      kernel_handle(k::fw_tile_rest<S, V, closure_tile_shapes[Shape].tile,
                                                    closure_tile_shapes[Shape].per_thread>)}),
   ...);
}

template <class S, bool dpx>
void fill_gemm_kernels(ClosureKernelTable<typename S::value_type>& t) {
  using V = typename S::value_type;
  namespace k = device::closure;
  t.gemm[dpx][0] = kernel_handle(k::semiring_gemm<S, V, k::Tile8x8, dpx>);
  if constexpr (k::Tile8x16::holds<V>) t.gemm[dpx][1] = kernel_handle(k::semiring_gemm<S, V, k::Tile8x16, dpx>);
}

}  // namespace detail

template <class S>
ClosureKernelTable<typename S::value_type> closure_kernels() {
  using V = typename S::value_type;
  namespace k = device::closure;
  ClosureKernelTable<V> t = closure_table_facts<S>();
  t.fill = kernel_handle(k::fill<V>);
  t.fill_predecessors = kernel_handle(k::fill<int>);
  t.initial_predecessors = kernel_handle(k::initial_predecessors<S, V>);
  t.global_step = {kernel_handle(k::fw_global_step<S, V, false>), kernel_handle(k::fw_global_step<S, V, true>)};
  detail::fill_tile_kernels<S>(t, std::make_index_sequence<closure_tile_shapes.size()>());
  detail::fill_gemm_kernels<S, false>(t);
  if constexpr (k::dpx_capable<S>()) detail::fill_gemm_kernels<S, true>(t);
  return t;
}

}  // namespace gql::gpu
