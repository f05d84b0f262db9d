// C = A * B over S with the result in host memory, for results larger than the device: A's rows
// are taken in consecutive blocks whose products fit a share of the device budget; each block is
// multiplied on the device by spgemm<S> and its entries copied to host memory, while the next
// block is multiplied on another stream (one host worker and one stream per block in flight).
// Out-of-memory is then the host's only limit, and it is checked before each block is copied
// (Error(oom) rather than the kernel's OOM killer).
//
// A block keeps every row of A (rows outside the block are empty), so con sees global row ids.
// Host code compiled by nvcc, like gql/device/spgemm.hpp.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "gql/device/spgemm.hpp"

namespace gql {

struct SpgemmToHostPlan {
  SpgemmPlan device;           // the schedule of each block's multiplication
  int64_t block_products = 0;  // products per block of rows (a row is never split); 0: from the budget
  int workers = 2;             // blocks in flight, each on its own stream and host thread
};

// Rows [first_row, first_row + n_rows()) of C, as CSR with offsets from 0.
template <class V>
struct HostRowBlock {
  int64_t first_row = 0;
  Array<offset_t> row_offsets{0};
  Array<index_t> col_indices;  // sized, then downloaded whole
  Array<V> values;
  int64_t n_rows() const noexcept { return static_cast<int64_t>(row_offsets.size()) - 1; }
  int64_t nvals() const noexcept { return row_offsets.back(); }
};

// C as row blocks in ascending order that together hold every row once.
template <class V>
struct HostSpgemmResult {
  int64_t n_rows = 0;
  int64_t n_cols = 0;
  std::vector<HostRowBlock<V>> blocks;

  int64_t nvals() const noexcept {
    int64_t total = 0;
    for (const auto& b : blocks) total += b.nvals();
    return total;
  }
  // One CSR (a copy: the entries are held twice while it is made), the blocks copied in parallel.
  Csr<V> to_csr() const {
    Array<offset_t> offsets(static_cast<size_t>(n_rows) + 1, 0);
    std::vector<offset_t> block_start(blocks.size() + 1, 0);
    for (size_t k = 0; k < blocks.size(); ++k) block_start[k + 1] = block_start[k] + blocks[k].nvals();
    Array<index_t> columns(static_cast<size_t>(block_start.back()));
    Array<V> vals(static_cast<size_t>(block_start.back()));
#pragma omp parallel for schedule(dynamic, 1)
    for (size_t k = 0; k < blocks.size(); ++k) {
      const HostRowBlock<V>& b = blocks[k];
      for (int64_t r = 1; r <= b.n_rows(); ++r)
        offsets[static_cast<size_t>(b.first_row + r)] = block_start[k] + b.row_offsets[static_cast<size_t>(r)];
      std::copy(b.col_indices.begin(), b.col_indices.end(), columns.begin() + block_start[k]);
      std::copy(b.values.begin(), b.values.end(), vals.begin() + block_start[k]);
    }
    return Csr<V>(n_rows, n_cols, std::move(offsets), std::move(columns), std::move(vals));
  }
};

namespace detail {

// Bytes of host memory the kernel reports as available (MemAvailable), or -1 where unknown.
inline long long host_memory_available() {
  std::FILE* file = std::fopen("/proc/meminfo", "r");
  if (file == nullptr) return -1;
  char line[256];
  long long kib = -1;
  while (std::fgets(line, sizeof line, file) != nullptr)
    if (std::sscanf(line, "MemAvailable: %lld kB", &kib) == 1) break;
  std::fclose(file);
  return kib < 0 ? -1 : kib * 1024;
}

// Row offsets of A restricted to rows [first, last): the others become empty.
template <class Offset>
__global__ void spgemm_block_offsets(const Offset* offsets, long long n_rows, long long first, long long last,
                                     Offset* out) {
  const Offset begin = offsets[first], end = offsets[last];
  for (long long r = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; r <= n_rows;
       r += static_cast<long long>(gridDim.x) * blockDim.x) {
    const Offset o = offsets[r];
    out[r] = (o < begin ? begin : (o > end ? end : o)) - begin;
  }
}

}  // namespace detail

template <class S>
HostSpgemmResult<typename S::value_type> spgemm_to_host(const DeviceCsr<typename S::a_type>& A,
                                                        const DeviceCsr<typename S::b_type>& B,
                                                        const SpgemmToHostPlan& plan = {},
                                                        SpgemmStats* stats = nullptr) {
  using V = typename S::value_type;
  using AT = typename S::a_type;
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "spgemm_to_host: A is " + std::to_string(A.n_rows()) + " x " +
                                      std::to_string(A.n_cols()) + ", B is " + std::to_string(B.n_rows()) + " x " +
                                      std::to_string(B.n_cols()));
  if (plan.workers < 1) throw Error(ErrorKind::usage, "spgemm_to_host: workers must be at least 1");
  const int64_t n = A.n_rows();
  HostSpgemmResult<V> result;
  result.n_rows = n;
  result.n_cols = B.n_cols();
  if (n == 0) {
    if (stats != nullptr) *stats = {};
    return result;
  }

