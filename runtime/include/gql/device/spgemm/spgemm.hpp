// Host driver of the generalized graph multiplication C = A * B over a semiring S on the GPU (the
// seed's plan), with every row in flight at once and a few launches per phase:
//   1. per-row product bounds (one warp per row), then row classes on the device: each row gets a
//      bin by its bound and the rows are sorted by bin in one radix pass; one small census (rows and
//      products per bin) comes back to the host;
//   2. each class in one launch over all its rows, the classes concurrently on their own streams:
//      tiny and small rows sorted in shared memory (bitonic) and reduced by key, medium rows in a
//      shared-memory hash table, rows beyond it spilled to global memory and sorted there by the
//      hybrid sort (merge path), large rows in dense shared-memory accumulators over column chunks
//      (many rows and chunks at once, the heaviest rows first); each row writes its entries to a
//      scratch segment sized by its bound;
//   3. C's offsets by a scan of the rows' entry counts, then the entries compacted into C.
// Only the census and C's entry count cross to the host: no per-row synchronization. When the
// scratch and C do not fit the memory budget, A's rows are taken in batches that do, and the
// batches' results are joined; a result too large for the device goes to host memory batch by batch
// (spgemm_device_or_host, spgemm_to_host). The result is CSR with sorted columns.
//
// Host code compiled by nvcc (it launches the kernel templates of gql/device/*.cuh through the
// kernel table of gql/device/spgemm/spgemm_kernels.hpp and uses CUB); generated CUDA programs include it
// and instantiate spgemm<S> with their semiring struct.
#pragma once

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <array>
#include <cstdint>
#include <future>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/spgemm/spgemm_kernels.hpp"
#include "gql/device/spgemm/spgemm_plan.hpp"
#include "gql/graph.hpp"
#include "gql/host_memory.hpp"

namespace gql {

namespace detail {

inline unsigned long long grid_for(long long items, int threads) {
  return static_cast<unsigned long long>((items + threads - 1) / threads);
}

// Temporary storage for CUB's device-wide algorithms, grown as needed.
struct CubTemp {
  DeviceBuffer<unsigned char> buffer;
  void* get(size_t bytes) {
    if (bytes > buffer.size()) buffer = DeviceBuffer<unsigned char>(bytes);
    return buffer.data();
  }
};

// The streams that run the row classes concurrently, joined back into the caller's stream.
struct ClassStreams {
  std::array<Stream, 4> streams;
  std::array<Event, 5> events;
  void fork(const Stream& main) {
    events[4].record(main);
    for (auto& s : streams) events[4].wait_on(s);
  }
  void join(const Stream& main) {
    for (size_t i = 0; i < streams.size(); ++i) {
      events[i].record(streams[i]);
      events[i].wait_on(main);
    }
  }
};

template <class S>
class SpgemmDriver {
 public:
  using V = typename S::value_type;

