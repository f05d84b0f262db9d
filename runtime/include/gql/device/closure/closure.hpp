// closure(D over S) on the GPU, for a dense n x n row-major matrix in host memory: the host driver of
// device/closure/closure_kernels.cuh, launching them through a kernel table (closure_kernel_table.hpp), so
// that it compiles with nvcc or a host compiler (the JIT's, with kernels from NVRTC). A plan
// (closure_plan.hpp) picks the kernel design and where the matrix lives:
//
//   in core       the matrix, padded to a multiple of 128 rows and columns, sits in device memory;
//                 per k-block: the diagonal tile (a shared-memory kernel; a k-block of 256 closes
//                 it as a closure of its own with k-blocks of 128), then its block row and column
//                 and then the rest (shared-memory tiles, or two launches of the register-tiled
//                 semiring GEMM: both panels in one, everything else in the other).
//   out of core   when the padded matrix exceeds the device memory budget (MemoryBudget, capped by
//                 GQL_DEVICE_MEMORY_LIMIT) or the schedule says so: the same three stages over super
//                 tiles of S x S entries (S from the budget), each streamed from pinned host memory
//                 (the caller's, registered in place when it is not pinned) on >= 2 streams, so one
//                 stream's copies overlap another's products. Stage 1 closes the diagonal super tile
//                 in core; stages 2 and 3 are semiring GEMMs, out = agg(in, A (x) B). A progress
//                 line (gql/progress_line.hpp) says which super tile row runs, on a terminal.
//
// Predecessors (paths) run the global-memory kernel in core: pred(i, j) = pred(k, j) whenever
// D(i, j) strictly improves through k (as gql::cpu::closure).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/closure/closure_kernel_table.hpp"
#include "gql/device/closure/closure_plan.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/progress_line.hpp"

#if defined(__CUDACC__)
#include "gql/device/closure/closure_instances.hpp"
#else
#include "gql/device/jit_kernels.hpp"
#endif

