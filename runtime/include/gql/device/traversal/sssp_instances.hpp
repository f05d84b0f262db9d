// The kernel table of device single-source paths filled with the kernel templates' instantiations
// for a semiring and graph type, every load balance included (nvcc only; the JIT's host code gets its
// kernels from NVRTC instead).
#pragma once

#include "gql/device/traversal/frontier.hpp"
#include "gql/device/traversal/sssp_kernel_table.hpp"
#include "gql/device/traversal/sssp_kernels.cuh"

namespace gql::gpu {

template <class S, class TG>
PathsKernelTable<typename S::value_type, TG> paths_kernels() {
  using V = typename S::value_type;
  constexpr int threads = device::traversal_block;
  PathsKernelTable<V, TG> t;
  t.init = kernel_handle(device::paths_init<threads, S>);
  t.start = kernel_handle(device::paths_start<V>);
  detail::for_each_balance([&](auto balance) {
    t.relax[static_cast<size_t>(decltype(balance)::value)] =
        kernel_handle(device::paths_relax<threads, decltype(balance)::value, S, TG>);
  });
  t.relax_batched = kernel_handle(device::paths_relax_batched<threads, S, TG>);
  t.split_near_far = kernel_handle(device::paths_split_near_far<threads, V>);
  t.refill_near = kernel_handle(device::paths_refill_near<threads, V>);
  t.far_least = kernel_handle(device::paths_far_least<threads, S>);
  return t;
}

}  // namespace gql::gpu
