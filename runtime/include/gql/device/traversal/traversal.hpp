// The traversal loops that generated CUDA code calls: gql::gpu::bfs_levels and
// gql::gpu::single_source_paths, with the parameters and results of gql::cpu's (cpu/traversal.hpp).
// The search runs on the device (bfs.hpp, sssp.hpp) reading back a few counters per step. A BFS reads
// the kernel's graph where it is on the device and leaves its levels there (a Resident); its device
// state belongs to the graph value, so many searches on one graph set it up once. Single-source
// paths take host containers. Device memory is
// charged to MemoryBudget::global() (GQL_DEVICE_MEMORY_LIMIT caps it: an oversized graph is an
// Error(oom)).
//
// Host code. With nvcc the definitions are here. A host compiler (the JIT's host code) sees the
// declaration of bfs_levels only, whose instantiations for every graph element type the runtime
// library holds (a BFS's levels do not depend on a semiring, so it needs no kernels of the spec's),
// and single-source paths with the kernels NVRTC built for the spec's semiring (sssp.hpp).
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "gql/common/direction.hpp"
#include "gql/common/traversal_stats.hpp"
#include "gql/derived.hpp"
#include "gql/device.hpp"
#include "gql/device/device_transpose.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/traversal/bfs_schedule.hpp"
#include "gql/device/traversal/levels_vector.hpp"

#include "gql/device/traversal/sssp.hpp"

#if defined(__CUDACC__)
#include "gql/device/traversal/bfs.hpp"
#endif

