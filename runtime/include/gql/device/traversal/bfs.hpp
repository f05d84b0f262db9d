// A BFS on the device, direction-optimizing: push steps scatter from a queue over the frontier's
// out-edges (edge-balanced by default, so a hub's list is spread over many blocks; a thread, warp
// or block per vertex as the schedule's balance), pull steps gather from the open vertices'
// in-edges against a bitmap of the frontier, and Beamer's rule (common/direction.hpp, the same chooser
// as the CPU's) picks one per step from the counters each step leaves. Each step writes the next
// frontier as a queue or a bitmap (the schedule's frontier format; by default a queue after push
// steps and a bitmap after pull steps), converted when the next step needs the other. Deep searches
// (road graphs: thousands of small push steps) queue up to 16 steps per host wait, as single-source
// paths do. Levels are bytes while the
// depth fits and are widened to int in place on the device beyond. The graph stays on the device
// across searches (a benchmark runs many roots on one upload). Host code compiled by nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/common/direction.hpp"
#include "gql/common/traversal_stats.hpp"
#include "gql/device.hpp"
#include "gql/device/traversal/bfs_kernels.cuh"
#include "gql/device/traversal/bfs_schedule.hpp"
#include "gql/device/traversal/frontier.hpp"

namespace gql::gpu {

using common::Direction;
using common::DirectionOptions;
using common::TraversalStats;

class DeviceBfs {
 public:
  // Uploads the structure of G and of its transpose GT (once when GT is G, as for symmetric graphs).
  // The search runs on `stream` (a kernel call's, or its own).
  template <class TG>
  DeviceBfs(const Csr<TG>& G, const Csr<TG>& GT, BfsSchedule schedule = {}, Stream stream = Stream())
      : n_(G.n_rows()), schedule_(schedule), stream_(std::move(stream)), g_(G, stream_) {
    check_shapes(G, GT);
    if (static_cast<const void*>(&GT) != static_cast<const void*>(&G)) gt_.emplace(GT, stream_);
    symmetric_ = G.derived().symmetric();
    prepare();
  }
  // Reads the structure of device graphs G and GT in place (GT may be G); both must outlive the search.
  template <class TG>
  DeviceBfs(const DeviceCsr<TG>& G, const DeviceCsr<TG>& GT, BfsSchedule schedule = {}, Stream stream = Stream())
      : n_(G.n_rows()), schedule_(schedule), stream_(std::move(stream)), g_(G) {
    check_shapes(G, GT);
    if (static_cast<const void*>(&GT) != static_cast<const void*>(&G)) gt_.emplace(GT);
    symmetric_ = G.derived().symmetric();
    prepare();
  }
  // The queues refer to the stream: a search stays where it was built.
  DeviceBfs(const DeviceBfs&) = delete;
  DeviceBfs& operator=(const DeviceBfs&) = delete;

  int64_t n_vertices() const noexcept { return n_; }
  const Stream& stream() const noexcept { return stream_; }
  // The graph's structure on the device, for checks that run there.
  device::CsrView<bool> graph() const noexcept { return g_.view(); }

  // The levels of the last search on the device: bytes (0xff unreached) while the depth fits,
  // else ints (unreached: max int); the other pointer is null.
  struct LevelsView {
    const unsigned char* narrow;
    const int* wide;
  };
  LevelsView device_levels() const noexcept {
    return wide_ ? LevelsView{nullptr, wide_levels_.data()} : LevelsView{narrow_.data(), nullptr};
  }

  // Searches from `source`; the levels stay on the device until levels() or dense_levels().
  TraversalStats run(int64_t source, const DirectionOptions& options = {}) {
    common::check_source(n_, source, "bfs");
    wide_ = false;
    queues_->start_step();
    device::traversal::bfs_start<traversal_block><<<all_vertices_grid(), traversal_block, 0, stream_.get()>>>(
        source, n_, g_.offsets(), unreachable_.data(), visited_.data(), narrow_.data(), queues_->queue(),
        queues_->counters());
    GQL_CUDA_CHECK_LAUNCH();
    StepCounters counters = queues_->read_counters();
    reached_ = static_cast<int64_t>(counters.next_size);
    return schedule_.kernel == BfsKernel::edge_centric ? run_edge_centric(counters) : run_frontier(counters, options);
  }

  // How many vertices the last search reached (the source included), counted step by step.
  int64_t reached() const noexcept { return reached_; }

  // The reached vertices and their levels, as cpu::bfs_levels returns them.
  Vector<int32_t> levels() const {
    std::vector<int32_t> dense = dense_levels();
    Array<index_t> idx;
    Array<int32_t> val;
    for (size_t v = 0; v < dense.size(); ++v)
      if (dense[v] >= 0) {
        idx.push_back(static_cast<index_t>(v));
        val.push_back(dense[v]);
      }
    return Vector<int32_t>::sparse(n_, std::move(idx), std::move(val));
  }

