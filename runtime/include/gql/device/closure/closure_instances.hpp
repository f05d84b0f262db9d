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

// The GEMM for each thread tile of gpu_closure_thread_tiles that holds S's values.
template <class S, bool dpx, size_t... Tile>
void fill_gemm_kernels(ClosureKernelTable<typename S::value_type>& t, std::index_sequence<Tile...>) {
  using V = typename S::value_type;
  namespace k = device::closure;
  const auto one = [&]<size_t T>(std::integral_constant<size_t, T>) {
    constexpr GpuThreadTile shape = gpu_closure_thread_tiles[T];
    if constexpr (shape.holds(sizeof(V)))
      t.gemm[dpx][T] = kernel_handle(k::semiring_gemm<S, V, k::ThreadTile<shape.rows, shape.cols>, dpx>);
  };
  (one(std::integral_constant<size_t, Tile>{}), ...);
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
  constexpr auto thread_tiles = std::make_index_sequence<gpu_closure_thread_tiles.size()>();
  detail::fill_gemm_kernels<S, false>(t, thread_tiles);
  if constexpr (k::dpx_capable<S>()) detail::fill_gemm_kernels<S, true>(t, thread_tiles);
  return t;
}

}  // namespace gql::gpu