  SpgemmDriver(const DeviceCsr<typename S::a_type>& A, const DeviceCsr<typename S::b_type>& B,
               device::spgemm::MaskView mask, const SpgemmPlan& plan, const SpgemmKernels<S>& kernels, Stream& stream)
      : a_(A.view()), b_(B.view()), mask_(mask), plan_(plan), k_(kernels), stream_(stream) {
    limits_ = {plan.tiny_row_products, plan.small_row_products, plan.medium_row_products,
               plan.large_row_products - 1};
    int device = 0, max_shared = 0;
    GQL_CUDA_CHECK(cudaGetDevice(&device));
    GQL_CUDA_CHECK(cudaDeviceGetAttribute(&max_shared, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    chunk_cells_ = static_cast<int>(std::max<int64_t>(32, plan.large_chunk_bytes / static_cast<int64_t>(sizeof(V)) / 32 * 32));
    chunk_cells_ = static_cast<int>(std::min<int64_t>(chunk_cells_, (std::max<int64_t>(b_.n_cols, 1) + 31) / 32 * 32));
    if (device::spgemm::spgemm_large_shared_bytes<V>(chunk_cells_) + 8192 > static_cast<unsigned long long>(max_shared))
      throw Error(ErrorKind::usage, "spgemm: large_chunk_bytes exceeds the device's shared memory per block");
    chunks_ = static_cast<int>((b_.n_cols + chunk_cells_ - 1) / chunk_cells_);
    sorted_chunk_ = SpgemmShapes::sorted_chunk_for(plan.sorted_chunk_items, sizeof(V));
    sorted_rows_ = k_.sorted_rows[static_cast<size_t>(SpgemmShapes::sorted_chunk_index(sorted_chunk_))];
    medium_bitmap_ =
        b_.n_cols <= plan.medium_bitmap_columns &&
        device::spgemm::spgemm_medium_bitmap_shared_bytes<V>(SpgemmShapes::medium_slots, b_.n_cols) + 16384 <=
            static_cast<unsigned long long>(max_shared);
  }

  // Where the product may go: on the device only; there when it fits, else in host memory (a result
  // too large to hold twice on the device, as the join of its batches would); host memory only.
  enum class Where { device, device_or_host, host };

  DeviceCsr<V> run(DeviceSpgemmStats& stats) { return std::get<DeviceCsr<V>>(run(stats, Where::device)); }

  std::variant<DeviceCsr<V>, Csr<V>> run(DeviceSpgemmStats& stats, Where where) {
    const int64_t n = a_.n_rows;
    stats = {};
    stats.large_chunks = chunks_;
    stats.chunk_columns = chunk_cells_;
    stats.sorted_chunk_items = sorted_chunk_;
    stats.medium_bitmap = medium_bitmap_;
    if (n == 0) {
      if (where == Where::host) return Csr<V>(0, b_.n_cols);
      return DeviceCsr<V>(0, b_.n_cols, 0);
    }
    bounds_ = DeviceBuffer<long long>(static_cast<size_t>(n));
    phase_[0].record(stream_);
    launch(k_.row_bounds, grid_for(n * 32, 256), 256, 0, stream_, a_, b_, bounds_.data());
    classify(0, n);
    size_t budget = plan_.batch_bytes;
    if (budget == 0) budget = MemoryBudget::global().available() / 10 * 9;
    // Scratch and C: at most one entry per scratch cell each, plus the hybrid sort's second buffer.
    if (where != Where::host && batch_bytes(census_) <= budget) {
      add_census(stats);
      stats.batches = 1;
      return multiply_classified(0, n, stats);
    }
    // Batches of consecutive rows cut on the host from the rows' scratch sizes.
    std::vector<long long> sizes(static_cast<size_t>(n)), bounds(static_cast<size_t>(n));
    segment_sizes_.copy_to_host(sizes, stream_);
    bounds_.copy_to_host(bounds, stream_);
    stream_.synchronize();
    // C's entries are at most min(bound, columns) per row.
    int64_t most_entries = 0;
    for (const long long b : bounds) most_entries += std::min<long long>(b, b_.n_cols);
    const size_t entry_bytes = sizeof(index_t) + sizeof(V);
    if (where == Where::device || (where == Where::device_or_host && static_cast<size_t>(most_entries) * entry_bytes <= budget / 2)) {
      const std::vector<int64_t> starts = batch_starts(sizes, bounds, budget);
      std::vector<DeviceCsr<V>> parts;
      for (size_t b = 0; b + 1 < starts.size(); ++b) parts.push_back(batch(starts[b], starts[b + 1], stats));
      return join(parts, stats);
    }
    return batches_to_host(batch_starts(sizes, bounds, budget / 2), most_entries, stats);
  }

 private:
  // Where each batch starts (the last entry is n): consecutive rows whose scratch and C fit `budget`.
  std::vector<int64_t> batch_starts(const std::vector<long long>& sizes, const std::vector<long long>& bounds,
                                    size_t budget) const {
    const int64_t n = a_.n_rows;
    const size_t per_cell = 2 * (sizeof(index_t) + sizeof(V));
    std::vector<int64_t> starts{0};
    int64_t last = 0;
    while (last < n) {
      const int64_t first = last;
      size_t bytes = 0;
      while (last < n && (last == first || bytes + static_cast<size_t>(sizes[last] + bounds[last]) * per_cell <= budget))
        bytes += static_cast<size_t>(sizes[last] + bounds[last]) * per_cell, ++last;
      starts.push_back(last);
    }
    return starts;
  }

  // Rows [first, last) multiplied on the device, offsets from 0.
  DeviceCsr<V> batch(int64_t first, int64_t last, DeviceSpgemmStats& stats) {
    classify(first, last - first);
    add_census(stats);
    ++stats.batches;
    return multiply_classified(first, last - first, stats);
  }

  // The batches multiplied one after the other, each copied straight to its place in host memory
  // while the next one is multiplied (the copy on its own thread and stream; one batch's result in
  // flight, so the batches are cut from half the batch memory): the entries' arrays are sized for at
  // most `most_entries` (within the host memory available) and only the pages the entries reach are
  // ever touched.
  Csr<V> batches_to_host(const std::vector<int64_t>& starts, int64_t most_entries, DeviceSpgemmStats& stats) {
    const int64_t n = a_.n_rows;
    const size_t entry_bytes = sizeof(index_t) + sizeof(V);
    const size_t host_entries = available_host_memory() / entry_bytes;
    const auto capacity = static_cast<size_t>(std::min<int64_t>(most_entries, static_cast<int64_t>(host_entries)));
    Array<offset_t> offsets(static_cast<size_t>(n) + 1);
    Array<index_t> columns(capacity);
    Array<V> values(capacity);
    offsets[0] = 0;
    int device = 0;
    GQL_CUDA_CHECK(cudaGetDevice(&device));
    const Stream copies;
    // Declared before the future, whose destructor waits for the copy that reads it.
    std::optional<DeviceCsr<V>> in_flight;
    std::future<void> copied;
    offset_t base = 0;
    for (size_t b = 0; b + 1 < starts.size(); ++b) {
      const int64_t first = starts[b], last = starts[b + 1];
      DeviceCsr<V> part = batch(first, last, stats);
      const auto entries = static_cast<size_t>(part.nvals());
      if (static_cast<size_t>(base) + entries > capacity)
        throw Error(ErrorKind::oom, "spgemm: rows 0.." + std::to_string(last - 1) + " of the product hold " +
                                        std::to_string(static_cast<size_t>(base) + entries) + " entries (" +
                                        std::to_string((static_cast<size_t>(base) + entries) * entry_bytes) +
                                        " bytes); the host memory available holds " + std::to_string(host_entries));
      if (copied.valid()) copied.get();  // the batch before is in place (its failure rethrown here)
      in_flight = std::move(part);
      copied = std::async(std::launch::async, [&, first, last, base, entries] {
        GQL_CUDA_CHECK(cudaSetDevice(device));
        offset_t* row_ends = offsets.data() + first + 1;
        download(row_ends, in_flight->row_offsets().data() + 1, static_cast<size_t>(last - first) * sizeof(offset_t),
                 copies, __FILE__, __LINE__);
        if (entries > 0) {
          download(columns.data() + base, in_flight->col_indices().data(), entries * sizeof(index_t), copies, __FILE__,
                   __LINE__);
          download(values.data() + base, in_flight->values().data(), entries * sizeof(V), copies, __FILE__, __LINE__);
        }
        copies.synchronize();
        for (int64_t r = 0; r < last - first; ++r) row_ends[r] += base;  // a pass over rows, not entries
      });
      base += static_cast<offset_t>(entries);
    }
    if (copied.valid()) copied.get();
    columns.resize(static_cast<size_t>(base));  // the pages past the end were never touched
    values.resize(static_cast<size_t>(base));
    return Csr<V>(n, b_.n_cols, std::move(offsets), std::move(columns), std::move(values));
  }

  // census_: rows per bin, products per bin, and the scratch cells of all rows.
  static constexpr int census_size = device::spgemm::spgemm_census_size;
  using Census = std::array<unsigned long long, census_size>;

  static size_t batch_bytes(const Census& c) {
    namespace ds = device::spgemm;
    const size_t entry = sizeof(index_t) + sizeof(V);
    return static_cast<size_t>(2 * c[2 * ds::bin_count] + c[ds::bin_count + ds::bin_sorted]) * entry;
  }

  void add_census(DeviceSpgemmStats& stats) const {
    namespace ds = device::spgemm;
    for (int bin = 0; bin < ds::bin_count; ++bin)
      stats.products += static_cast<int64_t>(census_[ds::bin_count + bin]);
    stats.tiny_rows += static_cast<int64_t>(census_[ds::bin_tiny]);
    stats.small_rows += static_cast<int64_t>(census_[ds::bin_small]);
    stats.medium_rows += static_cast<int64_t>(census_[ds::bin_medium]);
    stats.sorted_rows += static_cast<int64_t>(census_[ds::bin_sorted]);
    stats.large_rows += static_cast<int64_t>(census_[ds::bin_large]);
    stats.scratch_bytes = std::max<int64_t>(stats.scratch_bytes, static_cast<int64_t>(batch_bytes(census_)) -
                                                                     static_cast<int64_t>(census_[2 * ds::bin_count]) *
                                                                         static_cast<int64_t>(sizeof(index_t) + sizeof(V)));
  }

  // Rows [first, first + count): bins, row ids, scratch sizes in row order and the census (the
  // one synchronization of this step).
  void classify(int64_t first, int64_t count) {
    if (first > 0 || count < a_.n_rows) phase_[0].record(stream_);
    bins_ = DeviceBuffer<unsigned char>(static_cast<size_t>(count));
    rows_ = DeviceBuffer<index_t>(static_cast<size_t>(count));
    segment_sizes_ = DeviceBuffer<long long>(static_cast<size_t>(count));
    DeviceBuffer<unsigned long long> census(census_size);
    census.fill_zero(stream_);
    launch(k_.classify, grid_for(count, SpgemmShapes::classify_threads), SpgemmShapes::classify_threads, 0, stream_,
           bounds_.data(), static_cast<long long>(first), static_cast<long long>(count), static_cast<long long>(b_.n_cols),
           limits_, bins_.data(), rows_.data(), segment_sizes_.data(), census.data());
    census.copy_to_host(std::span<unsigned long long>(census_), stream_);
    stream_.synchronize();
  }

  DeviceCsr<V> multiply_classified(int64_t first, int64_t count, DeviceSpgemmStats& stats);
  DeviceCsr<V> join(std::vector<DeviceCsr<V>>& parts, DeviceSpgemmStats& stats);

  device::CsrView<typename S::a_type> a_;
  device::CsrView<typename S::b_type> b_;
  device::spgemm::MaskView mask_;
  SpgemmPlan plan_;
  const SpgemmKernels<S>& k_;
  Stream& stream_;
  device::spgemm::SpgemmBinLimits limits_{};
  int chunk_cells_ = 0;
  int chunks_ = 1;
  int sorted_chunk_ = 0;
  typename SpgemmKernels<S>::SortedRows sorted_rows_;  // the spilled rows' kernel for sorted_chunk_
  bool medium_bitmap_ = false;
  // Phase marks of a batch: start, classes launched, classes done, C assembled.
  std::array<Event, 4> phase_;
  DeviceBuffer<long long> bounds_;
  DeviceBuffer<unsigned char> bins_;
  DeviceBuffer<index_t> rows_;
  DeviceBuffer<long long> segment_sizes_;
  Census census_{};
  CubTemp cub_;
};

template <class S>
DeviceCsr<typename S::value_type> SpgemmDriver<S>::multiply_classified(int64_t first, int64_t count,
                                                                       DeviceSpgemmStats& stats) {
  namespace ds = device::spgemm;
  using device::spgemm::bin_count;
  const Census c = census_;
  std::array<long long, bin_count + 1> bin_begin{};
  for (int bin = 0; bin < bin_count; ++bin) bin_begin[bin + 1] = bin_begin[bin] + static_cast<long long>(c[bin]);
  auto bin_rows = [&](int bin) { return bin_begin[bin + 1] - bin_begin[bin]; };
  const int n_count = static_cast<int>(count);

  // Rows sorted by bin (stable: ascending rows within a bin), then the large rows heaviest first.
  DeviceBuffer<unsigned char> sorted_bins(static_cast<size_t>(count));
  DeviceBuffer<index_t> binned(static_cast<size_t>(count));
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, bins_.data(), sorted_bins.data(), rows_.data(),
                                                 binned.data(), n_count, 0, 3, stream_.get()));
  GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cub_.get(bytes), bytes, bins_.data(), sorted_bins.data(), rows_.data(),
                                                 binned.data(), n_count, 0, 3, stream_.get()));
  const long long large_begin = bin_begin[ds::bin_large];
  const long long n_large = bin_rows(ds::bin_large);
  if (n_large > 1) {
    DeviceBuffer<long long> keys(static_cast<size_t>(n_large)), keys_out(static_cast<size_t>(n_large));
    DeviceBuffer<index_t> heaviest(static_cast<size_t>(n_large));
    launch(k_.gather, grid_for(n_large, 256), 256, 0, stream_, binned.data() + large_begin, n_large, bounds_.data(),
           0LL, keys.data(), false);
    GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(nullptr, bytes, keys.data(), keys_out.data(),
                                                             binned.data() + large_begin, heaviest.data(),
                                                             static_cast<int>(n_large), 0, 64, stream_.get()));
    GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairsDescending(cub_.get(bytes), bytes, keys.data(), keys_out.data(),
                                                             binned.data() + large_begin, heaviest.data(),
                                                             static_cast<int>(n_large), 0, 64, stream_.get()));
    GQL_CUDA_CHECK(cudaMemcpyAsync(binned.data() + large_begin, heaviest.data(), heaviest.bytes(),
                                   cudaMemcpyDeviceToDevice, stream_.get()));
  }

  // Scratch segments in binned order (an exclusive scan of the rows' scratch sizes).
  DeviceBuffer<long long> sizes(static_cast<size_t>(count) + 1), segments(static_cast<size_t>(count) + 1);
  launch(k_.gather, grid_for(count + 1, 256), 256, 0, stream_, binned.data(), static_cast<long long>(count),
         segment_sizes_.data(), static_cast<long long>(first), sizes.data(), true);
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, sizes.data(), segments.data(), n_count + 1, stream_.get()));
  GQL_CUDA_CHECK(
      cub::DeviceScan::ExclusiveSum(cub_.get(bytes), bytes, sizes.data(), segments.data(), n_count + 1, stream_.get()));
  const auto cells = static_cast<size_t>(c[2 * bin_count]);
  DeviceBuffer<index_t> keys(cells);
  DeviceBuffer<V> values(cells);
  // The spilled rows' second buffer: their segments follow those of the tiny, small and medium rows.
  const long long alt_base = static_cast<long long>(c[bin_count + ds::bin_tiny] + c[bin_count + ds::bin_small] +
                                                    c[bin_count + ds::bin_medium]);
  DeviceBuffer<index_t> keys_alt(static_cast<size_t>(c[bin_count + ds::bin_sorted]));
  DeviceBuffer<V> values_alt(static_cast<size_t>(c[bin_count + ds::bin_sorted]));
  DeviceBuffer<offset_t> row_nnz(static_cast<size_t>(first + count));
  row_nnz.fill_zero(stream_);
  const long long large_blocks = n_large * chunks_;
  DeviceBuffer<unsigned long long> row_fill(static_cast<size_t>(n_large));
  DeviceBuffer<long long> chunk_counts(static_cast<size_t>(large_blocks)), chunk_starts(static_cast<size_t>(large_blocks));
  row_fill.fill_zero(stream_);

  // Every class in one launch, the classes concurrently.
  ClassStreams classes;
  phase_[1].record(stream_);
  classes.fork(stream_);
  auto rows_of = [&](int bin) { return binned.data() + bin_begin[bin]; };
  auto segments_of = [&](int bin) { return segments.data() + bin_begin[bin]; };
  launch(k_.tiny_rows, static_cast<unsigned long long>(bin_rows(ds::bin_tiny)), SpgemmShapes::tiny_threads, 0,
         classes.streams[0], a_, b_, mask_, rows_of(ds::bin_tiny), segments_of(ds::bin_tiny), keys.data(),
         values.data(), row_nnz.data());
  launch(k_.small_rows, static_cast<unsigned long long>(bin_rows(ds::bin_small)), SpgemmShapes::small_threads, 0,
         classes.streams[1], a_, b_, mask_, rows_of(ds::bin_small), segments_of(ds::bin_small), keys.data(),
         values.data(), row_nnz.data());
  launch(medium_bitmap_ ? k_.medium_rows_bitmap : k_.medium_rows,
         static_cast<unsigned long long>(bin_rows(ds::bin_medium)), SpgemmShapes::medium_threads,
         medium_bitmap_ ? device::spgemm::spgemm_medium_bitmap_shared_bytes<V>(SpgemmShapes::medium_slots, b_.n_cols)
                        : device::spgemm::spgemm_medium_shared_bytes<V>(SpgemmShapes::medium_slots),
         classes.streams[2], a_, b_, mask_, rows_of(ds::bin_medium), segments_of(ds::bin_medium), keys.data(),
         values.data(), row_nnz.data());
  launch(sorted_rows_, static_cast<unsigned long long>(bin_rows(ds::bin_sorted)), SpgemmShapes::sorted_threads, 0,
         classes.streams[2], a_, b_, mask_, rows_of(ds::bin_sorted), segments_of(ds::bin_sorted), alt_base,
         keys.data(), values.data(), keys_alt.data(), values_alt.data(), row_nnz.data());
  launch(k_.large_rows, static_cast<unsigned long long>(large_blocks), SpgemmShapes::large_threads,
         device::spgemm::spgemm_large_shared_bytes<V>(chunk_cells_), classes.streams[3], a_, b_, mask_,
         rows_of(ds::bin_large), segments_of(ds::bin_large), chunks_, chunk_cells_, keys.data(), values.data(),
         row_fill.data(), chunk_counts.data(), chunk_starts.data(), row_nnz.data());
  classes.join(stream_);
  phase_[2].record(stream_);

  // C's offsets (offsets[first..first + count]) and entry count: the one synchronization here.
  DeviceBuffer<offset_t> offsets(static_cast<size_t>(first + count) + 1);
  GQL_CUDA_CHECK(cudaMemsetAsync(offsets.data() + first, 0, sizeof(offset_t), stream_.get()));
  GQL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, row_nnz.data() + first, offsets.data() + first + 1,
                                               n_count, stream_.get()));
  GQL_CUDA_CHECK(cub::DeviceScan::InclusiveSum(cub_.get(bytes), bytes, row_nnz.data() + first,
                                               offsets.data() + first + 1, n_count, stream_.get()));
  offset_t nnz = 0;
  GQL_CUDA_CHECK(cudaMemcpyAsync(&nnz, offsets.data() + first + count, sizeof(offset_t), cudaMemcpyDeviceToHost,
                                 stream_.get()));
  stream_.synchronize();
  stats.result_bytes += static_cast<int64_t>(nnz) * static_cast<int64_t>(sizeof(index_t) + sizeof(V));

  DeviceBuffer<index_t> columns(static_cast<size_t>(nnz));
  DeviceBuffer<V> entries(static_cast<size_t>(nnz));
  const long long sorted_rows = bin_begin[ds::bin_large] - bin_begin[ds::bin_tiny];
  constexpr int warps_per_block = SpgemmShapes::compact_threads / 32;
  launch(k_.compact_rows, grid_for(sorted_rows, warps_per_block), SpgemmShapes::compact_threads, 0, stream_,
         rows_of(ds::bin_tiny), segments_of(ds::bin_tiny), sorted_rows, offsets.data(), keys.data(),
         values.data(), columns.data(), entries.data());
  launch(k_.compact_large_rows, static_cast<unsigned long long>(large_blocks), SpgemmShapes::compact_threads, 0,
         stream_, rows_of(ds::bin_large), segments_of(ds::bin_large), chunks_, chunk_counts.data(),
         chunk_starts.data(), offsets.data(), keys.data(), values.data(), columns.data(), entries.data());
  phase_[3].record(stream_);
  phase_[3].synchronize();  // before the scratch is freed
  stats.classify_ms += Event::elapsed_ms(phase_[0], phase_[1]);
  stats.accumulate_ms += Event::elapsed_ms(phase_[1], phase_[2]);
  stats.assemble_ms += Event::elapsed_ms(phase_[2], phase_[3]);
  if (first == 0 && count == a_.n_rows) {
    return DeviceCsr<V>(count, b_.n_cols, nnz, std::move(offsets), std::move(columns), std::move(entries));
  }
  DeviceBuffer<offset_t> part_offsets(static_cast<size_t>(count) + 1);
  GQL_CUDA_CHECK(cudaMemcpyAsync(part_offsets.data(), offsets.data() + first, part_offsets.bytes(),
                                 cudaMemcpyDeviceToDevice, stream_.get()));
  stream_.synchronize();
  return DeviceCsr<V>(count, b_.n_cols, nnz, std::move(part_offsets), std::move(columns), std::move(entries));
}

