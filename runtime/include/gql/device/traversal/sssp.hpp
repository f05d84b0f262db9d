// Single-source paths on the device over a selective semiring S (min_plus, max_min, ...):
// Bellman-Ford with a frontier, as cpu::single_source_paths computes it. Each round relaxes the
// out-edges of the vertices that improved in the round before (edge-balanced while the frontier is
// large; small frontiers run in batches of rounds queued at once, a thread per vertex, the host
// reading their counters once per batch), with an atomic agg
// per candidate (native min/max on integers and on non-negative floats, a compare-and-swap on S::agg
// otherwise). SsspSchedule{PathsKernel::delta_stepping} relaxes only the improved vertices below a
// threshold each round (near-far delta-stepping, for min semirings), the rest waiting until the
// threshold passes them. The fixpoint is the same whatever the order of the relaxations, so the
// values equal the CPU's bit for bit. The graph stays on the device across searches. Host code; it
// launches through a kernel table (sssp_kernel_table.hpp), so it compiles with nvcc (the kernel
// templates instantiated here) or a host compiler (the JIT's, with the kernels NVRTC built).
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/common/traversal_stats.hpp"
#include "gql/device.hpp"
#include "gql/device/traversal/frontier.hpp"
#include "gql/device/traversal/paths_result.hpp"
#include "gql/device/traversal/sssp_kernel_table.hpp"
#include "gql/device/traversal/sssp_schedule.hpp"

#if defined(__CUDACC__)
#include "gql/device/traversal/sssp_instances.hpp"
#else
#include "gql/device/jit_kernels.hpp"
#endif

namespace gql::gpu {

using common::TraversalStats;

namespace detail {

// The kernels of paths over the semiring S and graphs of TG: the templates instantiated here (nvcc),
// or those the JIT bound from NVRTC's build (a host compiler).
template <class S, class TG>
const PathsKernelTable<typename S::value_type, TG>& paths_kernel_table() {
#if defined(__CUDACC__)
  static const PathsKernelTable<typename S::value_type, TG> table = paths_kernels<S, TG>();
  return table;
#else
  return registered_paths_kernels<S, TG>();
#endif
}

}  // namespace detail

template <class S, class TG>
class DevicePaths {
 public:
  using V = typename S::value_type;
  static_assert(!std::is_same_v<V, bool>, "single_source_paths: use bfs_levels for reachability");

  // Delta-stepping orders the relaxations by value: it needs a min over numbers (elsewhere the
  // schedule runs Bellman-Ford).
  static constexpr bool delta_applies =
      S::monoid == Monoid::min && std::is_arithmetic_v<V> && !std::is_same_v<V, bool>;

  // Uploads G (its values only when S reads them); the search runs on `stream`.
  explicit DevicePaths(const Csr<TG>& G, const SsspSchedule& schedule = {}, Stream stream = Stream())
      : n_(G.n_rows()), stream_(std::move(stream)), g_(G, stream_) {
    if constexpr (S::reads_values && stores_values<TG>) {
      weights_ = DeviceBuffer<storage_t<TG>>(static_cast<size_t>(std::max<int64_t>(G.nvals(), 1)));
      if (G.nvals() > 0) weights_.copy_from_host(G.values(), stream_);
      weights_in_use_ = weights_.data();
    }
    set_up(G.n_cols(), schedule);
  }
  // Reads G where it is on the device (G outlives the search); the search runs on `stream`.
  explicit DevicePaths(const DeviceCsr<TG>& G, const SsspSchedule& schedule = {}, Stream stream = Stream())
      : n_(G.n_rows()), stream_(std::move(stream)), g_(G) {
    if constexpr (S::reads_values && stores_values<TG>) weights_in_use_ = G.values().data();
    set_up(G.n_cols(), schedule);
  }
  DevicePaths(const DevicePaths&) = delete;
  DevicePaths& operator=(const DevicePaths&) = delete;

