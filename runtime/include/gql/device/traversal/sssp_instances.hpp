// The kernel table of device single-source paths filled with the kernel templates' instantiations
// for a semiring and graph type, every load balance included (nvcc only; the JIT's host code gets its
// kernels from NVRTC instead).
#pragma once

#include <cstddef>
#include <utility>

#include "gql/device/traversal/sssp_kernel_table.hpp"
#include "gql/device/traversal/sssp_kernels.cuh"

namespace gql::gpu {

// The kernel template of variant N of paths_variants, instantiated for S over graphs of TG.
template <class S, class TG, size_t N>
constexpr auto paths_instance() {
  using V = typename S::value_type;
  constexpr int threads = device::traversal::traversal_block;
  constexpr PathsVariant v = paths_variants()[N];
  if constexpr (v.slot == PathsSlot::init) return &device::traversal::paths_init<threads, S>;
  else if constexpr (v.slot == PathsSlot::start) return &device::traversal::paths_start<V>;
  else if constexpr (v.slot == PathsSlot::relax) return &device::traversal::paths_relax<threads, v.balance, S, TG>;
  else if constexpr (v.slot == PathsSlot::relax_batched) return &device::traversal::paths_relax_batched<threads, S, TG>;
  else if constexpr (v.slot == PathsSlot::split_near_far) return &device::traversal::paths_split_near_far<threads, V>;
  else if constexpr (v.slot == PathsSlot::refill_near) return &device::traversal::paths_refill_near<threads, V>;
  else return &device::traversal::paths_far_least<threads, S>;
}

template <class S, class TG, size_t... N>
PathsKernelTable<typename S::value_type, TG> instantiate_paths_kernels(std::index_sequence<N...>) {
  PathsKernelTable<typename S::value_type, TG> t;
  ((paths_slot<paths_variants()[N].slot>(t, paths_variants()[N].balance) = kernel_handle(paths_instance<S, TG, N>())),
   ...);
  return t;
}

// Every variant, whatever the schedule.
template <class S, class TG>
PathsKernelTable<typename S::value_type, TG> paths_kernels() {
  return instantiate_paths_kernels<S, TG>(std::make_index_sequence<paths_variant_count>{});
}

}  // namespace gql::gpu