namespace gql::gpu {

namespace detail {

// The closure kernels of the semiring S: the templates instantiated here (nvcc), or those the JIT
// bound from NVRTC's build (a host compiler).
template <class S>
const ClosureKernelTable<typename S::value_type>& closure_kernel_table() {
#if defined(__CUDACC__)
  static const ClosureKernelTable<typename S::value_type> table = closure_kernels<S>();
  return table;
#else
  return registered_closure_kernels<S>();
#endif
}

// The three stages of k-block kt with the shared-memory tile kernels of (tile, per).
template <class V>
void shared_stages(const ClosureKernelTable<V>& k, int tile, int per, V* d, int64_t n, int64_t ld, int64_t g0,
                   int64_t kt, bool spread, cudaStream_t s) {
  const auto& stages = k.tiles.at(static_cast<size_t>(closure_tile_shape_index(tile, per)));
  const unsigned nt = static_cast<unsigned>((n + tile - 1) / tile);
  const dim3 block(static_cast<unsigned>(tile), static_cast<unsigned>(tile / per));
  const size_t one = sizeof(V) * static_cast<size_t>(tile * tile);
  launch_grid(stages.diagonal, dim3(1), block, one, s, d, n, ld, kt, g0, spread);
  if (nt == 1) return;
  launch_grid(stages.panels, dim3(nt, 2), block, 2 * one, s, d, n, ld, kt, g0, spread);
  launch_grid(stages.rest, dim3(nt, nt), block, 2 * one, s, d, n, ld, kt, g0, spread);
}

// out = agg(in, A (x) B) through the register-tiled kernel (see device::closure::GemmArgs) with
// the thread tile of index `thread_tile`; with `second`, its product runs in the same launch.
template <class V>
void semiring_gemm(const ClosureKernelTable<V>& k, const device::closure::GemmArgs<V>& g, bool dpx, int thread_tile,
                   cudaStream_t s, const device::closure::GemmArgs<V>* second = nullptr) {
  namespace dc = device::closure;
  const auto tiles = [](const dc::GemmArgs<V>& a) { return a.m > 0 && a.q > 0 ? dc::gemm_tiles(a.m, a.q) : 0; };
  const int64_t count = tiles(g) + (second ? tiles(*second) : 0);
  if (count == 0) return;
  const dc::GemmArgs<V>& g1 = second ? *second : g;
  if (k.gemm_shared_bytes > 0) {  // 16-byte copies of `in`: every closure product aligns it
    for (const dc::GemmArgs<V>* a : {&g, &g1})
      if (reinterpret_cast<uintptr_t>(a->in) % 16 != 0 || a->ldc % 4 != 0)
        throw Error(ErrorKind::usage, "semiring GEMM: the output's rows must start on 16-byte boundaries");
  }
  const size_t tile = static_cast<size_t>(thread_tile);
  launch_grid(k.gemm[dpx && k.dpx_capable][tile], dim3(static_cast<unsigned>(count)),
              dim3(static_cast<unsigned>(thread_tile_threads(thread_tile))), k.gemm_shared_bytes, s, g, g1);
}

// s waits for what `from` has done so far.
inline void join(cudaStream_t s, cudaStream_t from, const Event& event) {
  GQL_CUDA_CHECK(cudaEventRecord(event.get(), from));
  GQL_CUDA_CHECK(cudaStreamWaitEvent(s, event.get(), 0));
}

// The register-tiled closure with k-blocks of kb and one k-block of lookahead. Per k-block K (rows
// and columns [k0, k1)): stage 1 closes the diagonal tile with one block of 1024 threads (KB * KB /
// 1024 entries each), stage 2 updates both panels through it in one GEMM launch, stage 3 updates
// everything else. Stage 3 of K is split: the strips of K + 1 (its rows and columns) first, on a
// second stream that then runs stages 1 and 2 of K + 1 at once, while the caller's stream updates
// the rest, which reads only panels of K and writes nothing of K or K + 1. So stages 1 and 2 run
// beside stage 3 instead of between its launches.
template <class V>
void register_closure(const ClosureKernelTable<V>& k, int kb_size, int thread_tile, V* d, int64_t n, int64_t ld,
                      int64_t g0, bool dpx, cudaStream_t s) {
  namespace dc = device::closure;
  const ClosureTileShape diagonal_shape = register_diagonal_shape(kb_size);
  const auto& diagonal_kernel =
      k.tiles.at(static_cast<size_t>(closure_tile_shape_index(diagonal_shape.tile, diagonal_shape.per_thread))).diagonal;
  const size_t diagonal_bytes = sizeof(V) * static_cast<size_t>(diagonal_shape.tile * diagonal_shape.tile);
  const int64_t nt = (n + kb_size - 1) / kb_size;
  const auto extent = [&](int64_t kt) { return std::min<int64_t>(kb_size, n - kt * kb_size); };
  const auto gemm = [&](const dc::GemmArgs<V>& g, cudaStream_t on, const dc::GemmArgs<V>* second = nullptr) {
    semiring_gemm(k, g, dpx, thread_tile, on, second);
  };
  const auto stages_1_2 = [&](int64_t kt, cudaStream_t on) {
    const int64_t k0 = kt * kb_size, kb = extent(kt);
    if (kb_size <= 128) {
      launch_grid(diagonal_kernel, dim3(1),
                  dim3(static_cast<unsigned>(kb_size), static_cast<unsigned>(kb_size / diagonal_shape.per_thread)),
                  diagonal_bytes, on, d, n, ld, kt, g0, true);
    } else {
      register_closure(k, 128, thread_tile, d + k0 * ld + k0, kb, ld, g0 + k0, dpx, on);
    }
    V* row = d + k0 * ld;  // D(K, :)
    V* column = d + k0;    // D(:, K)
    const V* diagonal = row + k0;
    dc::GemmArgs<V> row_panel{diagonal, ld, row, ld, row, row, ld, kb, kb, n, g0 + k0, g0 + k0, g0};
    row_panel.skip_cols_lo = k0;
    row_panel.skip_cols_hi = k0 + kb;
    dc::GemmArgs<V> column_panel{column, ld, diagonal, ld, column, column, ld, n, kb, kb, g0, g0 + k0, g0 + k0};
    column_panel.skip_rows_lo = k0;
    column_panel.skip_rows_hi = k0 + kb;
    gemm(row_panel, on, &column_panel);
  };
  if (nt == 1) {
    stages_1_2(0, s);
    return;
  }
  Stream ahead;
  Event entry, ready, rest_done[2];
  join(ahead.get(), s, entry);
  stages_1_2(0, ahead.get());
  for (int64_t kt = 0; kt < nt; ++kt) {
    const int64_t k0 = kt * kb_size, kb = extent(kt), k1 = k0 + kb;
    const int64_t kb_next = kt + 1 < nt ? extent(kt + 1) : 0, fixed_hi = k1 + kb_next;  // K and K + 1
    V* row = d + k0 * ld;
    V* column = d + k0;
    join(s, ahead.get(), ready);  // panels of K
    dc::GemmArgs<V> rest{column, ld, row, ld, d, d, ld, n, kb, n, g0, g0 + k0, g0};
    rest.skip_rows_lo = rest.skip_cols_lo = k0;
    rest.skip_rows_hi = rest.skip_cols_hi = fixed_hi;
    gemm(rest, s);
    GQL_CUDA_CHECK(cudaEventRecord(rest_done[kt % 2].get(), s));
    if (kb_next == 0) break;
    // The strips of K + 1 through K's panels, after the previous rest (which wrote them).
    if (kt > 0) GQL_CUDA_CHECK(cudaStreamWaitEvent(ahead.get(), rest_done[(kt - 1) % 2].get(), 0));
    dc::GemmArgs<V> next_rows{column + k1 * ld, ld, row, ld, d + k1 * ld, d + k1 * ld, ld, kb_next, kb, n,
                              g0 + k1, g0 + k0, g0};
    next_rows.skip_cols_lo = k0;
    next_rows.skip_cols_hi = k1;
    dc::GemmArgs<V> next_columns{column, ld, row + k1, ld, d + k1, d + k1, ld, n, kb, kb_next, g0, g0 + k0, g0 + k1};
    next_columns.skip_rows_lo = k0;
    next_columns.skip_rows_hi = fixed_hi;
    gemm(next_rows, ahead.get(), &next_columns);
    stages_1_2(kt + 1, ahead.get());
  }
  join(s, ahead.get(), ready);  // nothing of `ahead` outlives the call
}

template <class V>
void global_closure(const ClosureKernelTable<V>& k, V* d, int32_t* pred, int64_t n, int64_t ld, int64_t g0,
                    cudaStream_t s) {
  constexpr unsigned threads = 256;
  const dim3 grid(static_cast<unsigned>((n + threads - 1) / threads), static_cast<unsigned>(std::min<int64_t>(n, 65535)));
  for (int64_t step = 0; step < n; ++step)
    launch_grid(k.global_step[pred != nullptr], grid, dim3(threads), 0, s, d, pred, n, ld, step, g0);
}

}  // namespace detail

// The closure of the n x n block at d (leading dimension ld, at least n rounded up to 128, with that
// many rows allocated) in device memory, in place, with the kernels of `k`; g0 is the global id of
// its first row and column.
template <class V>
void closure_on_device(const ClosureKernelTable<V>& k, V* d, int32_t* pred, int64_t n, int64_t ld, int64_t g0,
                       const ClosurePlan& plan, cudaStream_t s) {
  if (n <= 0) return;
  if (pred || plan.kernel == ClosureKernel::global_memory) return detail::global_closure(k, d, pred, n, ld, g0, s);
  if (plan.kernel == ClosureKernel::register_tiles) {
    const int thread_tile = gpu_thread_tile_index(plan.register_tile.rows, plan.register_tile.cols);
    return detail::register_closure(k, plan.tile, thread_tile, d, n, ld, g0, plan.dpx, s);
  }
  const int64_t nt = (n + plan.tile - 1) / plan.tile;
  for (int64_t kt = 0; kt < nt; ++kt)
    detail::shared_stages(k, plan.tile, plan.per_thread, d, n, ld, g0, kt, plan.spread, s);
}

// The same with the semiring S's kernels.
template <class S>
void closure_on_device(typename S::value_type* d, int32_t* pred, int64_t n, int64_t ld, int64_t g0,
                       const ClosurePlan& plan, cudaStream_t s) {
  closure_on_device(detail::closure_kernel_table<S>(), d, pred, n, ld, g0, plan, s);
}

// What closure() will do for an n x n matrix over S under the options and the device memory budget.
template <class S>
ClosurePlan plan_closure(int64_t n, const DeviceClosureOptions& options, bool predecessors) {
  using V = typename S::value_type;
  return plan_closure(n, options, predecessors, sizeof(V), device::closure::dpx_capable<S>(),
                      device::closure::stages_in<S, V>());
}

namespace detail {

// Pins the caller's host memory in place for the duration (unless it already is pinned).
class PinnedScope {
 public:
  PinnedScope(void* pointer, size_t bytes) : pointer_(pointer) {
    cudaPointerAttributes attributes{};
    if (cudaPointerGetAttributes(&attributes, pointer) == cudaSuccess && attributes.type == cudaMemoryTypeHost) return;
    (void)cudaGetLastError();  // an unregistered pointer may leave an error behind on older drivers
    registered_ = cudaHostRegister(pointer, bytes, cudaHostRegisterDefault) == cudaSuccess;
    if (!registered_) (void)cudaGetLastError();  // pageable copies still work, only slower
  }
  ~PinnedScope() {
    if (registered_) cudaHostUnregister(pointer_);
  }
  PinnedScope(const PinnedScope&) = delete;
  PinnedScope& operator=(const PinnedScope&) = delete;