  // Paths from `source`, which holds `source_value`; the values stay on the device until values().
  // Throws Error(usage) when values still improve after n rounds (a cycle that improves every path
  // through it, e.g. a negative cycle under min_plus).
  TraversalStats run(int64_t source, V source_value) {
    common::check_source(n_, source, "single_source_paths");
    launch(kernels_.init, detail::grid_for(n_, queues_->resident()), traversal_block, 0, stream_,
           value_.data(), stamp_.data(), reached_.data(), n_);
    queues_->start_step();
    launch(kernels_.start, 1, 1, 0, stream_, source, source_value, g_.offsets(), value_.data(), reached_.data(),
           queues_->queue(), queues_->counters());
    StepCounters counters = queues_->read_counters();
    TraversalStats stats;
    int round = 0;  // rounds run so far (the stamp of the next is round + 1)
    if (delta_stepping_) return run_delta_stepping(counters, source, source_value, round);
    while (counters.next_size > 0) {
      if (stats.levels > n_)
        throw Error(ErrorKind::usage, "single_source_paths: values keep improving after n rounds (a cycle improves "
                                      "every path through it)");
      if (counters.next_out_edges <= batch_edge_limit) {
        counters = run_batch(counters, source, round, stats);
        continue;
      }
      counters = relax_round(counters, source, round, stats);
    }
    return stats;
  }

  // Whether the values are those of the relaxation loop the search stands for: no weight is negative
  // or NaN (the loop's fixpoint is then the search's), and every out-neighbour of a reached vertex
  // is reached (the loop writes an entry for it even when its every path sums to S::zero()).
  bool reproduces_the_loop() const {
    return weights_non_negative_ &&
           every_out_neighbour_reached(g_.offsets(), g_.view().col_indices, n_, reached_.data(), stream_);
  }

  // The reached vertices and their values, left on the device.
  DeviceVector<V> device_values() const { return reached_values<V>(value_.data(), reached_.data(), n_, stream_); }

  const Stream& stream() const noexcept { return stream_; }

  // The reached vertices and their values, as cpu::single_source_paths returns them.
  Vector<V> values() const {
    std::vector<V> value(static_cast<size_t>(n_));
    std::vector<unsigned char> reached(static_cast<size_t>(n_));
    if (n_ > 0) {
      value_.copy_to_host(std::span<V>(value), stream_);
      reached_.copy_to_host(std::span<unsigned char>(reached), stream_);
    }
    stream_.synchronize();
    Array<index_t> idx;
    Array<storage_t<V>> val;
    for (size_t v = 0; v < value.size(); ++v)
      if (reached[v]) {
        idx.push_back(static_cast<index_t>(v));
        val.push_back(value[v]);
      }
    return Vector<V>::sparse(n_, std::move(idx), std::move(val));
  }

 private:
  using StepCounters = device::traversal::StepCounters;
  static constexpr int traversal_block = device::traversal::traversal_block;

  // The weights' summary (on the device), delta-stepping's buckets and the search's state.
  void set_up(int64_t n_cols, const SsspSchedule& schedule) {
    if (n_cols != n_) throw Error(ErrorKind::usage, "single_source_paths: the graph must be square");
    balance_ = schedule.balance;
    delta_stepping_ = delta_applies && schedule.kernel == PathsKernel::delta_stepping;
    const int64_t nvals = g_.nvals();
    WeightSummary weights{static_cast<double>(nvals), true};  // pattern entries weigh 1
    if constexpr (S::reads_values && stores_values<TG>) weights = summarize_weights(weights_in_use_, nvals, stream_);
    weights_non_negative_ = weights.non_negative;
    const size_t n = static_cast<size_t>(std::max<int64_t>(n_, 1));
    if (delta_stepping_) {
      double delta = schedule.delta;
      if (delta <= 0 && nvals > 0) {
        const double mean_weight = weights.sum / static_cast<double>(nvals);
        const double mean_degree = static_cast<double>(nvals) / static_cast<double>(n_);
        delta = 32.0 * mean_weight / mean_degree;
      }
      if (!(delta > 0)) delta = 1;
      if constexpr (std::is_integral_v<V>) delta = std::ceil(delta);
      delta_ = static_cast<V>(delta);
      far_ = DeviceBuffer<index_t>(n);
      far_out_ = DeviceBuffer<index_t>(n);
      in_far_ = DeviceBuffer<unsigned char>(n);
      least_ = DeviceBuffer<V>((sizeof(V) + 3) / 4 * 4 / sizeof(V));  // a whole word for the CAS on small values
    }
    // Whole 32-bit words: a CAS on a 1- or 2-byte value works on the aligned word around it.
    value_ = DeviceBuffer<V>((n * sizeof(V) + 3) / 4 * 4 / sizeof(V));
    stamp_ = DeviceBuffer<int>(n);
    reached_ = DeviceBuffer<unsigned char>(n);
    queues_.emplace(n_, stream_);
    stream_.synchronize();
  }