  // The level of every vertex, -1 where the search did not reach.
  std::vector<int32_t> dense_levels() const {
    std::vector<int32_t> out(static_cast<size_t>(n_));
    if (wide_) {
      wide_levels_.copy_to_host(std::span<int32_t>(out), stream_);
      stream_.synchronize();
      for (int32_t& level : out)
        if (level == unseen_wide) level = -1;
    } else {
      std::vector<unsigned char> bytes(static_cast<size_t>(n_));
      narrow_.copy_to_host(std::span<unsigned char>(bytes), stream_);
      stream_.synchronize();
      for (size_t v = 0; v < bytes.size(); ++v) out[v] = bytes[v] == 0xff ? -1 : static_cast<int32_t>(bytes[v]);
    }
    return out;
  }

 private:
  template <class Graph>
  static void check_shapes(const Graph& G, const Graph& GT) {
    if (G.n_rows() != G.n_cols() || GT.n_rows() != G.n_rows() || GT.n_cols() != G.n_cols() || GT.nvals() != G.nvals())
      throw Error(ErrorKind::usage, "bfs: the graph must be square and GT its transpose");
  }
  // The search's buffers and the vertices no edge reaches, once per graph.
  void prepare() {
    const size_t words = static_cast<size_t>((n_ + 31) / 32);
    visited_ = DeviceBuffer<unsigned>(std::max<size_t>(words, 1));
    unreachable_ = DeviceBuffer<unsigned>(std::max<size_t>(words, 1));
    front_ = DeviceBuffer<unsigned>(std::max<size_t>(words, 1));
    next_front_ = DeviceBuffer<unsigned>(std::max<size_t>(words, 1));
    narrow_ = DeviceBuffer<unsigned char>(static_cast<size_t>(std::max<int64_t>(n_, 1)));
    schedule_.batch_levels = std::max(schedule_.batch_levels, 1);
    batch_ = DeviceBuffer<StepCounters>(static_cast<size_t>(schedule_.batch_levels) + 1);
    batch_host_ = HostBuffer<StepCounters>(static_cast<size_t>(schedule_.batch_levels) + 1);
    queues_.emplace(n_, stream_);
    if (gt_ || symmetric_) {  // the rows of G's transpose without entries (G's own when symmetric)
      device::traversal::unreachable_vertices<traversal_block>
          <<<all_vertices_grid(), traversal_block, 0, stream_.get()>>>(gt_offsets(), n_, unreachable_.data());
    } else {
      // A push-only search of a directed graph, with no transpose: the vertices that no entry of G
      // targets.
      GQL_CUDA_CHECK(cudaMemsetAsync(unreachable_.data(), 0xff, unreachable_.bytes(), stream_.get()));
      device::traversal::clear_targets<traversal_block>
          <<<detail::grid_for(g_.nvals(), queues_->resident()), traversal_block, 0, stream_.get()>>>(
              g_.view().col_indices, g_.nvals(), unreachable_.data());
    }
    GQL_CUDA_CHECK_LAUNCH();
    if (schedule_.kernel == BfsKernel::edge_centric && g_.nvals() > 0) {
      sources_ = DeviceBuffer<index_t>(static_cast<size_t>(g_.nvals()));
      device::traversal::entry_rows<traversal_block>
          <<<detail::grid_for(n_ * 32, queues_->resident()), traversal_block, 0, stream_.get()>>>(g_.offsets(), n_,
                                                                                                  sources_.data());
      GQL_CUDA_CHECK_LAUNCH();
    }
    stream_.synchronize();
  }

  using StepCounters = device::traversal::StepCounters;
  static constexpr int traversal_block = device::traversal::traversal_block;
  static constexpr int unseen_wide = std::numeric_limits<int>::max();
  static constexpr unsigned long long batch_edge_limit = 1u << 15;  // the largest frontier a batch steps

  device::CsrView<bool> gt_view() const noexcept { return gt_ ? gt_->view() : g_.view(); }
  const offset_t* gt_offsets() const noexcept { return gt_ ? gt_->offsets() : g_.offsets(); }
  unsigned all_vertices_grid() const { return detail::grid_for(n_, queues_->resident()); }

  // Calls f(levels, depth) with the level array in use and the depth in its element type; past a
  // byte's range the levels are widened to int first.
  template <class F>
  void with_levels(int64_t depth, F&& f) {
    if (!wide_ && depth >= 0xff) {
      // Allocated by the first deep search and kept: a cudaFree per search would wait for the device.
      if (wide_levels_.empty()) wide_levels_ = DeviceBuffer<int>(static_cast<size_t>(std::max<int64_t>(n_, 1)));
      device::traversal::widen_levels<traversal_block><<<all_vertices_grid(), traversal_block, 0, stream_.get()>>>(
          narrow_.data(), n_, wide_levels_.data(), unseen_wide);
      GQL_CUDA_CHECK_LAUNCH();
      wide_ = true;
    }
    if (wide_) f(wide_levels_.data(), static_cast<int>(depth));
    else f(narrow_.data(), static_cast<unsigned char>(depth));
  }

