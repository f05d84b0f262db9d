// The traversal loops that generated CUDA code calls: gql::gpu::bfs_levels and
// gql::gpu::single_source_paths, with the parameters and results of gql::cpu's (cpu/traversal.hpp).
// Host containers in and out; the graph is uploaded, the search runs on the device (bfs.hpp,
// sssp.hpp) reading back a few counters per step, and the result comes back. Device memory is
// charged to MemoryBudget::global() (GQL_DEVICE_MEMORY_LIMIT caps it: an oversized graph is an
// Error(oom)).
//
// Host code. With nvcc the definitions are here. A host compiler (the JIT's host code) sees the
// declaration of bfs_levels only, whose instantiations for every graph element type the runtime
// library holds (a BFS's levels do not depend on a semiring, so it needs no kernels of the spec's),
// and single-source paths with the kernels NVRTC built for the spec's semiring (sssp.hpp).
#pragma once

#include <cstdint>
#include <utility>

#include "gql/cpu/direction.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/device.hpp"
#include "gql/device/bfs_schedule.hpp"

#include "gql/device/sssp.hpp"

#if defined(__CUDACC__)
#include "gql/device/bfs.hpp"
#endif

namespace gql::gpu {

using cpu::Direction;
using cpu::DirectionOptions;
using cpu::TraversalStats;

// BFS levels from `source` (see cpu::bfs_levels): GT is the transpose of G, read by pull steps (G
// itself for a symmetric graph, uploaded once then). The schedule changes how it steps, not what it
// finds; the search runs on `stream`.
template <class TG>
Vector<int32_t> bfs_levels(const Csr<TG>& G, const Csr<TG>& GT, int64_t source, const DirectionOptions& options = {},
                           TraversalStats* stats = nullptr, const BfsSchedule& schedule = {},
                           Stream stream = Stream())
#if defined(__CUDACC__)
{
  DeviceBfs search(G, GT, schedule, std::move(stream));
  const TraversalStats local = search.run(source, options);
  if (stats) *stats = local;
  return search.levels();
}
#else
;
#endif

// Single-source paths over a selective semiring S (see cpu::single_source_paths); the schedule
// changes the order of the relaxations, not the values.
template <class S, class TG>
Vector<typename S::value_type> single_source_paths(const Csr<TG>& G, int64_t source,
                                                   typename S::value_type source_value,
                                                   TraversalStats* stats = nullptr,
                                                   const SsspSchedule& schedule = {},
                                                   Stream stream = Stream()) {
  DevicePaths<S, TG> search(G, schedule, std::move(stream));
  const TraversalStats local = search.run(source, source_value);
  if (stats) *stats = local;
  return search.values();
}

}  // namespace gql::gpu