  device::CsrView<TG> view() const noexcept {
    const device::CsrView<bool> structure = g_.view();
    return {structure.n_rows, structure.n_cols, structure.row_offsets, structure.col_indices, weights_in_use_};
  }

  // Up to batch_rounds rounds queued at once while the frontier has at most batch_edge_limit edges
  // (road graphs run thousands of small rounds: one host wait per batch, not per round). Returns
  // the counters of the last round that ran.
  StepCounters run_batch(const StepCounters& counters, int64_t source, int& round, TraversalStats& stats) {
    const cudaStream_t s = stream_.get();
    batch_host_[0] = counters;
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_.data(), batch_host_.data(), sizeof(StepCounters),
                                   cudaMemcpyHostToDevice, s));
    GQL_CUDA_CHECK(cudaMemsetAsync(batch_.data() + 1, 0, batch_rounds * sizeof(StepCounters), s));
    const unsigned grid = detail::grid_for(static_cast<long long>(batch_edge_limit), queues_->resident());
    for (int j = 1; j <= batch_rounds; ++j) {
      launch(kernels_.relax_batched, grid, traversal_block, 0, stream_, view(), source, queues_->queue(),
             batch_.data() + j - 1, batch_edge_limit, value_.data(), reached_.data(), stamp_.data(), round + j,
             queues_->next(), batch_.data() + j);
      queues_->swap_queues();
    }
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_host_.data() + 1, batch_.data() + 1,
                                   batch_rounds * sizeof(StepCounters), cudaMemcpyDeviceToHost, s));
    stream_.synchronize();
    int ran = 0;
    while (ran < batch_rounds && batch_host_[static_cast<size_t>(ran) + 1].stopped == 0) ++ran;
    // Rounds that did not run swapped the queues all the same: undo them (two buffers: parity).
    if ((batch_rounds - ran) % 2 == 1) queues_->swap_queues();
    for (int j = 1; j <= ran; ++j)
      if (batch_host_[static_cast<size_t>(j) - 1].next_size > 0) {  // rounds after the frontier emptied did nothing
        ++stats.levels;
        stats.edges_examined += static_cast<int64_t>(batch_host_[static_cast<size_t>(j)].examined);
      }
    round += ran;
    return batch_host_[static_cast<size_t>(ran)];
  }

  // One round over the queue (counters: its size and edges), mapped to threads by the schedule's
  // balance; the improved vertices become the queue. Returns the round's counters.
  StepCounters relax_round(const StepCounters& counters, int64_t source, int& round, TraversalStats& stats) {
    const auto size = static_cast<long long>(counters.next_size);
    const auto edges = static_cast<long long>(counters.next_out_edges);
    queues_->start_step();
    if (edges > 0) {
      const auto push = queues_->prepare_push(balance_, g_.offsets(), size, edges);
      ++round;
      launch(kernels_.relax[static_cast<size_t>(balance_)], push.grid, traversal_block, 0, stream_, view(),
             source, queues_->queue(), push.scan, size, edges, value_.data(), reached_.data(), stamp_.data(), round,
             queues_->next(), queues_->counters());
    }
    queues_->swap_queues();
    stats.edges_examined += edges;
    ++stats.levels;
    return queues_->read_counters();
  }

  // Delta-stepping with a near queue and a far pile: rounds relax the near vertices only; improved
  // vertices at or above the threshold wait in the far pile until the near ones run out, then the
  // threshold moves to the least far value + delta. Every improvement is still relaxed, so the
  // values are Bellman-Ford's fixpoint. More than n rounds below one threshold: a cycle that
  // improves every path through it.
  TraversalStats run_delta_stepping(StepCounters counters, int64_t source, V source_value, int& round) {
    const cudaStream_t s = stream_.get();
    TraversalStats stats;
    GQL_CUDA_CHECK(cudaMemsetAsync(in_far_.data(), 0, in_far_.bytes(), s));
    unsigned long long far_count = 0;
    V threshold = static_cast<V>(source_value + delta_);
    int64_t rounds_below_threshold = 0;
    for (;;) {
      while (counters.next_size > 0) {
        if (++rounds_below_threshold > n_ + 1)
          throw Error(ErrorKind::usage, "single_source_paths: values keep improving after n rounds (a cycle "
                                        "improves every path through it)");
        const StepCounters relaxed = relax_round(counters, source, round, stats);
        queues_->start_step();
        far_host_[0] = far_count;
        GQL_CUDA_CHECK(cudaMemcpyAsync(far_size_.data(), far_host_.data(), sizeof(unsigned long long),
                                       cudaMemcpyHostToDevice, s));
        if (relaxed.next_size > 0) {
          const auto size = static_cast<long long>(relaxed.next_size);
          launch(kernels_.split_near_far, detail::grid_for(size, queues_->resident()), traversal_block, 0,
                 stream_, g_.offsets(), queues_->queue(), size, value_.data(), threshold, queues_->next(),
                 queues_->counters(), far_.data(), far_size_.data(), in_far_.data());
        }
        queues_->swap_queues();
        counters = read_with_far_size(far_count);
      }
      if (far_count == 0) return stats;
      // The next threshold: the least waiting value + delta.
      least_host_[0] = S::zero();
      GQL_CUDA_CHECK(cudaMemcpyAsync(least_.data(), least_host_.data(), sizeof(V), cudaMemcpyHostToDevice, s));
      const auto waiting = static_cast<long long>(far_count);
      launch(kernels_.far_least, detail::grid_for(waiting, queues_->resident()), traversal_block, 0, stream_,
             far_.data(), waiting, value_.data(), least_.data());
      GQL_CUDA_CHECK(cudaMemcpyAsync(least_host_.data(), least_.data(), sizeof(V), cudaMemcpyDeviceToHost, s));
      stream_.synchronize();
      const V least = least_host_[0];
      threshold = static_cast<V>(least + delta_);
      if (!(least < threshold)) {  // delta lost to rounding at this magnitude: the next value above
        if constexpr (std::is_floating_point_v<V>)
          threshold = std::nextafter(least, std::numeric_limits<V>::infinity());
        else
          threshold = static_cast<V>(least + 1);
      }
      rounds_below_threshold = 0;
      queues_->start_step();
      far_host_[0] = 0;
      GQL_CUDA_CHECK(cudaMemcpyAsync(far_size_.data(), far_host_.data(), sizeof(unsigned long long),
                                     cudaMemcpyHostToDevice, s));
      launch(kernels_.refill_near, detail::grid_for(waiting, queues_->resident()), traversal_block, 0,
             stream_, g_.offsets(), far_.data(), waiting, value_.data(), threshold, queues_->queue(),
             queues_->counters(), far_out_.data(), far_size_.data(), in_far_.data());
      std::swap(far_, far_out_);
      counters = read_with_far_size(far_count);  // the least waiting vertex at least is near now
    }
  }

  // The step counters and the far pile's size (one wait).
  StepCounters read_with_far_size(unsigned long long& far_count) {
    GQL_CUDA_CHECK(cudaMemcpyAsync(far_host_.data(), far_size_.data(), sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost, stream_.get()));
    const StepCounters counters = queues_->read_counters();
    far_count = far_host_[0];
    return counters;
  }

  static constexpr int batch_rounds = 16;
  static constexpr unsigned long long batch_edge_limit = 1u << 15;

  const PathsKernelTable<V, TG>& kernels_ = detail::paths_kernel_table<S, TG>();
  int64_t n_;
  Stream stream_;
  detail::DeviceStructure g_;
  DeviceBuffer<storage_t<TG>> weights_;             // an uploaded graph's weights
  const storage_t<TG>* weights_in_use_ = nullptr;   // those or the device graph's; null when S reads none
  bool weights_non_negative_ = true;
  DeviceBuffer<V> value_;
  DeviceBuffer<int> stamp_;
  DeviceBuffer<unsigned char> reached_;
  std::optional<detail::FrontierQueues> queues_;
  LoadBalance balance_ = LoadBalance::edge;
  DeviceBuffer<StepCounters> batch_{batch_rounds + 1};
  HostBuffer<StepCounters> batch_host_{batch_rounds + 1};
  // Delta-stepping (unused by Bellman-Ford): the bucket width, the far pile and its next version, a
  // flag per vertex in it, its size and least value.
  bool delta_stepping_ = false;
  V delta_{};
  DeviceBuffer<index_t> far_, far_out_;
  DeviceBuffer<unsigned char> in_far_;
  DeviceBuffer<V> least_;
  DeviceBuffer<unsigned long long> far_size_{1};
  HostBuffer<unsigned long long> far_host_{1};
  HostBuffer<V> least_host_{1};
};

}  // namespace gql::gpu
