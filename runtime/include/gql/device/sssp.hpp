// Single-source paths on the device over a selective semiring S (min_plus, max_min, ...):
// Bellman-Ford with a frontier, as cpu::single_source_paths computes it. Each round relaxes the
// out-edges of the vertices that improved in the round before (edge-balanced while the frontier is
// large; small frontiers run in batches of rounds queued at once, a thread per vertex, the host
// reading their counters once per batch), with an atomic agg
// per candidate (native min/max on integers and on non-negative floats, a compare-and-swap on S::agg
// otherwise). The fixpoint is the same whatever the order of the relaxations, so the values equal
// the CPU's bit for bit. The graph stays on the device across searches. Host code compiled by nvcc.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/cpu/traversal.hpp"
#include "gql/device.hpp"
#include "gql/device/frontier.hpp"
#include "gql/device/sssp_kernels.cuh"

namespace gql::gpu {

template <class S, class TG>
class DevicePaths {
 public:
  using V = typename S::value_type;
  static_assert(!std::is_same_v<V, bool>, "single_source_paths: use bfs_levels for reachability");

  // Uploads G (its values only when S reads them).
  explicit DevicePaths(const Csr<TG>& G) : n_(G.n_rows()), g_(G, stream_) {
    if (G.n_cols() != n_) throw Error(ErrorKind::usage, "single_source_paths: the graph must be square");
    if constexpr (S::reads_values && stores_values<TG>) {
      weights_ = DeviceBuffer<storage_t<TG>>(static_cast<size_t>(std::max<int64_t>(G.nvals(), 1)));
      if (G.nvals() > 0) weights_.copy_from_host(G.values(), stream_);
    }
    const size_t n = static_cast<size_t>(std::max<int64_t>(n_, 1));
    // Whole 32-bit words: a CAS on a 1- or 2-byte value works on the aligned word around it.
    value_ = DeviceBuffer<V>((n * sizeof(V) + 3) / 4 * 4 / sizeof(V));
    stamp_ = DeviceBuffer<int>(n);
    reached_ = DeviceBuffer<unsigned char>(n);
    queues_.emplace(n_, stream_);
    stream_.synchronize();
  }
  DevicePaths(const DevicePaths&) = delete;
  DevicePaths& operator=(const DevicePaths&) = delete;

  // Paths from `source`, which holds `source_value`; the values stay on the device until values().
  // Throws Error(usage) when values still improve after n rounds (a cycle that improves every path
  // through it, e.g. a negative cycle under min_plus).
  TraversalStats run(int64_t source, V source_value) {
    cpu::detail::check_source(n_, source, "single_source_paths");
    const cudaStream_t s = stream_.get();
    device::paths_init<device::traversal_block, S><<<detail::grid_for(n_, queues_->resident()),
                                                     device::traversal_block, 0, s>>>(value_.data(), stamp_.data(),
                                                                                      reached_.data(), n_);
    GQL_CUDA_CHECK_LAUNCH();
    queues_->clear_counters();
    device::paths_start<V><<<1, 1, 0, s>>>(source, source_value, g_.offsets(), value_.data(), reached_.data(),
                                           queues_->queue(), queues_->counters());
    GQL_CUDA_CHECK_LAUNCH();
    device::StepCounters counters = queues_->read_counters();
    TraversalStats stats;
    int round = 0;  // rounds run so far (the stamp of the next is round + 1)
    while (counters.next_size > 0) {
      if (stats.levels > n_)
        throw Error(ErrorKind::usage, "single_source_paths: values keep improving after n rounds (a cycle improves "
                                      "every path through it)");
      if (counters.next_out_edges <= batch_edge_limit) {
        counters = run_batch(counters, source, round, stats);
        continue;
      }
      const auto size = static_cast<long long>(counters.next_size);
      const auto edges = static_cast<long long>(counters.next_out_edges);
      queues_->clear_counters();
      queues_->scan_degrees(g_.offsets(), size);
      const long long tiles = (edges + device::traversal_tile - 1) / device::traversal_tile;
      device::paths_relax<device::traversal_block, S, TG>
          <<<static_cast<unsigned>(std::min(tiles, queues_->resident())), device::traversal_block, 0, s>>>(
              view(), source, queues_->queue(), queues_->scan(), size, edges, value_.data(), reached_.data(),
              stamp_.data(), ++round, queues_->next(), queues_->counters());
      GQL_CUDA_CHECK_LAUNCH();
      queues_->swap_queues();
      counters = queues_->read_counters();
      stats.edges_examined += edges;
      ++stats.levels;
    }
    return stats;
  }

