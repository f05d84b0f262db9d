// The kernels of device single-source paths (gql/device/traversal/sssp.hpp) over one semiring and graph type
// as a table of handles (gql/device/kernel_handle.hpp). Ahead-of-time programs fill it with the
// kernel templates' instantiations (gql/device/traversal/sssp_instances.hpp); the JIT with the kernels NVRTC
// built for the spec's schedule (gql/device/jit_kernels.hpp). Host code; compiles with nvcc or a
// host compiler.
#pragma once

#include <array>

#include "gql/device/csr_view.cuh"
#include "gql/device/kernel_handle.hpp"
#include "gql/device/traversal/load_balance.cuh"
#include "gql/device/traversal/step_counters.cuh"

namespace gql::gpu {

// Values V over a graph of TG (device/traversal/sssp_kernels.cuh has each kernel's parameters).
template <class V, class TG>
struct PathsKernelTable {
  using Counters = device::StepCounters;
  KernelHandle<V*, int*, unsigned char*, long long> init;
  KernelHandle<long long, V, const offset_t*, V*, unsigned char*, index_t*, Counters*> start;
  using Relax = KernelHandle<device::CsrView<TG>, long long, const index_t*, const long long*, long long, long long,
                             V*, unsigned char*, int*, int, index_t*, Counters*>;
  std::array<Relax, device::load_balance_count> relax;  // by LoadBalance; null where not built
  KernelHandle<device::CsrView<TG>, long long, const index_t*, const Counters*, unsigned long long, V*,
               unsigned char*, int*, int, index_t*, Counters*>
      relax_batched;
  // Delta-stepping: the near and far queues, and the least far value.
  using Split = KernelHandle<const offset_t*, const index_t*, long long, const V*, V, index_t*, Counters*, index_t*,
                             unsigned long long*, unsigned char*>;
  Split split_near_far, refill_near;
  KernelHandle<const index_t*, long long, const V*, V*> far_least;
};

}  // namespace gql::gpu
