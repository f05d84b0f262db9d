// Host driver of the generalized graph multiplication C = A * B over a semiring S on the GPU
// (the seed's plan): per-row product bounds, row classing, large rows one at a time over the whole
// GPU with a dense accumulator, small rows one per block through the hybrid sort, in batches whose
// scratch fits the memory budget. The result is CSR with sorted columns.
//
// Host code compiled by nvcc (it launches the kernel templates of gql/device/*.cuh and uses CUB);
// generated CUDA programs include it and instantiate spgemm<S> with their semiring struct.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/spgemm_bound.cuh"
#include "gql/device/spgemm_large_rows.cuh"
#include "gql/device/spgemm_small_rows.cuh"

namespace gql {

// The schedule of one multiplication (every value changes speed and memory only, never results).
struct SpgemmPlan {
  // Rows with at least this many products go to the large-row path (at most 2^31 - 1: small rows
  // are sorted with 32-bit positions).
  int64_t large_row_products = int64_t{1} << 15;
  // Blocks of the large-row kernel; 0 = four per multiprocessor.
  int large_row_blocks = 0;
  // Bytes of scratch for one batch of small rows; 0 = a quarter of the available budget.
  size_t small_batch_bytes = 0;
};

// What the last spgemm did (for --explain and the benchmarks).
struct SpgemmStats {
  int64_t products = 0;
  int64_t large_rows = 0;
  int64_t small_rows = 0;
  int64_t small_batches = 0;
};

namespace detail {

// The driver's fixed kernel shapes.
inline constexpr int spgemm_small_threads = 256;
inline constexpr int spgemm_large_threads = 256;
inline constexpr int spgemm_stage_capacity = 4 * spgemm_large_threads;
template <class V>
inline constexpr int spgemm_chunk_items = sizeof(V) <= 8 ? 2048 : 1024;

// One row's or one batch's entries, kept on the device until C's offsets are known.
template <class V>
struct SpgemmPiece {
  std::vector<index_t> rows;          // the rows of C this piece holds, ascending
  std::vector<long long> row_starts;  // start of each row within the piece (size rows + 1)
  DeviceBuffer<index_t> columns;
  DeviceBuffer<V> values;
};

template <class V>
__global__ void scatter_piece_rows(const index_t* rows, const long long* row_starts, const index_t* columns,
                                   const V* values, const offset_t* c_offsets, index_t* c_columns, V* c_values) {
  const long long begin = row_starts[blockIdx.x], end = row_starts[blockIdx.x + 1];
  const offset_t dst = c_offsets[rows[blockIdx.x]];
  for (long long t = begin + threadIdx.x; t < end; t += blockDim.x) {
    c_columns[dst + (t - begin)] = columns[t];
    c_values[dst + (t - begin)] = values[t];
  }
}

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& host, const Stream& stream) {
  DeviceBuffer<T> buffer(host.size());
  buffer.copy_from_host(host, stream);
  return buffer;
}

inline unsigned grid_for(long long items, int threads) {
  return static_cast<unsigned>((items + threads - 1) / threads);
}

}  // namespace detail

