// closure(D over S) on the GPU, for a dense n x n row-major matrix in host memory: the host side of
// device/closure_kernels.cuh. A plan picks the kernel design and where the matrix lives:
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
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/closure_kernels.cuh"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/progress_line.hpp"

namespace gql::gpu {

enum class ClosureKernel { global_memory, shared_tiles, register_tiles };
enum class OutOfCore { automatic, on, off };

// A thread's outputs in the register-tiled GEMM: 8x8 or 8x16 (4-byte values at most).
struct RegisterTile {
  int rows = 8;
  int cols = 8;
  friend bool operator==(const RegisterTile&, const RegisterTile&) = default;
  std::string text() const { return std::to_string(rows) + "x" + std::to_string(cols); }
};

struct DeviceClosureOptions {
  ClosureKernel kernel = ClosureKernel::register_tiles;
  int tile = 0;        // k-block edge: 32, 64, 128 or 256 (register_tiles), 32 or 64 (shared_tiles);
                       // 0: the default (resolve_defaults)
  RegisterTile register_tile = {0, 0};  // register_tiles: 8x8 or 8x16; {0, 0}: the default
  int per_thread = 4;  // shared_tiles: entries per thread (tile 32: 1, 2, 4; tile 64: 4, 8)
  bool spread = true;  // shared_tiles: a thread's rows strided (true) or contiguous
  OutOfCore out_of_core = OutOfCore::automatic;
  int streams = 3;     // out of core: streams (at least 2)
  bool dpx = true;     // i32 min-plus policies declaring con_adds: Hopper's add-min instruction
};

struct ClosurePlan {
  ClosureKernel kernel = ClosureKernel::register_tiles;
  int tile = 128;
  RegisterTile register_tile;
  int per_thread = 4;
  bool spread = true;
  bool dpx = false;          // the DPX add-min runs
  bool staged = false;       // the GEMM folds its outputs' old values in last (device::closure::stages_in)
  bool predecessors = false;
  bool out_of_core = false;
  int64_t n = 0;
  int64_t padded = 0;        // in core: rows and columns in device memory
  int64_t super_tile = 0;    // out of core: edge of the streamed tiles
  int streams = 0;
  size_t device_bytes = 0;   // what the plan allocates

