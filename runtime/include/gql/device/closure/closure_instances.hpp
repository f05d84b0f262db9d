// The closure's kernel table filled with the kernel templates' instantiations for a semiring: every
// variant of closure_variants() its values allow, whatever the schedule (nvcc only; the JIT's host
// code gets its kernels from NVRTC instead).
#pragma once

#include <cstddef>
#include <utility>

#include "gql/device/closure/closure_kernel_table.hpp"
#include "gql/device/closure/closure_kernels.cuh"

namespace gql::gpu {

// The kernel template of variant N of closure_variants, instantiated for S.
template <class S, size_t N>
constexpr auto closure_instance() {
  using V = typename S::value_type;
  namespace k = device::closure;
  constexpr ClosureVariant v = closure_variants()[N];
  constexpr auto at = static_cast<size_t>(v.index);
  if constexpr (v.slot == ClosureSlot::fill) return &k::fill<V>;
  else if constexpr (v.slot == ClosureSlot::fill_predecessors) return &k::fill<int>;
  else if constexpr (v.slot == ClosureSlot::initial_predecessors) return &k::initial_predecessors<S, V>;
  else if constexpr (v.slot == ClosureSlot::global_step) return &k::fw_global_step<S, V, v.index == 1>;
  else if constexpr (v.slot == ClosureSlot::tile_diagonal)
    return &k::fw_tile_diagonal<S, V, closure_tile_shapes[at].tile, closure_tile_shapes[at].per_thread>;
  else if constexpr (v.slot == ClosureSlot::tile_panels)
    return &k::fw_tile_panels<S, V, closure_tile_shapes[at].tile, closure_tile_shapes[at].per_thread>;
  else if constexpr (v.slot == ClosureSlot::tile_rest)
    return &k::fw_tile_rest<S, V, closure_tile_shapes[at].tile, closure_tile_shapes[at].per_thread>;
  else
    return &k::semiring_gemm<S, V, k::ThreadTile<gpu_closure_thread_tiles[at].rows, gpu_closure_thread_tiles[at].cols>,
                             v.dpx>;
}

template <class S, size_t... N>
void instantiate_closure_kernels(ClosureKernelTable<typename S::value_type>& t, std::index_sequence<N...>) {
  using V = typename S::value_type;
  const auto one = [&]<size_t M>(std::integral_constant<size_t, M>) {
    constexpr ClosureVariant v = closure_variants()[M];
    if constexpr (closure_variant_built(v, sizeof(V), device::closure::dpx_capable<S>()))
      closure_slot<v.slot>(t, v) = kernel_handle(closure_instance<S, M>());
  };
  (one(std::integral_constant<size_t, N>{}), ...);
}

// Every variant the semiring's values allow, whatever the schedule.
template <class S>
ClosureKernelTable<typename S::value_type> closure_kernels() {
  ClosureKernelTable<typename S::value_type> t = closure_table_facts<S>();
  instantiate_closure_kernels<S>(t, std::make_index_sequence<closure_variant_count>{});
  return t;
}

}  // namespace gql::gpu