template <class S>
DeviceCsr<typename S::value_type> spgemm(const DeviceCsr<typename S::a_type>& A,
                                         const DeviceCsr<typename S::b_type>& B, const SpgemmPlan& plan,
                                         Stream& stream, SpgemmStats* stats = nullptr) {
  using V = typename S::value_type;
  static_assert(stores_values<V>, "a product's values are stored: use a numeric or byte value_type");
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "spgemm: A is " + std::to_string(A.n_rows()) + " x " + std::to_string(A.n_cols()) +
                                      ", B is " + std::to_string(B.n_rows()) + " x " + std::to_string(B.n_cols()));
  if (plan.large_row_products < 1 || plan.large_row_products > (int64_t{1} << 31) - 1)
    throw Error(ErrorKind::usage, "spgemm: large_row_products must be in [1, 2^31 - 1]");
  const int64_t n_rows = A.n_rows(), n_cols = B.n_cols();
  const auto a = A.view();
  const auto b = B.view();

  // 1. Product bounds per row, classed on the host.
  std::vector<long long> bounds(static_cast<size_t>(n_rows));
  if (n_rows > 0) {
    DeviceBuffer<long long> d_bounds(static_cast<size_t>(n_rows));
    device::spgemm_row_bounds<<<detail::grid_for(n_rows * 32, 256), 256, 0, stream.get()>>>(a, b, d_bounds.data());
    GQL_CUDA_CHECK_LAUNCH();
    d_bounds.copy_to_host(bounds, stream);
    stream.synchronize();
  }
  std::vector<index_t> large_rows, small_rows;
  SpgemmStats local;
  for (int64_t i = 0; i < n_rows; ++i) {
    local.products += bounds[i];
    if (bounds[i] >= plan.large_row_products) large_rows.push_back(static_cast<index_t>(i));
    else if (bounds[i] > 0) small_rows.push_back(static_cast<index_t>(i));
  }
  local.large_rows = static_cast<int64_t>(large_rows.size());
  local.small_rows = static_cast<int64_t>(small_rows.size());
  std::vector<long long> counts(static_cast<size_t>(n_rows), 0);
  std::vector<detail::SpgemmPiece<V>> pieces;

  // 2. Large rows, one at a time over the whole GPU.
  if (!large_rows.empty()) {
    int device = 0, multiprocessors = 0;
    GQL_CUDA_CHECK(cudaGetDevice(&device));
    GQL_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    const int blocks = plan.large_row_blocks > 0 ? plan.large_row_blocks : 4 * multiprocessors;
    // Whole 32-bit words, so the word-wide CAS of 1- and 2-byte values stays inside the buffer.
    const int64_t cells = (n_cols + 3) / 4 * 4;
    DeviceBuffer<V> accumulator(static_cast<size_t>(cells));
    DeviceBuffer<unsigned> flags(static_cast<size_t>(n_cols));
    DeviceBuffer<index_t> touched(static_cast<size_t>(n_cols)), sorted(static_cast<size_t>(n_cols));
    DeviceBuffer<unsigned long long> touched_count(1);
    device::spgemm_fill_zero<S><<<detail::grid_for(cells, 256), 256, 0, stream.get()>>>(accumulator.data(), cells);
    GQL_CUDA_CHECK_LAUNCH();
    flags.fill_zero(stream);
    int end_bit = 1;
    while (end_bit < 32 && (int64_t{1} << end_bit) < n_cols) ++end_bit;
    size_t sort_bytes = 0;
    GQL_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, sort_bytes, touched.data(), sorted.data(),
                                                  static_cast<int>(n_cols), 0, end_bit, stream.get()));
    DeviceBuffer<unsigned char> sort_temp(std::max<size_t>(sort_bytes, 1));
    for (const index_t row : large_rows) {
      touched_count.fill_zero(stream);
      device::spgemm_accumulate_large_row<S, detail::spgemm_large_threads, detail::spgemm_stage_capacity>
          <<<static_cast<unsigned>(blocks), detail::spgemm_large_threads, 0, stream.get()>>>(
              a, b, row, accumulator.data(), flags.data(), touched.data(), touched_count.data());
      GQL_CUDA_CHECK_LAUNCH();
      unsigned long long count = 0;
      touched_count.copy_to_host(std::span<unsigned long long>(&count, 1), stream);
      stream.synchronize();
      GQL_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(sort_temp.data(), sort_bytes, touched.data(), sorted.data(),
                                                    static_cast<int>(count), 0, end_bit, stream.get()));
      detail::SpgemmPiece<V> piece{{row}, {0, static_cast<long long>(count)},
                                   DeviceBuffer<index_t>(count), DeviceBuffer<V>(count)};
      if (count > 0) {
        GQL_CUDA_CHECK(cudaMemcpyAsync(piece.columns.data(), sorted.data(), count * sizeof(index_t),
                                       cudaMemcpyDeviceToDevice, stream.get()));
        device::spgemm_gather_large_row<S><<<detail::grid_for(static_cast<long long>(count), 256), 256, 0,
                                             stream.get()>>>(sorted.data(), static_cast<long long>(count),
                                                             accumulator.data(), flags.data(), piece.values.data());
        GQL_CUDA_CHECK_LAUNCH();
      }
      counts[row] = static_cast<long long>(count);
      pieces.push_back(std::move(piece));
    }
  }

  // 3. Small rows, one per block, in batches whose scratch (four buffers) fits the budget.
  if (!small_rows.empty()) {
    constexpr size_t bytes_per_product = 2 * (sizeof(index_t) + sizeof(V));
    size_t batch_bytes = plan.small_batch_bytes;
    if (batch_bytes == 0) batch_bytes = MemoryBudget::global().available() / 4;
    long long largest_small_row = 0;
    for (const index_t row : small_rows) largest_small_row = std::max(largest_small_row, bounds[row]);
    // At least one row per batch, however small the scratch asked for.
    const long long batch_products =
        std::max<long long>(static_cast<long long>(batch_bytes / bytes_per_product), largest_small_row);
    size_t first = 0;
    while (first < small_rows.size()) {
      std::vector<index_t> rows;
      std::vector<long long> offsets{0};
      while (first < small_rows.size() && (rows.empty() || offsets.back() + bounds[small_rows[first]] <= batch_products)) {
        rows.push_back(small_rows[first]);
        offsets.push_back(offsets.back() + bounds[small_rows[first]]);
        ++first;
      }
      ++local.small_batches;
      const size_t products = static_cast<size_t>(offsets.back());
      DeviceBuffer<index_t> d_rows = detail::upload(rows, stream);
      DeviceBuffer<long long> d_offsets = detail::upload(offsets, stream);
      DeviceBuffer<index_t> keys(products), keys_alt(products);
      DeviceBuffer<V> values(products), values_alt(products);
      DeviceBuffer<long long> d_counts(rows.size());
      DeviceBuffer<unsigned char> in_primary(rows.size());
      constexpr int chunk = detail::spgemm_chunk_items<V>;
      device::spgemm_small_rows<S, detail::spgemm_small_threads, chunk>
          <<<static_cast<unsigned>(rows.size()), detail::spgemm_small_threads, 0, stream.get()>>>(
              a, b, d_rows.data(), d_offsets.data(), keys.data(), values.data(), keys_alt.data(), values_alt.data(),
              d_counts.data(), in_primary.data());
      GQL_CUDA_CHECK_LAUNCH();
      std::vector<long long> batch_counts(rows.size());
      d_counts.copy_to_host(batch_counts, stream);
      stream.synchronize();
      detail::SpgemmPiece<V> piece;
      piece.rows = rows;
      piece.row_starts.assign(1, 0);
      for (size_t r = 0; r < rows.size(); ++r) {
        counts[rows[r]] = batch_counts[r];
        piece.row_starts.push_back(piece.row_starts.back() + batch_counts[r]);
      }
      piece.columns = DeviceBuffer<index_t>(static_cast<size_t>(piece.row_starts.back()));
      piece.values = DeviceBuffer<V>(static_cast<size_t>(piece.row_starts.back()));
      DeviceBuffer<long long> d_starts = detail::upload(piece.row_starts, stream);
      device::spgemm_compact_rows<V, 256><<<static_cast<unsigned>(rows.size()), 256, 0, stream.get()>>>(
          d_offsets.data(), d_counts.data(), in_primary.data(), keys.data(), values.data(), keys_alt.data(),
          values_alt.data(), d_starts.data(), piece.columns.data(), piece.values.data());
      GQL_CUDA_CHECK_LAUNCH();
      stream.synchronize();  // the scratch is freed when this batch's buffers go out of scope
      pieces.push_back(std::move(piece));
    }
  }

  // 4. C's offsets from the counts, then every piece scattered to its rows.
  std::vector<offset_t> c_offsets(static_cast<size_t>(n_rows) + 1, 0);
  for (int64_t i = 0; i < n_rows; ++i) c_offsets[i + 1] = c_offsets[i] + counts[i];
  DeviceCsr<V> C(n_rows, n_cols, c_offsets.back());
  C.row_offsets().copy_from_host(c_offsets, stream);
  for (const auto& piece : pieces) {
    if (piece.rows.empty() || piece.row_starts.back() == 0) continue;
    DeviceBuffer<index_t> d_rows = detail::upload(piece.rows, stream);
    DeviceBuffer<long long> d_starts = detail::upload(piece.row_starts, stream);
    detail::scatter_piece_rows<V><<<static_cast<unsigned>(piece.rows.size()), 256, 0, stream.get()>>>(
        d_rows.data(), d_starts.data(), piece.columns.data(), piece.values.data(), C.row_offsets().data(),
        C.col_indices().data(), C.values().data());
    GQL_CUDA_CHECK_LAUNCH();
    stream.synchronize();  // before d_rows and d_starts are freed
  }
  stream.synchronize();
  if (stats != nullptr) *stats = local;
  return C;
}

}  // namespace gql