  // Row bounds and A's offsets on the host, to cut the blocks.
  Stream stream;
  std::vector<long long> bounds(static_cast<size_t>(n));
  std::vector<offset_t> a_offsets(static_cast<size_t>(n) + 1);
  {
    DeviceBuffer<long long> d_bounds(static_cast<size_t>(n));
    launch(spgemm_kernels<S>().row_bounds, detail::grid_for(n * 32, 256), 256, 0, stream, A.view(), B.view(),
           d_bounds.data());
    d_bounds.copy_to_host(bounds, stream);
    A.row_offsets().copy_to_host(a_offsets, stream);
    stream.synchronize();
  }
  int64_t block_products = plan.block_products;
  if (block_products <= 0) {
    // A block's peak: the scratch and C (each at most one entry per product), the spilled rows'
    // second buffer, and the result's copy on its way out; every worker holds one block.
    const size_t per_product = 4 * (sizeof(index_t) + sizeof(V));
    block_products = static_cast<int64_t>(MemoryBudget::global().available() / 4 * 3 /
                                          (per_product * static_cast<size_t>(plan.workers)));
    block_products = std::max<int64_t>(block_products, 1);
  }
  std::vector<int64_t> starts{0};
  long long in_block = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (in_block > 0 && in_block + bounds[static_cast<size_t>(i)] > block_products) {
      starts.push_back(i);
      in_block = 0;
    }
    in_block += bounds[static_cast<size_t>(i)];
  }
  starts.push_back(n);
  const size_t n_blocks = starts.size() - 1;
  result.blocks.resize(n_blocks);

  int device = 0;
  GQL_CUDA_CHECK(cudaGetDevice(&device));
  std::atomic<size_t> next{0};
  std::mutex mutex;
  std::exception_ptr failure;
  SpgemmStats total;
  auto work = [&] {
    try {
      GQL_CUDA_CHECK(cudaSetDevice(device));
      Stream own;
      for (size_t b = next++; b < n_blocks; b = next++) {
        {
          const std::lock_guard<std::mutex> lock(mutex);
          if (failure) return;
        }
        const int64_t first = starts[b], last = starts[b + 1];
        const offset_t begin = a_offsets[static_cast<size_t>(first)], end = a_offsets[static_cast<size_t>(last)];
        DeviceCsr<AT> rows(n, A.n_cols(), end - begin);
        const unsigned long long offset_blocks = std::min(detail::grid_for(n + 1, 256), 4096ull);
        launch(kernel_handle(&detail::spgemm_block_offsets<offset_t>), offset_blocks, 256, 0, own,
               A.row_offsets().data(), static_cast<long long>(n), static_cast<long long>(first),
               static_cast<long long>(last), rows.row_offsets().data());
        if (end > begin) {
          const auto count = static_cast<size_t>(end - begin);
          GQL_CUDA_CHECK(cudaMemcpyAsync(rows.col_indices().data(), A.col_indices().data() + begin,
                                         count * sizeof(index_t), cudaMemcpyDeviceToDevice, own.get()));
          if constexpr (stores_values<AT>)
            GQL_CUDA_CHECK(cudaMemcpyAsync(rows.values().data(), A.values().data() + begin,
                                           count * sizeof(storage_t<AT>), cudaMemcpyDeviceToDevice, own.get()));
        }
        SpgemmStats block_stats;
        const DeviceCsr<V> C = spgemm<S>(rows, B, plan.device, own, &block_stats);
        HostRowBlock<V>& out = result.blocks[b];
        out.first_row = first;
        out.row_offsets.resize(static_cast<size_t>(last - first) + 1);
        GQL_CUDA_CHECK(cudaMemcpyAsync(out.row_offsets.data(), C.row_offsets().data() + first,
                                       out.row_offsets.size() * sizeof(offset_t), cudaMemcpyDeviceToHost, own.get()));
        own.synchronize();
        const auto entries = static_cast<size_t>(C.nvals());
        const long long bytes = static_cast<long long>(entries * (sizeof(index_t) + sizeof(V)));
        const long long available = detail::host_memory_available();
        if (available >= 0 && bytes + (1LL << 30) > available)
          throw Error(ErrorKind::oom, "spgemm_to_host: rows " + std::to_string(first) + ".." + std::to_string(last) +
                                          " need " + std::to_string(bytes) + " bytes of host memory, " +
                                          std::to_string(available) + " are available");
        out.col_indices.resize(entries);
        out.values.resize(entries);
        if (entries > 0) {
          C.col_indices().copy_to_host(out.col_indices, own);
          C.values().copy_to_host(out.values, own);
        }
        own.synchronize();
        const std::lock_guard<std::mutex> lock(mutex);
        accumulate(total, block_stats);
      }
    } catch (...) {
      const std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
  };
  std::vector<std::thread> workers;
  const size_t n_workers = std::min<size_t>(static_cast<size_t>(plan.workers), n_blocks);
  for (size_t w = 0; w < n_workers; ++w) workers.emplace_back(work);
  for (auto& w : workers) w.join();
  if (failure) std::rethrow_exception(failure);
  if (stats != nullptr) *stats = total;
  return result;
}

}  // namespace gql