template <class S>
DeviceCsr<typename S::value_type> SpgemmDriver<S>::join(std::vector<DeviceCsr<V>>& parts, DeviceSpgemmStats&) {
  int64_t nnz = 0;
  for (const auto& p : parts) nnz += p.nvals();
  DeviceCsr<V> C(a_.n_rows, b_.n_cols, nnz);
  int64_t row = 0;
  offset_t base = 0;
  for (auto& p : parts) {
    launch(k_.shift_offsets, grid_for(p.n_rows() + 1, 256), 256, 0, stream_, p.row_offsets().data(),
           static_cast<long long>(p.n_rows()), base, C.row_offsets().data() + row);
    if (p.nvals() > 0) {
      GQL_CUDA_CHECK(cudaMemcpyAsync(C.col_indices().data() + base, p.col_indices().data(), p.col_indices().bytes(),
                                     cudaMemcpyDeviceToDevice, stream_.get()));
      GQL_CUDA_CHECK(cudaMemcpyAsync(C.values().data() + base, p.values().data(), p.values().bytes(),
                                     cudaMemcpyDeviceToDevice, stream_.get()));
    }
    row += p.n_rows();
    base += static_cast<offset_t>(p.nvals());
  }
  stream_.synchronize();  // before the parts are freed
  return C;
}

