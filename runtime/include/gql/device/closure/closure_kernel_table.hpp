// The kernels of a closure over one semiring as a table of handles (gql/device/kernel_handle.hpp),
// with the facts of the semiring that the host driver (gql/device/closure/closure.hpp) needs, and the
// one list of the variants that fill it. Ahead-of-time programs fill it with the kernel templates'
// instantiations (gql/device/closure/closure_instances.hpp); the JIT with the kernels NVRTC built for
// the variants the spec's schedule may run (gql/device/jit_kernels.hpp). Host code; compiles with nvcc
// or a host compiler.
#pragma once

#include <array>
#include <cstddef>

#include "gql/closure_variants.hpp"
#include "gql/device/closure/closure_plan.hpp"
#include "gql/device/closure/closure_shapes.cuh"
#include "gql/device/kernel_handle.hpp"

namespace gql::gpu {

// The (tile, entries per thread) shapes of the shared-memory tile kernels: the shared-memory design's
// (gpu_closure_shared_tiles), and the register design's diagonal tiles (k-blocks of 32, 64 and 128,
// KB * KB / 1024 entries per thread; a k-block of 256 closes its diagonal with k-blocks of 128).
using ClosureTileShape = GpuClosureTile;

// The diagonal tile's shape of the register design's k-block `kb`.
constexpr ClosureTileShape register_diagonal_shape(int kb) {
  const int tile = kb < 128 ? kb : 128;
  return {tile, tile * tile / 1024};
}

namespace detail {
// The shared design's shapes, then each register diagonal shape that is not one of them.
struct ClosureTileShapeList {
  std::array<ClosureTileShape, gpu_closure_shared_tiles.size() + gpu_closure_k_blocks.size()> shapes{};
  size_t count = 0;
  constexpr void add(ClosureTileShape s) {
    for (size_t i = 0; i < count; ++i)
      if (shapes[i].tile == s.tile && shapes[i].per_thread == s.per_thread) return;
    shapes[count++] = s;
  }
};
inline constexpr ClosureTileShapeList closure_tile_shape_list = [] {
  ClosureTileShapeList list;
  for (const ClosureTileShape& s : gpu_closure_shared_tiles) list.add(s);
  for (const int kb : gpu_closure_k_blocks) list.add(register_diagonal_shape(kb));
  return list;
}();
}  // namespace detail

inline constexpr auto closure_tile_shapes = [] {
  std::array<ClosureTileShape, detail::closure_tile_shape_list.count> out{};
  for (size_t s = 0; s < out.size(); ++s) out[s] = detail::closure_tile_shape_list.shapes[s];
  return out;
}();

// The index of (tile, per_thread) in closure_tile_shapes; -1 when it is not one of them.
constexpr int closure_tile_shape_index(int tile, int per_thread) {
  for (size_t s = 0; s < closure_tile_shapes.size(); ++s)
    if (closure_tile_shapes[s].tile == tile && closure_tile_shapes[s].per_thread == per_thread) return static_cast<int>(s);
  return -1;
}

// The register GEMM's threads per block for each of gpu_closure_thread_tiles.
constexpr int thread_tile_threads(int index) {
  const GpuThreadTile& t = gpu_closure_thread_tiles[static_cast<size_t>(index)];
  return device::closure::gemm_tile / t.cols * (device::closure::gemm_tile / t.rows);
}

// The table's entries, each filled by one kernel template of device/closure/closure_kernels.cuh. One
// list of variants for both builds: nvcc instantiates every one the semiring's values allow
// (gql/device/closure/closure_instances.hpp); the JIT names for NVRTC those a schedule runs and binds
// them to the same entries (gql/device/jit_kernels.hpp).
enum class ClosureSlot {
  fill, fill_predecessors, initial_predecessors, global_step, tile_diagonal, tile_panels, tile_rest, gemm
};

struct ClosureVariant {
  ClosureSlot slot = ClosureSlot::fill;
  // global_step: with predecessors (1) or without (0); tile_*: the shape's index in
  // closure_tile_shapes; gemm: the thread tile's in gpu_closure_thread_tiles.
  int index = 0;
  bool dpx = false;  // gemm: the DPX add-min variant
};

// The four single kernels and the global step twice, three stages per tile shape, and each thread
// tile's GEMM plain and with DPX.
inline constexpr size_t closure_variant_count =
    5 + 3 * closure_tile_shapes.size() + 2 * gpu_closure_thread_tiles.size();
constexpr std::array<ClosureVariant, closure_variant_count> closure_variants() {
  using Slot = ClosureSlot;
  std::array<ClosureVariant, closure_variant_count> out{};
  size_t n = 0;
  out[n++] = {Slot::fill};
  out[n++] = {Slot::fill_predecessors};
  out[n++] = {Slot::initial_predecessors};
  for (const int with_predecessors : {0, 1}) out[n++] = {Slot::global_step, with_predecessors};
  for (size_t s = 0; s < closure_tile_shapes.size(); ++s)
    for (const Slot stage : {Slot::tile_diagonal, Slot::tile_panels, Slot::tile_rest})
      out[n++] = {stage, static_cast<int>(s)};
  for (size_t t = 0; t < gpu_closure_thread_tiles.size(); ++t)
    for (const bool dpx : {false, true}) out[n++] = {Slot::gemm, static_cast<int>(t), dpx};
  return out;
}

// Whether variant v is built for values of `value_bytes` over a semiring that may run the DPX
// add-min or not (`dpx_capable`: device::closure::dpx_capable): a GEMM's thread tile must hold the
// values.
constexpr bool closure_variant_built(const ClosureVariant& v, size_t value_bytes, bool dpx_capable) {
  if (v.slot != ClosureSlot::gemm) return true;
  return gpu_closure_thread_tiles[static_cast<size_t>(v.index)].holds(value_bytes) && (!v.dpx || dpx_capable);
}

// Whether a closure under `schedule`, with predecessors or not, may launch variant v, whatever the
// matrix's size and the device's memory (the k-block the runtime picks by size, streaming out of
// core). With predecessors: the global-memory kernel, whatever the schedule. Else the tile kernels
// of the schedule's design (the register design's diagonal only), and the GEMM of its thread tile: the
// register design's stages 2 and 3 and every design's products out of core, with DPX in the register
// design only. A shape the kernels are not built for runs nothing (the plan rejects the schedule).
inline bool closure_variant_runs(const ClosureVariant& v, const ClosureSchedule& schedule, bool predecessors) {
  using Slot = ClosureSlot;
  if (predecessors)
    return v.slot == Slot::fill || v.slot == Slot::fill_predecessors || v.slot == Slot::initial_predecessors ||
           (v.slot == Slot::global_step && v.index == 1);
  // The defaults of a small matrix: a larger one's k-block of 256 closes its diagonals with 128 too.
  const DeviceClosureOptions options = resolve_defaults(detail::device_closure_options(schedule), 0);
  const bool registers = options.kernel == ClosureKernel::register_tiles;
  const ClosureTileShape tiles =
      registers ? register_diagonal_shape(options.tile) : ClosureTileShape{options.tile, options.per_thread};
  const RegisterTile thread_tile = options.register_tile;
  switch (v.slot) {
    case Slot::fill: return true;
    case Slot::fill_predecessors:
    case Slot::initial_predecessors:
    case Slot::global_step: return false;
    case Slot::tile_diagonal: return v.index == closure_tile_shape_index(tiles.tile, tiles.per_thread);
    case Slot::tile_panels:
    case Slot::tile_rest: return !registers && v.index == closure_tile_shape_index(tiles.tile, tiles.per_thread);
    case Slot::gemm: break;
  }
  return v.index == gpu_thread_tile_index(thread_tile.rows, thread_tile.cols) && v.dpx == registers;
}

template <class V>
struct ClosureKernelTable {
  using index = device::closure::index;
  using GemmArgs = device::closure::GemmArgs<V>;
  KernelHandle<V*, index, V> fill;
  KernelHandle<int*, index, int> fill_predecessors;
  KernelHandle<const V*, int*, index, index> initial_predecessors;
  std::array<KernelHandle<V*, int*, index, index, index, index>, 2> global_step;  // [with predecessors]
  using TileStage = KernelHandle<V*, index, index, index, index, bool>;
  struct TileStages {
    TileStage diagonal, panels, rest;
  };
  std::array<TileStages, closure_tile_shapes.size()> tiles;  // by closure_tile_shape_index
  // [DPX add-min][gpu_thread_tile_index]; null where the thread tile does not hold V
  std::array<std::array<KernelHandle<GemmArgs, GemmArgs>, gpu_closure_thread_tiles.size()>, 2> gemm;