  TraversalStats run_frontier(StepCounters counters, const DirectionOptions& options) {
    const cudaStream_t s = stream_.get();
    TraversalStats stats;
    common::DirectionChooser chooser(options);
    int64_t open_edges = g_.nvals();
    bool frontier_in_queue = true;  // else in front_
    // Beamer's rule in a batch: the chooser's alpha while it may switch to pull, else none (0).
    const double batch_alpha = options.direction == Direction::automatic ? options.alpha : 0.0;
    for (int64_t depth = 1; counters.next_size > 0; ++depth) {
      const auto size = static_cast<long long>(counters.next_size);
      const auto edges = static_cast<long long>(counters.next_out_edges);
      const bool pull = chooser.pull(edges, open_edges, size, n_);
      stats.searched_edges += edges;  // the frontier's out-edges: each reached vertex is in one frontier
      const bool to_queue = schedule_.frontier == FrontierFormat::sparse ||
                            (schedule_.frontier == FrontierFormat::automatic && !pull);
      // Small push steps of a deep search in a batch: past its first batch_levels steps (a shallow
      // search, such as a Kronecker graph's, has a few small steps that batches would not pay for),
      // and not across the byte levels' last depth (where they widen).
      if (!pull && to_queue && frontier_in_queue && schedule_.batch_levels > 1 && depth > schedule_.batch_levels &&
          counters.next_out_edges <= batch_edge_limit && (wide_ || depth + schedule_.batch_levels <= 0xff)) {
        const int ran = run_batch(counters, depth, open_edges, batch_alpha, stats);
        if (ran > 0) {
          depth += ran - 1;
          continue;
        }
      }
      queues_->start_step();
      if (pull) {
        if (frontier_in_queue) {
          GQL_CUDA_CHECK(cudaMemsetAsync(front_.data(), 0, front_.bytes(), s));
          device::traversal::queue_to_bitmap<traversal_block>
              <<<detail::grid_for(size, queues_->resident()), traversal_block, 0, s>>>(queues_->queue(), size,
                                                                                       front_.data());
          GQL_CUDA_CHECK_LAUNCH();
        }
        with_levels(depth, [&](auto* level, auto d) {
          const auto pull_step =
              to_queue ? device::traversal::bfs_pull<traversal_block, true, std::remove_pointer_t<decltype(level)>>
                       : device::traversal::bfs_pull<traversal_block, false, std::remove_pointer_t<decltype(level)>>;
          pull_step<<<detail::grid_for(n_, queues_->resident()), traversal_block, 0, s>>>(
              gt_view(), g_.offsets(), front_.data(), next_front_.data(), queues_->next(), visited_.data(), level, d,
              queues_->counters());
          GQL_CUDA_CHECK_LAUNCH();
        });
        ++stats.pull_steps;
      } else {
        if (!frontier_in_queue) {
          device::traversal::bitmap_to_queue<traversal_block><<<all_vertices_grid(), traversal_block, 0, s>>>(
              front_.data(), n_, queues_->queue(), &queues_->scratch_counters()->next_size);
          GQL_CUDA_CHECK_LAUNCH();
        }
        if (!to_queue) GQL_CUDA_CHECK(cudaMemsetAsync(next_front_.data(), 0, next_front_.bytes(), s));
        if (edges > 0) {
          const auto push = queues_->prepare_push(schedule_.balance, g_.offsets(), size, edges);
          with_levels(depth, [&](auto* level, auto d) {
            using L = std::remove_pointer_t<decltype(level)>;
            detail::with_balance(schedule_.balance, [&](auto balance) {
              const auto push_step =
                  to_queue ? device::traversal::bfs_push<traversal_block, decltype(balance)::value, false, L>
                           : device::traversal::bfs_push<traversal_block, decltype(balance)::value, true, L>;
              push_step<<<push.grid, traversal_block, 0, s>>>(g_.view(), gt_offsets(), queues_->queue(), push.scan,
                                                              size, edges, visited_.data(), level, d, queues_->next(),
                                                              next_front_.data(), queues_->counters());
              GQL_CUDA_CHECK_LAUNCH();
            });
          });
        }
      }
      // The step wrote the next frontier to the other queue or to next_front_.
      if (to_queue) queues_->swap_queues();
      else std::swap(front_, next_front_);
      frontier_in_queue = to_queue;
      counters = queues_->read_counters();
      reached_ += static_cast<int64_t>(counters.next_size);
      open_edges -= static_cast<int64_t>(counters.next_in_edges);
      stats.edges_examined += pull ? static_cast<int64_t>(counters.examined) : edges;
      ++stats.levels;
    }
    return stats;
  }