inline void check_plan(const SpgemmPlan& plan) {
  auto fail = [](const std::string& what) { throw Error(ErrorKind::usage, "spgemm: " + what); };
  if (plan.large_row_products < 1 || plan.large_row_products > (int64_t{1} << 31) - 1)
    fail("large_row_products must be in [1, 2^31 - 1]");
  if (plan.tiny_row_products < 0 || plan.tiny_row_products > SpgemmShapes::tiny_items)
    fail("tiny_row_products must be in [0, " + std::to_string(SpgemmShapes::tiny_items) + "]");
  if (plan.small_row_products < plan.tiny_row_products)
    fail("small_row_products must be at least tiny_row_products");
  if (plan.medium_row_products < plan.small_row_products || plan.medium_row_products > SpgemmShapes::medium_slots)
    fail("medium_row_products must be in [small_row_products, " + std::to_string(SpgemmShapes::medium_slots) + "]");
  if (plan.large_chunk_bytes < 1024) fail("large_chunk_bytes must be at least 1024");
  const auto& choices = SpgemmShapes::sorted_chunk_choices;
  if (plan.sorted_chunk_items != 0 &&
      std::find(choices.begin(), choices.end(), plan.sorted_chunk_items) == choices.end()) {
    std::string valid;
    for (int c : choices) valid += (valid.empty() ? "" : ", ") + std::to_string(c);
    fail("sorted_chunk_items must be 0 (the default) or one of " + valid);
  }
}

}  // namespace detail