  // The reached vertices and their values, as cpu::single_source_paths returns them.
  Vector<V> values() const {
    std::vector<V> value(static_cast<size_t>(n_));
    std::vector<unsigned char> reached(static_cast<size_t>(n_));
    if (n_ > 0) {
      value_.copy_to_host(std::span<V>(value), stream_);
      reached_.copy_to_host(std::span<unsigned char>(reached), stream_);
    }
    stream_.synchronize();
    std::vector<index_t> idx;
    std::vector<storage_t<V>> val;
    for (size_t v = 0; v < value.size(); ++v)
      if (reached[v]) {
        idx.push_back(static_cast<index_t>(v));
        val.push_back(value[v]);
      }
    return Vector<V>::sparse(n_, std::move(idx), std::move(val));
  }

 private:
  device::CsrView<TG> view() const noexcept {
    const device::CsrView<bool> structure = g_.view();
    return {structure.n_rows, structure.n_cols, structure.row_offsets, structure.col_indices,
            S::reads_values && stores_values<TG> ? weights_.data() : nullptr};
  }

  // Up to batch_rounds rounds queued at once while the frontier has at most batch_edge_limit edges
  // (road graphs run thousands of small rounds: one host wait per batch, not per round). Returns
  // the counters of the last round that ran.
  device::StepCounters run_batch(const device::StepCounters& counters, int64_t source, int& round,
                                 TraversalStats& stats) {
    const cudaStream_t s = stream_.get();
    batch_host_[0] = counters;
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_.data(), batch_host_.data(), sizeof(device::StepCounters),
                                   cudaMemcpyHostToDevice, s));
    GQL_CUDA_CHECK(cudaMemsetAsync(batch_.data() + 1, 0, batch_rounds * sizeof(device::StepCounters), s));
    const unsigned grid = detail::grid_for(static_cast<long long>(batch_edge_limit), queues_->resident());
    for (int j = 1; j <= batch_rounds; ++j) {
      device::paths_relax_batched<device::traversal_block, S, TG><<<grid, device::traversal_block, 0, s>>>(
          view(), source, queues_->queue(), batch_.data() + j - 1, batch_edge_limit, value_.data(), reached_.data(),
          stamp_.data(), round + j, queues_->next(), batch_.data() + j);
      GQL_CUDA_CHECK_LAUNCH();
      queues_->swap_queues();
    }
    GQL_CUDA_CHECK(cudaMemcpyAsync(batch_host_.data() + 1, batch_.data() + 1,
                                   batch_rounds * sizeof(device::StepCounters), cudaMemcpyDeviceToHost, s));
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

  static constexpr int batch_rounds = 16;
  static constexpr unsigned long long batch_edge_limit = 1u << 15;

  int64_t n_;
  Stream stream_;
  detail::DeviceStructure g_;
  DeviceBuffer<storage_t<TG>> weights_;
  DeviceBuffer<V> value_;
  DeviceBuffer<int> stamp_;
  DeviceBuffer<unsigned char> reached_;
  std::optional<detail::FrontierQueues> queues_;
  DeviceBuffer<device::StepCounters> batch_{batch_rounds + 1};
  HostBuffer<device::StepCounters> batch_host_{batch_rounds + 1};
};

}  // namespace gql::gpu