  std::string describe() const {
    std::string kernel_text;
    switch (kernel) {
      case ClosureKernel::global_memory: kernel_text = "global-memory kernel, one launch per k"; break;
      case ClosureKernel::shared_tiles:
        kernel_text = "shared-memory 3-stage tiles " + std::to_string(tile) + ", " + std::to_string(per_thread) +
                      " entries per thread " + (spread ? "spread" : "packed");
        break;
      case ClosureKernel::register_tiles:
        kernel_text = "3-stage blocked, k-block " + std::to_string(tile) +
                      ", stages 2-3 register-tiled semiring GEMM (" + register_tile.text() +
                      " per thread, 128x128 per block)" + (dpx ? ", DPX add-min" : "") +
                      (staged ? ", old values staged in shared memory" : "");
        break;
    }
    if (predecessors) kernel_text += ", with predecessors";
    const std::string mib = std::to_string(device_bytes >> 20) + " MiB";
    if (!out_of_core) return kernel_text + "; in core (" + std::to_string(padded) + "^2 padded, " + mib + ")";
    const int64_t tiles = (n + super_tile - 1) / super_tile;
    return kernel_text + "; out of core: super tiles " + std::to_string(super_tile) + " (" + std::to_string(tiles) +
           "x" + std::to_string(tiles) + "), " + std::to_string(streams) + " streams, " + mib + " on the device";
  }
};

namespace detail {

inline int64_t round_up(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

template <class S>
constexpr bool dpx_capable() {
  return std::is_same_v<typename S::value_type, int> && S::monoid == Monoid::min && device::closure::con_adds<S>();
}

}  // namespace detail

// The options for an n x n closure with what they leave at 0 filled in: the shared tiles' tile 64;
// the register tiles' thread tile 8x8 and k-block 256 from n = 16384 on, 128 below, as measured on
// the H200 for fp32 and int32 (docs/performance.md: 8x16 was slower everywhere; a k-block of 256
// 3-5% faster at 16384 and 32768, 2-3% slower at 8192, where fewer k-blocks overlap less).
inline DeviceClosureOptions resolve_defaults(DeviceClosureOptions o, int64_t n) {
  if (o.tile == 0) o.tile = o.kernel == ClosureKernel::shared_tiles ? 64 : n >= 16384 ? 256 : 128;
  if (o.register_tile == RegisterTile{0, 0}) o.register_tile = RegisterTile{8, 8};
  return o;
}

namespace detail {

template <class V>
void check_options(const DeviceClosureOptions& o) {
  const bool registers = o.kernel == ClosureKernel::register_tiles;
  if (o.kernel != ClosureKernel::global_memory && o.tile != 32 && o.tile != 64 &&
      !(registers && (o.tile == 128 || o.tile == 256)))
    throw Error(ErrorKind::usage, "closure on the GPU: tile " + std::to_string(o.tile) + " (32 or 64 are built" +
                                      (registers ? ", and 128 or 256 for register tiles)" : ")"));
  if (registers && !(o.register_tile == RegisterTile{8, 8}) &&
      !(o.register_tile == RegisterTile{8, 16} && sizeof(V) <= 4))
    throw Error(ErrorKind::usage, "closure on the GPU: register tile " + o.register_tile.text() +
                                      " (8x8 is built, and 8x16 for values of 4 bytes or fewer)");
  if (o.kernel == ClosureKernel::shared_tiles) {
    const bool ok = o.tile == 32 ? (o.per_thread == 1 || o.per_thread == 2 || o.per_thread == 4)
                                 : (o.per_thread == 4 || o.per_thread == 8);
    if (!ok)
      throw Error(ErrorKind::usage, "closure on the GPU: per_thread " + std::to_string(o.per_thread) +
                                        " with tile " + std::to_string(o.tile) +
                                        " (tile 32: 1, 2 or 4; tile 64: 4 or 8)");
  }
  if (o.streams < 2) throw Error(ErrorKind::usage, "closure out of core: at least 2 streams");
}

template <class Kernel>
void allow_shared(Kernel kernel, size_t bytes) {
  if (bytes > 48 * 1024)
    GQL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)));
}

// The three stages of k-block kt with the shared-memory tile kernels.
template <class S, class V, int TILE, int PER>
void shared_stages(V* d, int64_t n, int64_t ld, int64_t g0, int64_t kt, bool spread, cudaStream_t s) {
  namespace k = device::closure;
  const int64_t nt = (n + TILE - 1) / TILE;
  const dim3 block(TILE, TILE / PER);
  const size_t one = sizeof(V) * TILE * TILE;
  k::fw_tile_diagonal<S, V, TILE, PER><<<1, block, one, s>>>(d, n, ld, kt, g0, spread);
  GQL_CUDA_CHECK_LAUNCH();
  if (nt == 1) return;
  k::fw_tile_panels<S, V, TILE, PER><<<dim3(static_cast<unsigned>(nt), 2), block, 2 * one, s>>>(d, n, ld, kt, g0, spread);
  GQL_CUDA_CHECK_LAUNCH();
  k::fw_tile_rest<S, V, TILE, PER><<<dim3(static_cast<unsigned>(nt), static_cast<unsigned>(nt)), block, 2 * one, s>>>(
      d, n, ld, kt, g0, spread);
  GQL_CUDA_CHECK_LAUNCH();
}

template <class S, class V, int TILE, int PER>
void allow_shared_stages() {
  namespace k = device::closure;
  const size_t one = sizeof(V) * TILE * TILE;
  allow_shared(k::fw_tile_diagonal<S, V, TILE, PER>, one);
  allow_shared(k::fw_tile_panels<S, V, TILE, PER>, 2 * one);
  allow_shared(k::fw_tile_rest<S, V, TILE, PER>, 2 * one);
}

