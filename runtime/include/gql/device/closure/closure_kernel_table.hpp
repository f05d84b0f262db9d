// The kernels of a closure over one semiring as a table of handles (gql/device/kernel_handle.hpp),
// with the facts of the semiring that the host driver (gql/device/closure/closure.hpp) needs. Ahead-of-time
// programs fill it with the kernel templates' instantiations (gql/device/closure/closure_instances.hpp); the
// JIT with the kernels NVRTC built for the variants the spec's schedule may run
// (gql/device/jit_kernels.hpp). Host code; compiles with nvcc or a host compiler.
#pragma once

#include <array>
#include <cstddef>

#include "gql/device/closure/closure_shapes.cuh"
#include "gql/device/kernel_handle.hpp"

namespace gql::gpu {

// The (tile, entries per thread) shapes of the shared-memory tile kernels: the shared-memory design's
// five, and the register design's diagonal tiles (k-blocks of 32, 64 and 128, KB * KB / 1024 entries
// per thread; a k-block of 256 closes its diagonal with k-blocks of 128).
struct ClosureTileShape {
  int tile = 0;
  int per_thread = 0;
};
inline constexpr std::array<ClosureTileShape, 6> closure_tile_shapes{
    {{32, 1}, {32, 2}, {32, 4}, {64, 4}, {64, 8}, {128, 16}}};

// The index of (tile, per_thread) in closure_tile_shapes; -1 when it is not one of them.
constexpr int closure_tile_shape_index(int tile, int per_thread) {
  for (size_t s = 0; s < closure_tile_shapes.size(); ++s)
    if (closure_tile_shapes[s].tile == tile && closure_tile_shapes[s].per_thread == per_thread) return static_cast<int>(s);
  return -1;
}

// The diagonal tile's shape of the register design's k-block `kb`.
constexpr ClosureTileShape register_diagonal_shape(int kb) {
  const int tile = kb < 128 ? kb : 128;
  return {tile, tile * tile / 1024};
}

// The register GEMM's thread tiles by index: 8x8 (0) and 8x16 (1; values of 4 bytes at most).
inline constexpr std::array<int, 2> thread_tile_threads{device::closure::Tile8x8::threads,
                                                        device::closure::Tile8x16::threads};
constexpr int thread_tile_index(int cols) { return cols == 16 ? 1 : 0; }

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
  std::array<std::array<KernelHandle<GemmArgs, GemmArgs>, 2>, 2> gemm;  // [DPX add-min][thread tile index]

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
