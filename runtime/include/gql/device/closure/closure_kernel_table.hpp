// The kernels of a closure over one semiring as a table of handles (gql/device/kernel_handle.hpp),
// with the facts of the semiring that the host driver (gql/device/closure/closure.hpp) needs. Ahead-of-time
// programs fill it with the kernel templates' instantiations (gql/device/closure/closure_instances.hpp); the
// JIT with the kernels NVRTC built for the variants the spec's schedule may run
// (gql/device/jit_kernels.hpp). Host code; compiles with nvcc or a host compiler.
#pragma once

#include <array>
#include <cstddef>

#include "gql/closure_variants.hpp"
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