template <class S, class V, class Tile, bool dpx>
void launch_semiring_gemm(unsigned grid, const device::closure::GemmArgs<V>& g0,
                          const device::closure::GemmArgs<V>& g1, cudaStream_t s) {
  namespace k = device::closure;
  constexpr unsigned staged = k::staged_in_bytes<S, V>();
  static const bool allowed = (allow_shared(k::semiring_gemm<S, V, Tile, dpx>, staged), true);  // once per kernel
  (void)allowed;
  k::semiring_gemm<S, V, Tile, dpx><<<grid, Tile::threads, staged, s>>>(g0, g1);
  GQL_CUDA_CHECK_LAUNCH();
}

// out = agg(in, A (x) B) through the register-tiled kernel (see device::closure::GemmArgs) with
// thread tile Tile; with `second`, its product runs in the same launch.
template <class S, class V, class Tile = device::closure::Tile8x8>
void semiring_gemm(const device::closure::GemmArgs<V>& g, bool dpx, cudaStream_t s,
                   const device::closure::GemmArgs<V>* second = nullptr) {
  namespace k = device::closure;
  const auto tiles = [](const k::GemmArgs<V>& a) { return a.m > 0 && a.q > 0 ? k::gemm_tiles(a.m, a.q) : 0; };
  const int64_t count = tiles(g) + (second ? tiles(*second) : 0);
  if (count == 0) return;
  const unsigned grid = static_cast<unsigned>(count);
  const k::GemmArgs<V>& g1 = second ? *second : g;
  if constexpr (k::staged_in_bytes<S, V>() > 0) {  // 16-byte copies of `in`: every closure product aligns it
    for (const k::GemmArgs<V>* a : {&g, &g1})
      if (reinterpret_cast<uintptr_t>(a->in) % 16 != 0 || a->ldc % 4 != 0)
        throw Error(ErrorKind::usage, "semiring GEMM: the output's rows must start on 16-byte boundaries");
  }
  if constexpr (dpx_capable<S>()) {
    if (dpx) return launch_semiring_gemm<S, V, Tile, true>(grid, g, g1, s);
  }
  launch_semiring_gemm<S, V, Tile, false>(grid, g, g1, s);
}

// s waits for what `from` has done so far.
inline void join(cudaStream_t s, cudaStream_t from, const Event& event) {
  GQL_CUDA_CHECK(cudaEventRecord(event.get(), from));
  GQL_CUDA_CHECK(cudaStreamWaitEvent(s, event.get(), 0));
}