  // Up to batch_levels push steps queued at once from depth on (counters: the frontier entering
  // them); the chooser's rule is applied on the device with alpha (0: never pull). Leaves in
  // `counters` those of the last step that ran, updates open_edges and stats, and returns how many
  // steps ran.
  int run_batch(StepCounters& counters, int64_t depth, int64_t& open_edges, double alpha, TraversalStats& stats) {
    const cudaStream_t s = stream_.get();
    const int steps = schedule_.batch_levels;
    batch_host_[0] = counters;
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_.data(), batch_host_.data(), sizeof(StepCounters), cudaMemcpyHostToDevice, s));
    GQL_CUDA_CHECK(cudaMemsetAsync(batch_.data() + 1, 0, static_cast<size_t>(steps) * sizeof(StepCounters), s));
    const unsigned grid = detail::grid_for(static_cast<long long>(batch_edge_limit), queues_->resident());
    for (int j = 1; j <= steps; ++j) {
      with_levels(depth + j - 1, [&](auto* level, auto d) {
        device::traversal::bfs_push_batched<traversal_block><<<grid, traversal_block, 0, s>>>(
            g_.view(), gt_offsets(), queues_->queue(), batch_.data(), j, batch_edge_limit,
            static_cast<long long>(open_edges), alpha, visited_.data(), level, d, queues_->next());
        GQL_CUDA_CHECK_LAUNCH();
      });
      queues_->swap_queues();
    }
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_host_.data() + 1, batch_.data() + 1, static_cast<size_t>(steps) * sizeof(StepCounters),
                                   cudaMemcpyDeviceToHost, s));
    stream_.synchronize();
    int ran = 0;
    while (ran < steps && batch_host_[static_cast<size_t>(ran) + 1].stopped == 0) ++ran;
    // Steps that did not run swapped the queues all the same: undo them (two buffers: parity).
    if ((steps - ran) % 2 == 1) queues_->swap_queues();
    for (int j = 1; j <= ran; ++j) {
      const StepCounters& entering = batch_host_[static_cast<size_t>(j) - 1];
      if (entering.next_size == 0) continue;  // steps after the frontier emptied did nothing
      ++stats.levels;
      reached_ += static_cast<int64_t>(batch_host_[static_cast<size_t>(j)].next_size);
      stats.edges_examined += static_cast<int64_t>(entering.next_out_edges);
      stats.searched_edges += static_cast<int64_t>(entering.next_out_edges);
      open_edges -= static_cast<int64_t>(batch_host_[static_cast<size_t>(j)].next_in_edges);
    }
    counters = batch_host_[static_cast<size_t>(ran)];
    return ran;
  }

  TraversalStats run_edge_centric(StepCounters counters) {
    TraversalStats stats;
    for (int64_t depth = 1; counters.next_size > 0; ++depth) {
      stats.searched_edges += static_cast<int64_t>(counters.next_out_edges);
      queues_->start_step();
      if (g_.nvals() > 0) {
        with_levels(depth, [&](auto* level, auto d) {
          device::traversal::bfs_edge_centric<traversal_block>
              <<<detail::grid_for(g_.nvals(), queues_->resident()), traversal_block, 0, stream_.get()>>>(
                  sources_.data(), g_.view(), gt_offsets(), g_.nvals(), visited_.data(), level, d, queues_->counters());
          GQL_CUDA_CHECK_LAUNCH();
        });
      }
      counters = queues_->read_counters();
      reached_ += static_cast<int64_t>(counters.next_size);
      stats.edges_examined += g_.nvals();
      ++stats.levels;
    }
    return stats;
  }

  int64_t n_;
  BfsSchedule schedule_;
  Stream stream_;
  detail::DeviceStructure g_;
  std::optional<detail::DeviceStructure> gt_;  // absent when GT is G
  bool symmetric_ = false;                      // G is marked symmetric: its rows are its transpose's
  DeviceBuffer<unsigned> visited_, front_, next_front_;
  DeviceBuffer<unsigned> unreachable_;  // vertices without in-edges: visited from the start
  DeviceBuffer<unsigned char> narrow_;
  DeviceBuffer<int> wide_levels_;
  bool wide_ = false;
  int64_t reached_ = 0;
  DeviceBuffer<index_t> sources_;  // the edge-centric schedule's row of every entry
  DeviceBuffer<StepCounters> batch_;   // a batch's counters: the frontier entering it, then each step's
  HostBuffer<StepCounters> batch_host_;
  std::optional<detail::FrontierQueues> queues_;
};

}  // namespace gql::gpu