namespace detail {
template <class S>
std::variant<DeviceCsr<typename S::value_type>, Csr<typename S::value_type>> spgemm_run(
    const DeviceCsr<typename S::a_type>& A, const DeviceCsr<typename S::b_type>& B, device::spgemm::MaskView mask,
    const SpgemmPlan& plan, Stream& stream, DeviceSpgemmStats* stats, const SpgemmKernels<S>& kernels,
    typename SpgemmDriver<S>::Where where) {
  using V = typename S::value_type;
  static_assert(stores_values<V>, "a product's values are stored: use a numeric or byte value_type");
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "spgemm: A is " + std::to_string(A.n_rows()) + " x " + std::to_string(A.n_cols()) +
                                      ", B is " + std::to_string(B.n_rows()) + " x " + std::to_string(B.n_cols()));
  check_plan(plan);
  if (plan.small_row_products > SpgemmShapes::small_items<V>)
    throw Error(ErrorKind::usage, "spgemm: small_row_products must be at most " +
                                      std::to_string(SpgemmShapes::small_items<V>) + " for this value type");
  DeviceSpgemmStats local;
  SpgemmDriver<S> driver(A, B, mask, plan, kernels, stream);
  auto C = driver.run(local, where);
  stream.synchronize();
  if (stats != nullptr) *stats = local;
  return C;
}
}  // namespace detail

