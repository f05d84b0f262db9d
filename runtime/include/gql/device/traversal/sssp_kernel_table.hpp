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
#include "gql/device/traversal/sssp_schedule.hpp"
#include "gql/device/traversal/step_counters.cuh"

namespace gql::gpu {

// The table's entries, each filled by one kernel template of device/traversal/sssp_kernels.cuh
// (paths_init, paths_start, ...; relax: one per load balance). One list of variants for both builds:
// nvcc instantiates every one (gql/device/traversal/sssp_instances.hpp); the JIT names for NVRTC those
// a schedule runs and binds them to the same entries (gql/device/jit_kernels.hpp).
enum class PathsSlot { init, start, relax, relax_batched, split_near_far, refill_near, far_least };

struct PathsVariant {
  PathsSlot slot = PathsSlot::init;
  LoadBalance balance = LoadBalance::edge;  // relax: how it maps edges to threads
};

inline constexpr size_t paths_variant_count = 6 + load_balance_count;  // the other six slots, and a relax per balance
constexpr std::array<PathsVariant, paths_variant_count> paths_variants() {
  using Slot = PathsSlot;
  std::array<PathsVariant, paths_variant_count> out{};
  size_t n = 0;
  out[n++] = {Slot::init};
  out[n++] = {Slot::start};
  for (int b = 0; b < load_balance_count; ++b) out[n++] = {Slot::relax, static_cast<LoadBalance>(b)};
  for (const Slot slot : {Slot::relax_batched, Slot::split_near_far, Slot::refill_near, Slot::far_least})
    out[n++] = {slot};
  return out;
}

// Whether a search under `schedule` may launch variant v: delta-stepping's queues only under
// delta-stepping, and the relax of the schedule's balance only.
constexpr bool paths_variant_runs(const PathsVariant& v, const SsspSchedule& schedule) {
  switch (v.slot) {
    case PathsSlot::relax: return v.balance == schedule.balance;
    case PathsSlot::split_near_far:
    case PathsSlot::refill_near:
    case PathsSlot::far_least: return schedule.kernel == PathsKernel::delta_stepping;
    case PathsSlot::init:
    case PathsSlot::start:
    case PathsSlot::relax_batched: break;
  }
  return true;
}

// Values V over a graph of TG (device/traversal/sssp_kernels.cuh has each kernel's parameters).
template <class V, class TG>
struct PathsKernelTable {
  using Counters = device::traversal::StepCounters;
  KernelHandle<V*, int*, unsigned char*, long long> init;
  KernelHandle<long long, V, const offset_t*, V*, unsigned char*, index_t*, Counters*> start;
  using Relax = KernelHandle<device::CsrView<TG>, long long, const index_t*, const long long*, long long, long long,
                             V*, unsigned char*, int*, int, index_t*, Counters*>;
  std::array<Relax, load_balance_count> relax;  // by LoadBalance; null where not built
  KernelHandle<device::CsrView<TG>, long long, const index_t*, const Counters*, unsigned long long, V*,
               unsigned char*, int*, int, index_t*, Counters*>
      relax_batched;
  // Delta-stepping: the near and far queues, and the least far value.
  using Split = KernelHandle<const offset_t*, const index_t*, long long, const V*, V, index_t*, Counters*, index_t*,
                             unsigned long long*, unsigned char*>;
  Split split_near_far, refill_near;
  KernelHandle<const index_t*, long long, const V*, V*> far_least;
};

// The entry of a table that a variant of `Slot` fills: typed, for nvcc's instantiations.
template <PathsSlot Slot, class Table>
constexpr auto& paths_slot(Table& t, LoadBalance balance) {
  if constexpr (Slot == PathsSlot::init) return t.init;
  else if constexpr (Slot == PathsSlot::start) return t.start;
  else if constexpr (Slot == PathsSlot::relax) return t.relax.at(static_cast<size_t>(balance));
  else if constexpr (Slot == PathsSlot::relax_batched) return t.relax_batched;
  else if constexpr (Slot == PathsSlot::split_near_far) return t.split_near_far;
  else if constexpr (Slot == PathsSlot::refill_near) return t.refill_near;
  else return t.far_least;
}

// The address of that entry for a variant known at run time (the JIT's binding).
template <class Table>
const void*& paths_slot_address(Table& t, const PathsVariant& v) {
  switch (v.slot) {
    case PathsSlot::init: return paths_slot<PathsSlot::init>(t, v.balance).address;
    case PathsSlot::start: return paths_slot<PathsSlot::start>(t, v.balance).address;
    case PathsSlot::relax: return paths_slot<PathsSlot::relax>(t, v.balance).address;
    case PathsSlot::relax_batched: return paths_slot<PathsSlot::relax_batched>(t, v.balance).address;
    case PathsSlot::split_near_far: return paths_slot<PathsSlot::split_near_far>(t, v.balance).address;
    case PathsSlot::refill_near: return paths_slot<PathsSlot::refill_near>(t, v.balance).address;
    case PathsSlot::far_least: break;
  }
  return paths_slot<PathsSlot::far_least>(t, v.balance).address;
}

}  // namespace gql::gpu
