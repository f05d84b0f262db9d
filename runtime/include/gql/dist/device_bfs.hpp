// BFS levels over the ranks' GPUs (what a gqlc --mpi CUDA program's BFS op calls), level-synchronous as
// gql/dist/bfs.hpp on the host: each rank holds the rows of its vertices (a block of equal edges,
// starting at a multiple of 32 vertices) in its GPU's memory, with their in-edges where pull steps
// need them (the rows themselves when the graph is symmetric). The frontier and the visited set are a
// bit per vertex, the same on every rank. A pull step looks for a frontier vertex among the in-edges
// of each of the rank's unseen vertices and writes whole 32-bit words of its own vertices, joined on
// every rank (DeviceWorld::join_parts); a push step marks the unseen heads of the rank's frontier
// vertices anywhere, and the ranks' marks are joined and or-ed. Every rank then writes the same new
// levels, so the levels never travel; each rank counts its own vertices' degrees for the direction
// rule (Beamer's, common/direction.hpp), summed over MPI, so every rank chooses alike. Levels are
// unique: the result is the one-process search's.
//
// Host code. The kernels and the search are in the library (runtime/src/dist/device_bfs.cu); the op
// below compiles with nvcc (generated programs and the GPU tests).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "gql/common/direction.hpp"
#include "gql/common/traversal_stats.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/traversal/traversal.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist {

// The rows rank `rank` of `ranks` searches from in a BFS over the GPUs: blocks of equal edges
// (rows_by_work over the graph's row offsets), their bounds moved down to multiples of 32 vertices
// so that each rank owns whole words of the frontier's bits (the last block ends at n).
RowRange bfs_rows(std::span<const offset_t> row_offsets, int ranks, int rank);

// One rank's part of BFS searches over one graph: its rows on its GPU and the search's buffers, made
// once and kept for many searches. Every rank must construct it and call run() alike (collective).
class DeviceBfsRows {
 public:
  // A graph's rows as the host holds them (row v's entries at [offsets[v], offsets[v + 1])).
  struct Rows {
    std::span<const offset_t> offsets;  // n + 1 entries
    std::span<const index_t> columns;
  };
  // Uploads the rows of this rank's block (bfs_rows of `out`) of a graph with nvals entries, on
  // `stream`: `out` the graph's out-edges, `in` its in-edges (the transpose's rows; the same rows
  // when the graph is symmetric or when only push steps will run).
  DeviceBfsRows(const DeviceWorld& devices, Rows out, Rows in, int64_t nvals, const Stream& stream);
  DeviceBfsRows(const DeviceBfsRows&) = delete;
  DeviceBfsRows& operator=(const DeviceBfsRows&) = delete;
  ~DeviceBfsRows();

  // Searches from `source` after what `stream` holds; the levels stay on the device for levels().
  common::TraversalStats run(int64_t source, const common::DirectionOptions& options, const Stream& stream);
  // The last search's reached vertices and their levels (every vertex's, on every rank).
  DeviceVector<int32_t> levels(const Stream& stream) const;

 private:
  struct Buffers;
  const DeviceWorld& devices_;
  int64_t n_, nvals_;
  RowRange mine_;
  std::vector<int64_t> word_offsets_;  // each rank's frontier words, in bytes: pull steps join these
  int64_t reached_ = 0;
  std::unique_ptr<Buffers> buffers_;
};

namespace detail {

// A search's device state over one graph value, kept with the graph's contents (gql/derived.hpp).
using KeptBfsRows = KeptState<DeviceBfsRows>;

template <class TG>
DeviceBfsRows::Rows rows_of(const Csr<TG>& g) {
  return {std::span<const offset_t>(g.row_offsets().data(), g.row_offsets().size()),
          std::span<const index_t>(g.col_indices().data(), g.col_indices().size())};
}

}  // namespace detail

// A kernel's BFS op over the ranks' GPUs: levels = the BFS levels of G from `source`, left on every
// rank's device. G is read on the host (whole on every rank, as the program read it; downloaded when
// only the device holds it); each rank uploads its rows once per graph value. Pull steps
// (`reads_transpose`) read in-edges: G's rows when G is symmetric, else its transpose's (made on the
// host once per graph value). On one rank the one-GPU search runs (gpu::bfs_levels, by `schedule`).
template <class TG>
void bfs_levels(const DeviceWorld& devices, gpu::Resident<Vector<int32_t>>& levels, gpu::Resident<Csr<TG>>& G,
                int64_t source, const common::DirectionOptions& options, bool reads_transpose,
                common::TraversalStats* stats, const gpu::BfsSchedule& schedule, KernelContext& ctx) {
  const World& world = devices.world();
  if (world.size() == 1) return gpu::bfs_levels(levels, G, source, options, reads_transpose, stats, schedule, ctx);
  const Stream stream = Stream::for_call(ctx);
  const Csr<TG>& g = G.host(stream);
  if (g.n_rows() != g.n_cols())
    throw Error(ErrorKind::usage, "bfs: the graph is " + std::to_string(g.n_rows()) + " x " +
                                      std::to_string(g.n_cols()) + ", not square");
  const bool transposed = reads_transpose && !g.derived().symmetric();
  auto& kept = g.derived().template get<detail::KeptBfsRows>(std::string("dist/gpu/bfs/") +
                                                             (transposed ? "pull" : "symmetric"));
  std::lock_guard turn(kept.turn);
  if (!kept.state) {
    const auto out = detail::rows_of(g);
    kept.state.emplace(devices, out, transposed ? detail::rows_of(cpu::transpose_of(g)) : out, g.nvals(), stream);
  }
  common::TraversalStats local = kept.state->run(source, options, stream);
  levels.set_device(kept.state->levels(stream));
  if (g.derived().symmetric()) local.searched_edges /= 2;
  if (stats) *stats = local;
  ctx.explain("bfs levels over the ranks' GPUs", "search over " + std::to_string(world.size()) + " ranks' GPUs (" +
                                                    devices.describe() + "), each rank's rows a block of equal edges");
}

}  // namespace gql::dist