// C<mask> = A * B over S, the result on the device. `mask` restricts C to the mask's positions (or,
// complemented, to the others) while the products are accumulated.
template <class S>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<typename S::a_type>& A,
                                         const DeviceCsr<typename S::b_type>& B, device::spgemm::MaskView mask,
                                         const SpgemmPlan& plan, Stream& stream, DeviceSpgemmStats* stats = nullptr,
                                         const SpgemmKernels<S>& kernels = spgemm_kernels<S>()) {
  return std::get<DeviceCsr<typename S::value_type>>(
      detail::spgemm_run<S>(A, B, mask, plan, stream, stats, kernels, detail::SpgemmDriver<S>::Where::device));
}

template <class S>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<typename S::a_type>& A,
                                         const DeviceCsr<typename S::b_type>& B, const SpgemmPlan& plan,
                                         Stream& stream, DeviceSpgemmStats* stats = nullptr) {
  return spgemm<S>(A, B, device::spgemm::MaskView{}, plan, stream, stats);
}

// The same, on the device when the result fits there (twice, as joining batches needs), else in host
// memory: for products larger than the device, the seed's results streamed to the host.
template <class S>
std::variant<DeviceCsr<typename S::value_type>, Csr<typename S::value_type>> spgemm_device_or_host(
    const DeviceCsr<typename S::a_type>& A, const DeviceCsr<typename S::b_type>& B, device::spgemm::MaskView mask,
    const SpgemmPlan& plan, Stream& stream, DeviceSpgemmStats* stats, const SpgemmKernels<S>& kernels) {
  return detail::spgemm_run<S>(A, B, mask, plan, stream, stats, kernels,
                               detail::SpgemmDriver<S>::Where::device_or_host);
}

// C = A * B over S in host memory, whatever its size: A's rows in batches that fit the device
// (plan.batch_bytes, or the budget), each batch's entries copied straight to their place. Out of
// memory is then the host's limit, checked before each batch is copied.
template <class S>
Csr<typename S::value_type> spgemm_to_host(const DeviceCsr<typename S::a_type>& A,
                                           const DeviceCsr<typename S::b_type>& B, const SpgemmPlan& plan = {},
                                           DeviceSpgemmStats* stats = nullptr) {
  Stream stream;
  return std::get<Csr<typename S::value_type>>(detail::spgemm_run<S>(A, B, device::spgemm::MaskView{}, plan, stream,
                                                                     stats, spgemm_kernels<S>(),
                                                                     detail::SpgemmDriver<S>::Where::host));
}

// A device mask over a mask graph's structure (it must outlive the product).
template <class M>
device::spgemm::MaskView mask_view(const DeviceCsr<M>& mask, bool complement) {
  return {mask.row_offsets().data(), mask.col_indices().data(),
          complement ? device::spgemm::MaskKind::deny : device::spgemm::MaskKind::allow};
}

}  // namespace gql