// The register-tiled closure with one k-block of lookahead. Per k-block K (rows and columns
// [k0, k1)): stage 1 closes the diagonal tile with one block of 1024 threads (KB * KB / 1024 entries
// each), stage 2 updates both panels through it in one GEMM launch, stage 3 updates everything else.
// Stage 3 of K is split: the strips of K + 1 (its rows and columns) first, on a second stream that
// then runs stages 1 and 2 of K + 1 at once, while the caller's stream updates the rest, which reads
// only panels of K and writes nothing of K or K + 1. So stages 1 and 2 run beside stage 3 instead
// of between its launches.
template <class S, class V, int KB, class Tile>
void register_closure(V* d, int64_t n, int64_t ld, int64_t g0, bool dpx, cudaStream_t s) {
  namespace k = device::closure;
  // The diagonal tile in shared memory up to 128 x 128; a k-block of 256 closes it with k-blocks of 128.
  constexpr int diagonal_tile = KB < 128 ? KB : 128, per = diagonal_tile * diagonal_tile / 1024;
  const size_t diagonal_bytes = sizeof(V) * diagonal_tile * diagonal_tile;
  if constexpr (KB <= 128) allow_shared(k::fw_tile_diagonal<S, V, KB, per>, diagonal_bytes);
  const int64_t nt = (n + KB - 1) / KB;
  const auto extent = [&](int64_t kt) { return std::min<int64_t>(KB, n - kt * KB); };
  const auto stages_1_2 = [&](int64_t kt, cudaStream_t on) {
    const int64_t k0 = kt * KB, kb = extent(kt);
    if constexpr (KB <= 128) {
      k::fw_tile_diagonal<S, V, KB, per><<<1, dim3(KB, KB / per), diagonal_bytes, on>>>(d, n, ld, kt, g0, true);
      GQL_CUDA_CHECK_LAUNCH();
    } else {
      register_closure<S, V, 128, Tile>(d + k0 * ld + k0, kb, ld, g0 + k0, dpx, on);
    }
    V* row = d + k0 * ld;  // D(K, :)
    V* column = d + k0;    // D(:, K)
    const V* diagonal = row + k0;
    k::GemmArgs<V> row_panel{diagonal, ld, row, ld, row, row, ld, kb, kb, n, g0 + k0, g0 + k0, g0};
    row_panel.skip_cols_lo = k0;
    row_panel.skip_cols_hi = k0 + kb;
    k::GemmArgs<V> column_panel{column, ld, diagonal, ld, column, column, ld, n, kb, kb, g0, g0 + k0, g0 + k0};
    column_panel.skip_rows_lo = k0;
    column_panel.skip_rows_hi = k0 + kb;
    semiring_gemm<S, V, Tile>(row_panel, dpx, on, &column_panel);
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
    const int64_t k0 = kt * KB, kb = extent(kt), k1 = k0 + kb;
    const int64_t kb_next = kt + 1 < nt ? extent(kt + 1) : 0, fixed_hi = k1 + kb_next;  // K and K + 1
    V* row = d + k0 * ld;
    V* column = d + k0;
    join(s, ahead.get(), ready);  // panels of K
    k::GemmArgs<V> rest{column, ld, row, ld, d, d, ld, n, kb, n, g0, g0 + k0, g0};
    rest.skip_rows_lo = rest.skip_cols_lo = k0;
    rest.skip_rows_hi = rest.skip_cols_hi = fixed_hi;
    semiring_gemm<S, V, Tile>(rest, dpx, s);
    GQL_CUDA_CHECK(cudaEventRecord(rest_done[kt % 2].get(), s));
    if (kb_next == 0) break;
    // The strips of K + 1 through K's panels, after the previous rest (which wrote them).
    if (kt > 0) GQL_CUDA_CHECK(cudaStreamWaitEvent(ahead.get(), rest_done[(kt - 1) % 2].get(), 0));
    k::GemmArgs<V> next_rows{column + k1 * ld, ld, row, ld, d + k1 * ld, d + k1 * ld, ld, kb_next, kb, n,
                             g0 + k1, g0 + k0, g0};
    next_rows.skip_cols_lo = k0;
    next_rows.skip_cols_hi = k1;
    k::GemmArgs<V> next_columns{column, ld, row + k1, ld, d + k1, d + k1, ld, n, kb, kb_next, g0, g0 + k0, g0 + k1};
    next_columns.skip_rows_lo = k0;
    next_columns.skip_rows_hi = fixed_hi;
    semiring_gemm<S, V, Tile>(next_rows, dpx, ahead.get(), &next_columns);
    stages_1_2(kt + 1, ahead.get());
  }
  join(s, ahead.get(), ready);  // nothing of `ahead` outlives the call
}

// Calls f.template operator()<Tile>() with the device thread tile of `tile` (checked by check_options).
template <class V, class F>
void with_thread_tile(const RegisterTile& tile, F&& f) {
  if constexpr (sizeof(V) <= 4) {
    if (tile.cols == 16) return f.template operator()<device::closure::Tile8x16>();
  }
  f.template operator()<device::closure::Tile8x8>();
}

template <class S, class V, int TILE, int PER>
void shared_closure(V* d, int64_t n, int64_t ld, int64_t g0, bool spread, cudaStream_t s) {
  allow_shared_stages<S, V, TILE, PER>();
  const int64_t nt = (n + TILE - 1) / TILE;
  for (int64_t kt = 0; kt < nt; ++kt) shared_stages<S, V, TILE, PER>(d, n, ld, g0, kt, spread, s);
}

