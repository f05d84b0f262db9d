// Host side of the device frontiers that BFS, single-source paths and vxm share: the graph's
// structure on the device, the two queues (this step's and the next), the grid of a push step under
// each LoadBalance (with the scan of the queue's degrees that splits its edges into equal tiles for
// the edge-balanced one), and the step counters, read once per step through pinned memory (the
// host's only wait in a step). Host code; compiles with nvcc or a host compiler (the scan of a
// queue's degrees is the runtime library's, runtime/src/cuda/frontier_scan.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/traversal/load_balance.cuh"
#include "gql/device/traversal/step_counters.cuh"

namespace gql::gpu {

using gql::LoadBalance;

// The name a schedule gives a load balance (--explain, benchmark records).
inline const char* to_string(LoadBalance balance) { return balance_name(balance); }

}  // namespace gql::gpu

namespace gql::gpu::detail {

using device::traversal::StepCounters;
using device::traversal::traversal_block;

// Blocks that the device runs at once with traversal_block threads each: the cap of every
// grid-stride launch (more blocks only queue up).
inline long long resident_blocks() {
  int device_id = 0, sms = 0;
  GQL_CUDA_CHECK(cudaGetDevice(&device_id));
  GQL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device_id));
  return static_cast<long long>(sms) * (2048 / traversal_block);
}

// Blocks for `threads` threads of work, at least one, at most `cap`.
inline unsigned grid_for(long long threads, long long cap) {
  return static_cast<unsigned>(std::clamp<long long>((threads + traversal_block - 1) / traversal_block, 1, cap));
}

// Calls f(std::integral_constant<LoadBalance, b>{}) for every balance b (a table of kernels for each).
template <class F>
void for_each_balance(F&& f) {
  [&]<int... B>(std::integer_sequence<int, B...>) {
    (f(std::integral_constant<LoadBalance, static_cast<LoadBalance>(B)>{}), ...);
  }(std::make_integer_sequence<int, load_balance_count>{});
}

// Calls f(std::integral_constant<LoadBalance, balance>{}): a kernel template instantiated for the
// balance chosen at run time.
template <class F>
void with_balance(LoadBalance balance, F&& f) {
  for_each_balance([&](auto b) {
    if (b.value == balance) f(b);
  });
}

// The scratch bytes scan_queue_degrees needs for queues of up to `n` vertices.
size_t queue_scan_bytes(int64_t n, cudaStream_t stream);
// scan[i] = the sum of the degrees (under `offsets`) of queue[0..i), degrees[i] = queue[i]'s degree,
// on `stream`, in at most `blocks` blocks.
void scan_queue_degrees(const offset_t* offsets, const index_t* queue, long long queue_size, long long* degrees,
                        long long* scan, unsigned char* scratch, size_t scratch_bytes, unsigned blocks,
                        cudaStream_t stream);

// A graph's structure (row offsets and column indices) on the device; values stay on the host.
// Uploaded from a host graph, or read in place from a device graph that outlives it.
class DeviceStructure {
 public:
  template <class T>
  DeviceStructure(const Csr<T>& g, const Stream& stream)
      : n_rows_(g.n_rows()),
        n_cols_(g.n_cols()),
        nvals_(g.nvals()),
        owned_offsets_(static_cast<size_t>(g.n_rows()) + 1),
        owned_columns_(static_cast<size_t>(g.nvals())),
        offsets_(owned_offsets_.data()),
        columns_(owned_columns_.data()) {
    owned_offsets_.copy_from_host(g.row_offsets(), stream);
    if (nvals_ > 0) owned_columns_.copy_from_host(g.col_indices(), stream);
  }
  template <class T>
  explicit DeviceStructure(const DeviceCsr<T>& g)
      : n_rows_(g.n_rows()),
        n_cols_(g.n_cols()),
        nvals_(g.nvals()),
        offsets_(g.row_offsets().data()),
        columns_(g.col_indices().data()) {}
  int64_t nvals() const noexcept { return nvals_; }
  const offset_t* offsets() const noexcept { return offsets_; }
  device::CsrView<bool> view() const noexcept { return {n_rows_, n_cols_, offsets_, columns_, nullptr}; }

 private:
  int64_t n_rows_, n_cols_, nvals_;
  DeviceBuffer<offset_t> owned_offsets_;  // empty when the structure is read in place
  DeviceBuffer<index_t> owned_columns_;
  const offset_t* offsets_;
  const index_t* columns_;
};

// The queues of a frontier traversal over n vertices and the counters of its steps.
class FrontierQueues {
 public:
  FrontierQueues(int64_t n, const Stream& stream)
      : stream_(stream),
        queue_(static_cast<size_t>(std::max<int64_t>(n, 1))),
        next_(static_cast<size_t>(std::max<int64_t>(n, 1))),
        counters_(2 * counter_window),
        host_counters_(1),
        host_edges_(2),
        resident_(resident_blocks()) {}