  // The semiring's facts.
  V zero{};                        // padding and streamed buffers start at the identity
  bool dpx_capable = false;        // device::closure::dpx_capable
  unsigned gemm_shared_bytes = 0;  // the GEMM's dynamic shared memory (device::closure::staged_in_bytes)
};

// The entry of a table that a variant of `Slot` fills: typed, for nvcc's instantiations.
template <ClosureSlot Slot, class Table>
constexpr auto& closure_slot(Table& t, const ClosureVariant& v) {
  const auto at = static_cast<size_t>(v.index);
  if constexpr (Slot == ClosureSlot::fill) return t.fill;
  else if constexpr (Slot == ClosureSlot::fill_predecessors) return t.fill_predecessors;
  else if constexpr (Slot == ClosureSlot::initial_predecessors) return t.initial_predecessors;
  else if constexpr (Slot == ClosureSlot::global_step) return t.global_step.at(at);
  else if constexpr (Slot == ClosureSlot::tile_diagonal) return t.tiles.at(at).diagonal;
  else if constexpr (Slot == ClosureSlot::tile_panels) return t.tiles.at(at).panels;
  else if constexpr (Slot == ClosureSlot::tile_rest) return t.tiles.at(at).rest;
  else return t.gemm[v.dpx].at(at);
}

// The address of that entry for a variant known at run time (the JIT's binding).
template <class Table>
const void*& closure_slot_address(Table& t, const ClosureVariant& v) {
  switch (v.slot) {
    case ClosureSlot::fill: return closure_slot<ClosureSlot::fill>(t, v).address;
    case ClosureSlot::fill_predecessors: return closure_slot<ClosureSlot::fill_predecessors>(t, v).address;
    case ClosureSlot::initial_predecessors: return closure_slot<ClosureSlot::initial_predecessors>(t, v).address;
    case ClosureSlot::global_step: return closure_slot<ClosureSlot::global_step>(t, v).address;
    case ClosureSlot::tile_diagonal: return closure_slot<ClosureSlot::tile_diagonal>(t, v).address;
    case ClosureSlot::tile_panels: return closure_slot<ClosureSlot::tile_panels>(t, v).address;
    case ClosureSlot::tile_rest: return closure_slot<ClosureSlot::tile_rest>(t, v).address;
    case ClosureSlot::gemm: break;
  }
  return closure_slot<ClosureSlot::gemm>(t, v).address;
}

// A table for the semiring S with its facts and no kernels.
template <class S>
ClosureKernelTable<typename S::value_type> closure_table_facts() {
  using V = typename S::value_type;
  ClosureKernelTable<V> t;
  t.zero = S::zero();
  t.dpx_capable = device::closure::dpx_capable<S>();
  t.gemm_shared_bytes = device::closure::staged_in_bytes<S, V>();
  return t;
}

}  // namespace gql::gpu