template <class S, class V>
void global_closure(V* d, int32_t* pred, int64_t n, int64_t ld, int64_t g0, cudaStream_t s) {
  constexpr int threads = 256;
  const dim3 grid(static_cast<unsigned>((n + threads - 1) / threads), static_cast<unsigned>(std::min<int64_t>(n, 65535)));
  for (int64_t k = 0; k < n; ++k) {
    if (pred) device::closure::fw_global_step<S, V, true><<<grid, threads, 0, s>>>(d, pred, n, ld, k, g0);
    else device::closure::fw_global_step<S, V, false><<<grid, threads, 0, s>>>(d, nullptr, n, ld, k, g0);
    GQL_CUDA_CHECK_LAUNCH();
  }
}

}  // namespace detail

// The closure of the n x n block at d (leading dimension ld, at least n rounded up to 128, with that
// many rows allocated) in device memory, in place; g0 is the global id of its first row and column.
template <class S>
void closure_on_device(typename S::value_type* d, int32_t* pred, int64_t n, int64_t ld, int64_t g0,
                       const ClosurePlan& plan, cudaStream_t s) {
  using V = typename S::value_type;
  if (n <= 0) return;
  if (pred || plan.kernel == ClosureKernel::global_memory) return detail::global_closure<S, V>(d, pred, n, ld, g0, s);
  if (plan.kernel == ClosureKernel::register_tiles) {
    detail::with_thread_tile<V>(plan.register_tile, [&]<class Tile>() {
      if (plan.tile == 32) detail::register_closure<S, V, 32, Tile>(d, n, ld, g0, plan.dpx, s);
      else if (plan.tile == 64) detail::register_closure<S, V, 64, Tile>(d, n, ld, g0, plan.dpx, s);
      else if (plan.tile == 128) detail::register_closure<S, V, 128, Tile>(d, n, ld, g0, plan.dpx, s);
      else detail::register_closure<S, V, 256, Tile>(d, n, ld, g0, plan.dpx, s);
    });
    return;
  }
  if (plan.tile == 32) {
    if (plan.per_thread == 1) detail::shared_closure<S, V, 32, 1>(d, n, ld, g0, plan.spread, s);
    else if (plan.per_thread == 2) detail::shared_closure<S, V, 32, 2>(d, n, ld, g0, plan.spread, s);
    else detail::shared_closure<S, V, 32, 4>(d, n, ld, g0, plan.spread, s);
  } else {
    if (plan.per_thread == 4) detail::shared_closure<S, V, 64, 4>(d, n, ld, g0, plan.spread, s);
    else detail::shared_closure<S, V, 64, 8>(d, n, ld, g0, plan.spread, s);
  }
}