namespace gql::gpu {

using common::Direction;
using common::DirectionOptions;
using common::TraversalStats;

#if defined(__CUDACC__)
namespace detail {

// A BFS's device state over one graph value (its device graphs, visited sets and queues), kept with
// the graph's contents (gql/derived.hpp): many searches on one graph set it up once, and take turns.
using KeptSearch = KeptState<DeviceBfs>;

inline std::string kept_search_key(const BfsSchedule& schedule, bool transposed) {
  return "gpu/bfs/" + std::to_string(static_cast<int>(schedule.kernel)) + "/" +
         std::to_string(static_cast<int>(schedule.balance)) + "/" + std::to_string(static_cast<int>(schedule.frontier)) +
         "/" + std::to_string(schedule.batch_levels) + (transposed ? "/pull" : "/symmetric");
}

// Runs one search from `source` on the kept state (made by `make` on first use) after what `stream`
// holds; returns with the levels on the device.
template <class Make>
TraversalStats kept_search(const Derived& graph, const std::string& key, Make&& make, int64_t source,
                           const DirectionOptions& options, const Stream& stream,
                           DeviceVector<int32_t>* levels, Vector<int32_t>* host_levels) {
  KeptSearch& search = graph.template get<KeptSearch>(key);
  std::lock_guard turn(search.turn);
  if (!search.state) make(search.state);
  Event ready;
  ready.record(stream);  // the search follows what the call queued before it
  ready.wait_on(search.state->stream());
  const TraversalStats stats = search.state->run(source, options);
  if (levels) {
    const DeviceBfs::LevelsView view = search.state->device_levels();
    *levels = levels_vector(view.narrow, view.wide, search.state->n_vertices(), search.state->reached(),
                            search.state->stream());
  }
  if (host_levels) *host_levels = search.state->levels();
  return stats;
}

}  // namespace detail
#endif

// BFS levels from `source` (see cpu::bfs_levels): GT is the transpose of G, read by pull steps (G
// itself for a symmetric graph, uploaded once then). The schedule changes how it steps, not what it
// finds. The search's device state belongs to G's contents, so many searches on one graph value
// upload it once.
template <class TG>
Vector<int32_t> bfs_levels(const Csr<TG>& G, const Csr<TG>& GT, int64_t source, const DirectionOptions& options = {},
                           TraversalStats* stats = nullptr, const BfsSchedule& schedule = {},
                           Stream stream = Stream())
#if defined(__CUDACC__)
{
  const bool transposed = static_cast<const void*>(&GT) != static_cast<const void*>(&G);
  Vector<int32_t> levels;
  const TraversalStats local = detail::kept_search(
      G.derived(), detail::kept_search_key(schedule, transposed),
      [&](std::optional<DeviceBfs>& bfs) {
        const DeviceCsr<TG>& dG = device_copy(G, stream);
        bfs.emplace(dG, transposed ? device_copy(GT, stream) : dG, schedule);
      },
      source, options, stream, nullptr, &levels);
  if (stats) {
    *stats = local;
    if (G.derived().symmetric()) stats->searched_edges /= 2;
  }
  return levels;
}
#else
;
#endif

// The op of a CUDA kernel: levels = the BFS levels of G from `source`, computed on the device and left
// there. Pull steps (`reads_transpose`) read G's transpose: G itself when G is symmetric, else made
// once per graph value.
template <class TG>
void bfs_levels(Resident<Vector<int32_t>>& levels, Resident<Csr<TG>>& G, int64_t source,
                const DirectionOptions& options, bool reads_transpose, TraversalStats* stats,
                const BfsSchedule& schedule, KernelContext& ctx)
#if defined(__CUDACC__)
{
  const Stream stream = Stream::for_call(ctx);
  const DeviceCsr<TG>& dG = G.device(stream);
  const bool transposed = reads_transpose && !dG.derived().symmetric();
  DeviceVector<int32_t> out;
  const TraversalStats local = detail::kept_search(
      dG.derived(), detail::kept_search_key(schedule, transposed),
      [&](std::optional<DeviceBfs>& bfs) {
        // A directed graph's transpose is made on the device once per graph value and kept with the
        // device graph, as long as the search that reads it.
        const DeviceCsr<TG>& dGT = !transposed ? dG : transpose_of(dG, stream);
        bfs.emplace(dG, dGT, schedule);
      },
      source, options, stream, &out, nullptr);
  if (stats) {
    *stats = local;
    if (dG.derived().symmetric()) stats->searched_edges /= 2;
  }
  levels.set_device(std::move(out));
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

namespace detail {

// A paths search's device state over one graph value (it reads the graph where it is), kept with
// the graph's contents: many searches on one graph set it up once, and take turns.
template <class S, class TG>
using KeptPaths = KeptState<DevicePaths<S, TG>>;

inline std::string kept_paths_key(const SsspSchedule& schedule) {
  return "gpu/paths/" + std::to_string(static_cast<int>(schedule.kernel)) + "/" + std::to_string(schedule.delta) +
         "/" + std::to_string(static_cast<int>(schedule.balance));
}

}  // namespace detail

// The op of a CUDA kernel: a relaxation loop recognized as single-source paths (the Bellman-Ford
// loop of cpu::single_source_paths), run on G's device copy with the paths left on the device.
// Returns false, and leaves `paths` as it was, when the search's values are not provably the loop's
// (DevicePaths::reproduces_the_loop); the caller then runs the loop as written. Throws what the
// search throws (values that keep improving: Error(usage)).
template <class S, class TG>
bool single_source_paths(Resident<Vector<typename S::value_type>>& paths, Resident<Csr<TG>>& G, int64_t source,
                         typename S::value_type source_value, TraversalStats* stats, const SsspSchedule& schedule,
                         KernelContext& ctx) {
  const Stream stream = Stream::for_call(ctx);
  const DeviceCsr<TG>& dG = G.device(stream);
  auto& kept = dG.derived().template get<detail::KeptPaths<S, TG>>(detail::kept_paths_key(schedule));
  std::lock_guard turn(kept.turn);
  if (!kept.state) {
    stream.synchronize();  // the graph's upload, which the search's own stream reads from here on
    kept.state.emplace(dG, schedule);
  }
  DevicePaths<S, TG>& search = *kept.state;
  Event ready;
  ready.record(stream);  // the search follows what the call queued before it
  ready.wait_on(search.stream());
  const TraversalStats local = search.run(source, source_value);
  if (!search.reproduces_the_loop()) return false;
  DeviceVector<typename S::value_type> out = search.device_values();
  Event done;
  done.record(search.stream());
  done.wait_on(stream);  // the call's next ops read the paths after they are made
  if (stats) *stats = local;
  paths.set_device(std::move(out));
  return true;
}

}  // namespace gql::gpu