  index_t* queue() noexcept { return queue_.data(); }
  index_t* next() noexcept { return next_.data(); }
  const long long* scan() const noexcept { return scan_.data(); }
  // The counters the current step adds to (zero when it starts).
  StepCounters* counters() noexcept { return counters_.data() + 2 * slot_; }
  // A second counter set for conversions inside a step (its next_size counts queued vertices).
  StepCounters* scratch_counters() noexcept { return counters() + 1; }
  long long resident() const noexcept { return resident_; }
  void swap_queues() noexcept { std::swap(queue_, next_); }

  // scan()[i] = the sum of the degrees (under `offsets`) of queue()[0..i).
  void scan_degrees(const offset_t* offsets, long long queue_size) {
    if (scan_.empty()) make_scan_buffers();
    scan_queue_degrees(offsets, queue_.data(), queue_size, degrees_.data(), scan_.data(), scan_temp_.data(),
                       scan_temp_.size(), grid_for(queue_size, resident_), stream_.get());
  }

  // A push step's launch: its grid and the scan of the queue's degrees it reads (null when it needs
  // none: not edge-balanced, or a queue short enough for each block to scan in shared memory).
  struct PushLaunch {
    unsigned grid;
    const long long* scan;
  };
  // Prepares a push step over the queue's `size` vertices with `edges` out-edges under `offsets`.
  PushLaunch prepare_push(LoadBalance balance, const offset_t* offsets, long long size, long long edges) {
    const bool scanned = balance == LoadBalance::edge && size > device::traversal::shared_scan_queue;
    if (scanned) scan_degrees(offsets, size);
    return {push_grid(balance, size, edges), scanned ? scan_.data() : nullptr};
  }
  // The grid of a push step over `size` queued vertices with `edges` out-edges (the edge-balanced
  // one reads the scan of their degrees, made before).
  unsigned push_grid(LoadBalance balance, long long size, long long edges) const {
    switch (balance) {
      case LoadBalance::thread: return grid_for(size, resident_);
      case LoadBalance::warp: return grid_for(size * 32, resident_);
      case LoadBalance::block: return static_cast<unsigned>(std::clamp<long long>(size, 1, resident_));
      case LoadBalance::edge: break;
    }
    const long long tiles = (edges + device::traversal::traversal_tile - 1) / device::traversal::traversal_tile;
    return static_cast<unsigned>(std::clamp<long long>(tiles, 1, resident_));
  }

  // The out-edges of queue()[0..size) after scan_degrees: waits for the scan and reads its end.
  long long queued_edges(long long size) {
    if (size <= 0) return 0;
    GQL_CUDA_CHECK(cudaMemcpyAsync(host_edges_.data(), scan_.data() + size - 1, sizeof(long long),
                                   cudaMemcpyDeviceToHost, stream_.get()));
    GQL_CUDA_CHECK(cudaMemcpyAsync(host_edges_.data() + 1, degrees_.data() + size - 1, sizeof(long long),
                                   cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    return host_edges_[0] + host_edges_[1];
  }

  // Starts a step: counters() moves to a slot cleared before. The slots of counter_window steps are
  // cleared at once (by then the host has read every one before), one memset where a memset per
  // step would cost a launch per level.
  void start_step() {
    if (++slot_ < counter_window) return;
    slot_ = 0;
    GQL_CUDA_CHECK(cudaMemsetAsync(counters_.data(), 0, counters_.bytes(), stream_.get()));
  }
  // Waits for the step and returns its counters.
  StepCounters read_counters() {
    GQL_CUDA_CHECK(cudaMemcpyAsync(host_counters_.data(), counters(), sizeof(StepCounters),
                                   cudaMemcpyDeviceToHost, stream_.get()));
    stream_.synchronize();
    return host_counters_[0];
  }

 private:
  // Made by the first scan: many searches push only short queues, which need none, and 16 bytes per
  // vertex made with the queues grew the device's memory pool inside a first search (kron:20's first
  // search: compute 0.64 ms with them made up front, 0.60 ms without).
  void make_scan_buffers() {
    const auto n = static_cast<size_t>(queue_.size());
    degrees_ = DeviceBuffer<long long>(n);
    scan_ = DeviceBuffer<long long>(n);
    const size_t temp_bytes = queue_scan_bytes(static_cast<int64_t>(n), stream_.get());
    scan_temp_ = DeviceBuffer<unsigned char>(std::max<size_t>(temp_bytes, 1));
  }

  const Stream& stream_;
  DeviceBuffer<index_t> queue_, next_;
  DeviceBuffer<long long> degrees_, scan_;  // empty until the first scan
  DeviceBuffer<unsigned char> scan_temp_;
  static constexpr int counter_window = 64;
  DeviceBuffer<StepCounters> counters_;  // a step's counters and its scratch set, counter_window steps
  int slot_ = counter_window;            // the current step's; the first start_step() clears the window
  HostBuffer<StepCounters> host_counters_;
  HostBuffer<long long> host_edges_;
  long long resident_;
};

}  // namespace gql::gpu::detail