 private:
  void* pointer_;
  bool registered_ = false;
};

// Copies a rows x cols block between host (leading dimension host_ld) and device (device_ld).
template <class V>
void copy_block(V* dst, int64_t dst_ld, const V* src, int64_t src_ld, int64_t rows, int64_t cols, cudaMemcpyKind kind,
                cudaStream_t s) {
  GQL_CUDA_CHECK(cudaMemcpy2DAsync(dst, static_cast<size_t>(dst_ld) * sizeof(V), src,
                                   static_cast<size_t>(src_ld) * sizeof(V), static_cast<size_t>(cols) * sizeof(V),
                                   static_cast<size_t>(rows), kind, s));
}

// `count` entries at `data` set to `value`.
template <class T>
void fill_on_device(const KernelHandle<T*, long long, T>& fill, T* data, size_t count, T value, unsigned blocks,
                    cudaStream_t s) {
  launch_grid(fill, dim3(blocks), dim3(256), 0, s, data, static_cast<long long>(count), value);
}

template <class V>
void closure_out_of_core(const ClosureKernelTable<V>& k, V* host, const ClosurePlan& plan, Stream first_lane) {
  const int64_t n = plan.n, st = plan.super_tile, ns = (n + st - 1) / st;
  const auto extent = [&](int64_t t) { return std::min(st, n - t * st); };
  const auto at = [&](int64_t r, int64_t c) { return host + r * st * n + c * st; };
  PinnedScope pinned(host, static_cast<size_t>(n) * static_cast<size_t>(n) * sizeof(V));

  struct Lane {
    Stream stream;
    DeviceBuffer<V> a, b, c;
  };
  std::vector<Lane> lanes;
  const size_t tile_entries = static_cast<size_t>(st) * static_cast<size_t>(st);
  for (int i = 0; i < plan.streams; ++i) {
    lanes.push_back(Lane{i == 0 ? std::move(first_lane) : Stream(), DeviceBuffer<V>(tile_entries), DeviceBuffer<V>(tile_entries), DeviceBuffer<V>(tile_entries)});
    // Padding is never read into a real entry; filled once so no buffer holds indeterminate values.
    for (DeviceBuffer<V>* buffer : {&lanes.back().a, &lanes.back().b, &lanes.back().c})
      fill_on_device(k.fill, buffer->data(), tile_entries, k.zero, 256, lanes.back().stream.get());
  }
  const auto sync_all = [&] {
    for (Lane& lane : lanes) lane.stream.synchronize();
  };
  const int thread_tile = gpu_thread_tile_index(plan.register_tile.rows, plan.register_tile.cols);
  const auto gemm = [&](const V* a, const V* b, const V* in, V* out, int64_t m, int64_t p, int64_t q, int64_t gi,
                        int64_t gk, int64_t gj, cudaStream_t s) {
    semiring_gemm(k, device::closure::GemmArgs<V>{a, st, b, st, in, out, st, m, p, q, gi, gk, gj}, plan.dpx,
                  thread_tile, s);
  };
  Event diagonal_done;
  sync_all();
  ProgressLine progress("closure out of core");
  for (int64_t K = 0; K < ns; ++K) {
    progress.detail("super tile row " + std::to_string(K + 1) + " of " + std::to_string(ns));
    const int64_t ek = extent(K), gK = K * st;
    // Stage 1: the diagonal super tile, closed in core in lane 0's A.
    Lane& first = lanes[0];
    copy_block(first.a.data(), st, at(K, K), n, ek, ek, cudaMemcpyHostToDevice, first.stream.get());
    closure_on_device(k, first.a.data(), nullptr, ek, st, gK, plan, first.stream.get());
    copy_block(at(K, K), n, first.a.data(), st, ek, ek, cudaMemcpyDeviceToHost, first.stream.get());
    diagonal_done.record(first.stream);
    // Stage 2: D(K, J) ⊕= D(K, K) D(K, J) and D(I, K) ⊕= D(I, K) D(K, K), into B from C.
    int64_t turn = 0;
    for (int64_t t = 0; t < ns; ++t) {
      if (t == K) continue;
      const int64_t et = extent(t);
      for (int side = 0; side < 2; ++side) {
        Lane& lane = lanes[static_cast<size_t>(turn++ % plan.streams)];
        const cudaStream_t s = lane.stream.get();
        diagonal_done.wait_on(lane.stream);
        const bool row = side == 0;
        V* block = row ? at(K, t) : at(t, K);
        const int64_t rows = row ? ek : et, cols = row ? et : ek;
        copy_block(lane.c.data(), st, block, n, rows, cols, cudaMemcpyHostToDevice, s);
        if (row) gemm(first.a.data(), lane.c.data(), lane.c.data(), lane.b.data(), ek, ek, et, gK, gK, t * st, s);
        else gemm(lane.c.data(), first.a.data(), lane.c.data(), lane.b.data(), et, ek, ek, t * st, gK, gK, s);
        copy_block(block, n, lane.b.data(), st, rows, cols, cudaMemcpyDeviceToHost, s);
      }
    }
    sync_all();
    // Stage 3: D(I, J) ⊕= D(I, K) D(K, J), each block row I on one lane.
    turn = 0;
    for (int64_t I = 0; I < ns; ++I) {
      if (I == K) continue;
      Lane& lane = lanes[static_cast<size_t>(turn++ % plan.streams)];
      const cudaStream_t s = lane.stream.get();
      const int64_t ei = extent(I);
      copy_block(lane.a.data(), st, at(I, K), n, ei, ek, cudaMemcpyHostToDevice, s);
      for (int64_t J = 0; J < ns; ++J) {
        if (J == K) continue;
        const int64_t ej = extent(J);
        copy_block(lane.c.data(), st, at(I, J), n, ei, ej, cudaMemcpyHostToDevice, s);
        copy_block(lane.b.data(), st, at(K, J), n, ek, ej, cudaMemcpyHostToDevice, s);
        gemm(lane.a.data(), lane.b.data(), lane.c.data(), lane.c.data(), ei, ek, ej, I * st, gK, J * st, s);
        copy_block(at(I, J), n, lane.c.data(), st, ei, ej, cudaMemcpyDeviceToHost, s);
      }
    }
    sync_all();
  }
}

}  // namespace detail

// The closure under `plan` of the plan.n x plan.n row-major matrix at `host` in place, with
// predecessors when `pred` (as many entries) is given, on `stream` (out of core: its first lane),
// with the kernels of `k`. Returns when done.
template <class V>
void closure_in_place(const ClosureKernelTable<V>& k, V* host, int32_t* pred, const ClosurePlan& plan, Stream stream) {
  const int64_t n = plan.n;
  if (n == 0) return;
  if (plan.out_of_core) return detail::closure_out_of_core(k, host, plan, std::move(stream));
  const cudaStream_t s = stream.get();
  const int64_t ld = plan.padded;
  const size_t entries = static_cast<size_t>(ld) * static_cast<size_t>(ld);
  DeviceBuffer<V> d(entries);
  detail::fill_on_device(k.fill, d.data(), entries, k.zero, 1024, s);
  detail::copy_block(d.data(), ld, host, n, n, n, cudaMemcpyHostToDevice, s);
  DeviceBuffer<int32_t> p(pred ? entries : 0);
  if (pred) {
    detail::fill_on_device(k.fill_predecessors, p.data(), entries, -1, 1024, s);
    detail::copy_block(p.data(), ld, pred, n, n, n, cudaMemcpyHostToDevice, s);
  }
  closure_on_device(k, d.data(), pred ? p.data() : nullptr, n, ld, 0, plan, s);
  detail::copy_block(host, n, d.data(), ld, n, n, cudaMemcpyDeviceToHost, s);
  if (pred) detail::copy_block(pred, n, p.data(), ld, n, n, cudaMemcpyDeviceToHost, s);
  stream.synchronize();
}

namespace detail {

inline void check_closure_shape(int64_t rows, int64_t cols) {
  if (rows != cols)
    throw Error(ErrorKind::usage,
                "closure: the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) + ", not square");
}

}  // namespace detail

// The in-core closure under `plan` of the n x n row-major matrix at `d` in device memory (leading
// dimension n), in place, on `stream`: where n is a multiple of 128 the kernels run on it as it lies;
// else on a padded copy in the pool's scratch, copied back. No host memory is touched.
template <class V>
void closure_of_device_matrix(const ClosureKernelTable<V>& k, V* d, const ClosurePlan& plan, const Stream& stream) {
  const int64_t n = plan.n;
  if (n == 0) return;
  if (plan.out_of_core || plan.predecessors)
    throw Error(ErrorKind::internal, "closure of a device matrix: in core and without predecessors only");
  const cudaStream_t s = stream.get();
  const int64_t ld = plan.padded;
  if (ld == n) return closure_on_device(k, d, nullptr, n, ld, 0, plan, s);
  const size_t entries = static_cast<size_t>(ld) * static_cast<size_t>(ld);
  StreamBuffer<V> padded(entries, stream);
  detail::fill_on_device(k.fill, padded.data(), entries, k.zero, 1024, s);
  detail::copy_block(padded.data(), ld, d, n, n, n, cudaMemcpyDeviceToDevice, s);
  closure_on_device(k, padded.data(), nullptr, n, ld, 0, plan, s);
  detail::copy_block(d, n, padded.data(), ld, n, n, cudaMemcpyDeviceToDevice, s);
}

// The in-core closure with predecessors under `plan` of the n x n row-major matrix at `d` in device
// memory (leading dimension n), in place, into the n x n predecessors at `pred`, which it starts from
// the matrix's edges (as common::initial_predecessors): the global-memory kernel reads any leading
// dimension, so nothing is padded or copied, and no host memory is touched.
template <class V>
void closure_paths_of_device_matrix(const ClosureKernelTable<V>& k, V* d, int32_t* pred, const ClosurePlan& plan,
                                    const Stream& stream) {
  const int64_t n = plan.n;
  if (n == 0) return;
  if (plan.out_of_core || !plan.predecessors)
    throw Error(ErrorKind::internal, "closure paths of a device matrix: in core and with predecessors only");
  launch_grid(k.initial_predecessors, dim3(1024), dim3(256), 0, stream.get(), static_cast<const V*>(d), pred,
              static_cast<device::closure::index>(n), static_cast<device::closure::index>(n));
  detail::global_closure(k, d, pred, n, n, 0, stream.get());
}

// The library holds the driver for these value types (runtime/src/cuda/closure_driver.cpp), so that
// code calling a closure only compiles the few lines of closure() below (a second of the JIT's host
// compile otherwise).
#define GQL_CLOSURE_VALUE_TYPES(X) X(bool) X(int32_t) X(int64_t) X(uint32_t) X(uint64_t) X(float) X(double)
#define GQL_CLOSURE_DRIVER(V)                                                                                 \
  extern template void closure_in_place<V>(const ClosureKernelTable<V>&, V*, int32_t*, const ClosurePlan&, Stream); \
  extern template void closure_of_device_matrix<V>(const ClosureKernelTable<V>&, V*, const ClosurePlan&,           \
                                                   const Stream&);                                                \
  extern template void closure_paths_of_device_matrix<V>(const ClosureKernelTable<V>&, V*, int32_t*,               \
                                                         const ClosurePlan&, const Stream&);
GQL_CLOSURE_VALUE_TYPES(GQL_CLOSURE_DRIVER)
#undef GQL_CLOSURE_DRIVER

// closure(D over S) on the GPU in place, as gql::cpu::closure (pred from initial_predecessors, updated
// along when given); runs on `stream` (out of core: its first lane). Returns the plan that ran.
template <class S, class T>
ClosurePlan closure(Matrix<T>& D, const DeviceClosureOptions& options = {}, Matrix<int32_t>* pred = nullptr,
                    Stream stream = Stream()) {
  using V = typename S::value_type;
  static_assert(sizeof(storage_t<T>) == sizeof(V) &&
                    (std::is_same_v<storage_t<T>, V> || std::is_same_v<T, V>),
                "closure: the matrix holds the semiring's values");
  const int64_t n = D.n_rows();
  detail::check_closure_shape(n, D.n_cols());
  if (pred && (pred->n_rows() != n || pred->n_cols() != n))
    throw Error(ErrorKind::usage, "closure: the predecessor matrix's shape differs from the matrix's");
  const ClosurePlan plan = plan_closure<S>(n, options, pred != nullptr);
  if (n > 0)
    closure_in_place(detail::closure_kernel_table<S>(), reinterpret_cast<V*>(D.data().data()),
                     pred ? pred->data().data() : nullptr, plan, std::move(stream));
  return plan;
}

}  // namespace gql::gpu