// What closure() will do for an n x n matrix under the options and the device memory budget.
template <class S>
ClosurePlan plan_closure(int64_t n, const DeviceClosureOptions& given, bool predecessors) {
  using V = typename S::value_type;
  const DeviceClosureOptions options = resolve_defaults(given, n);
  detail::check_options<V>(options);
  ClosurePlan p;
  p.kernel = predecessors ? ClosureKernel::global_memory : options.kernel;
  p.tile = options.tile;
  p.register_tile = options.register_tile;
  p.per_thread = options.per_thread;
  p.spread = options.spread;
  p.dpx = options.dpx && detail::dpx_capable<S>() && p.kernel == ClosureKernel::register_tiles;
  p.staged = device::closure::stages_in<S, V>() && p.kernel == ClosureKernel::register_tiles;
  p.predecessors = predecessors;
  p.n = n;
  p.padded = detail::round_up(std::max<int64_t>(n, 1), device::closure::gemm_tile);
  const size_t entries = static_cast<size_t>(p.padded) * static_cast<size_t>(p.padded);
  const size_t in_core = entries * (sizeof(V) + (predecessors ? sizeof(int32_t) : 0));
  const size_t available = MemoryBudget::global().available();
  p.out_of_core = options.out_of_core == OutOfCore::on || (options.out_of_core == OutOfCore::automatic && in_core > available);
  if (!p.out_of_core) {
    p.device_bytes = in_core;
    return p;
  }
  if (predecessors)
    throw Error(ErrorKind::oom, "closure with predecessors needs the matrix in device memory (" +
                                    std::to_string(in_core >> 20) + " MiB, " + std::to_string(available >> 20) +
                                    " MiB available)");
  // Three super tiles per stream (the A, B and C of its products), with a tenth kept free.
  p.streams = options.streams;
  const double per_tile = static_cast<double>(available) * 0.9 / (3.0 * p.streams * sizeof(V));
  const int64_t fit = static_cast<int64_t>(std::sqrt(per_tile)) / device::closure::gemm_tile * device::closure::gemm_tile;
  if (fit < device::closure::gemm_tile)
    throw Error(ErrorKind::oom, "closure out of core: " + std::to_string(available >> 20) +
                                    " MiB of device memory cannot hold " + std::to_string(3 * p.streams) +
                                    " tiles of 128 x 128");
  p.super_tile = std::min(fit, p.padded);
  p.device_bytes = static_cast<size_t>(3 * p.streams) * static_cast<size_t>(p.super_tile * p.super_tile) * sizeof(V);
  return p;
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

template <class S>
void closure_out_of_core(typename S::value_type* host, const ClosurePlan& plan, Stream first_lane) {
  using V = typename S::value_type;
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
    for (DeviceBuffer<V>* buffer : {&lanes.back().a, &lanes.back().b, &lanes.back().c}) {
      device::closure::fill<V><<<256, 256, 0, lanes.back().stream.get()>>>(buffer->data(), static_cast<long long>(tile_entries), S::zero());
      GQL_CUDA_CHECK_LAUNCH();
    }
  }
  const auto sync_all = [&] {
    for (Lane& lane : lanes) lane.stream.synchronize();
  };
  const auto gemm = [&](const V* a, const V* b, const V* in, V* out, int64_t m, int64_t p, int64_t q, int64_t gi,
                        int64_t gk, int64_t gj, cudaStream_t s) {
    with_thread_tile<V>(plan.register_tile, [&]<class Tile>() {
      semiring_gemm<S, V, Tile>(device::closure::GemmArgs<V>{a, st, b, st, in, out, st, m, p, q, gi, gk, gj}, plan.dpx, s);
    });
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
    closure_on_device<S>(first.a.data(), nullptr, ek, st, gK, plan, first.stream.get());
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
  if (D.n_cols() != n)
    throw Error(ErrorKind::usage, "closure: the matrix is " + std::to_string(n) + " x " + std::to_string(D.n_cols()) +
                                      ", not square");
  if (pred && (pred->n_rows() != n || pred->n_cols() != n))
    throw Error(ErrorKind::usage, "closure: the predecessor matrix's shape differs from the matrix's");
  ClosurePlan plan = plan_closure<S>(n, options, pred != nullptr);
  if (n == 0) return plan;
  V* host = reinterpret_cast<V*>(D.data().data());
  if (plan.out_of_core) {
    detail::closure_out_of_core<S>(host, plan, std::move(stream));
    return plan;
  }
  const cudaStream_t s = stream.get();
  const int64_t ld = plan.padded;
  const size_t entries = static_cast<size_t>(ld) * static_cast<size_t>(ld);
  DeviceBuffer<V> d(entries);
  device::closure::fill<V><<<1024, 256, 0, s>>>(d.data(), static_cast<long long>(entries), S::zero());
  GQL_CUDA_CHECK_LAUNCH();
  detail::copy_block(d.data(), ld, host, n, n, n, cudaMemcpyHostToDevice, s);
  DeviceBuffer<int32_t> p(pred ? entries : 0);
  if (pred) {
    device::closure::fill<int32_t><<<1024, 256, 0, s>>>(p.data(), static_cast<long long>(entries), -1);
    GQL_CUDA_CHECK_LAUNCH();
    detail::copy_block(p.data(), ld, pred->data().data(), n, n, n, cudaMemcpyHostToDevice, s);
  }
  closure_on_device<S>(d.data(), pred ? p.data() : nullptr, n, ld, 0, plan, s);
  detail::copy_block(host, n, d.data(), ld, n, n, cudaMemcpyDeviceToHost, s);
  if (pred) detail::copy_block(pred->data().data(), n, p.data(), ld, n, n, cudaMemcpyDeviceToHost, s);
  stream.synchronize();
  return plan;
}

}  // namespace gql::gpu
