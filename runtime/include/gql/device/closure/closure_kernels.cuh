// Device kernels of closure(D over S) on the GPU: blocked Floyd-Warshall in three stages per k-block
// (the diagonal tile; its block row and block column; everything else), for any semiring policy S
// (gql/semiring.hpp). Three designs:
//
//   fw_global_step         the plain global-memory kernel, one launch per k (optionally with
//                          predecessors, so users can read paths).
//   fw_tile_{diagonal,panels,rest}
//                          the shared-memory design: TILE x TILE tiles in shared memory, each thread
//                          owning PER entries of its tile, rows `spread` (strided by TILE / PER) or
//                          packed (contiguous).
//   semiring_gemm          stages 2 and 3 as a register-tiled semiring "GEMM" (SGEMM's shape): 128 x 128
//                          outputs per block, 8 x 8 per thread (256 threads) or 8 x 16 (128 threads)
//                          held in registers over the whole k-block while the intermediates pass
//                          through double-buffered shared memory 8 at a time, out = agg(in, A (x) B).
//                          The out-of-core driver uses it for all of its panel products.
//
// Every kernel bounds the intermediate k by the real size (padding never feeds a real entry, so any
// zero works), and passes global vertex ids to con (positional operators). Only semiring.hpp is
// included (through closure_shapes.cuh), so NVRTC compiles this header as it is.
#pragma once

#include "gql/device/closure/closure_shapes.cuh"

namespace gql::device::closure {

template <class T>
__global__ void fill(T* data, index count, T value) {
  for (index i = blockIdx.x * static_cast<index>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index>(gridDim.x) * blockDim.x)
    data[i] = value;
}

// pred(i, j) = i where D(i, j) is an edge (not S::zero()) and i != j, otherwise -1, over the n x n
// matrix at d (leading dimension ld; pred's too): the predecessors a closure with paths starts from,
// as gql::common::initial_predecessors makes them on the host.
template <class S, class T>
__global__ void initial_predecessors(const T* d, int* pred, index n, index ld) {
  for (index e = blockIdx.x * static_cast<index>(blockDim.x) + threadIdx.x; e < n * n;
       e += static_cast<index>(gridDim.x) * blockDim.x) {
    const index i = e / n, j = e % n;
    pred[i * ld + j] = i != j && d[i * ld + j] != S::zero() ? static_cast<int>(i) : -1;
  }
}

// ---- the global-memory design ----------------------------------------------------------------------

// D(i, j) = agg(D(i, j), con(D(i, k), D(k, j))) for all i, j < n; pred(i, j) = pred(k, j) where the
// entry strictly changes. Row k and column k do not change at step k for idempotent semirings, so
// the entries read are those of the step.
template <class S, class T, bool with_pred>
__global__ void fw_global_step(T* d, int* pred, index n, index ld, index k, index g0) {
  const index j = blockIdx.x * static_cast<index>(blockDim.x) + threadIdx.x;
  if (j >= n) return;
  const T dkj = d[k * ld + j];
  for (index i = blockIdx.y; i < n; i += gridDim.y) {
    const T x = d[i * ld + j];
    const T v = S::agg(x, S::con(d[i * ld + k], dkj, g0 + i, g0 + k, g0 + j));
    if constexpr (with_pred) {
      if (v != x) {
        d[i * ld + j] = v;
        pred[i * ld + j] = pred[k * ld + j];
      }
    } else {
      d[i * ld + j] = v;
    }
  }
}

// ---- the shared-memory design ----------------------------------------------------------------------

// Block (TILE, TILE / PER) threads; thread (x, y) owns column x of rows tile_row(r, y), r < PER.
template <int TILE, int PER>
__device__ __forceinline__ int tile_row(int r, int y, bool spread) {
  return spread ? y + r * (TILE / PER) : y * PER + r;
}

template <class T, int TILE, int PER>
__device__ __forceinline__ void load_tile(T* tile, const T* d, index ld, index r0, index c0, bool spread) {
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int row = tile_row<TILE, PER>(r, threadIdx.y, spread);
    tile[row * TILE + threadIdx.x] = d[(r0 + row) * ld + c0 + threadIdx.x];
  }
}

template <class T, int TILE, int PER>
__device__ __forceinline__ void store_tile(const T* tile, T* d, index ld, index r0, index c0, bool spread) {
#pragma unroll
  for (int r = 0; r < PER; ++r) {
    const int row = tile_row<TILE, PER>(r, threadIdx.y, spread);
    d[(r0 + row) * ld + c0 + threadIdx.x] = tile[row * TILE + threadIdx.x];
  }
}

// X ⊕= Y ⊗ Z within shared memory, one k at a time; X may be Y or Z (stages 1 and 2), so each step
// reads all its operands before any thread writes. (gi, gk, gj): global ids of X's first row, of the
// first intermediate and of X's first column.
template <class S, class T, int TILE, int PER>
__device__ __forceinline__ void tile_closure_steps(T* x, const T* y, const T* z, int kb, bool spread, index gi,
                                                   index gk, index gj) {
  const int col = threadIdx.x;
  for (int k = 0; k < kb; ++k) {
    T v[PER];
#pragma unroll
    for (int r = 0; r < PER; ++r) {
      const int row = tile_row<TILE, PER>(r, threadIdx.y, spread);
      v[r] = S::agg(x[row * TILE + col], S::con(y[row * TILE + k], z[k * TILE + col], gi + row, gk + k, gj + col));
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < PER; ++r) x[tile_row<TILE, PER>(r, threadIdx.y, spread) * TILE + col] = v[r];
    __syncthreads();
  }
}

// Stage 1: the diagonal tile of k-block kt, closed in place.
template <class S, class T, int TILE, int PER>
__global__ void fw_tile_diagonal(T* d, index n, index ld, index kt, index g0, bool spread) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* tile = reinterpret_cast<T*>(shared_bytes);
  const index k0 = kt * TILE;
  const int kb = static_cast<int>(n - k0 < TILE ? n - k0 : TILE);
  load_tile<T, TILE, PER>(tile, d, ld, k0, k0, spread);
  __syncthreads();
  tile_closure_steps<S, T, TILE, PER>(tile, tile, tile, kb, spread, g0 + k0, g0 + k0, g0 + k0);
  store_tile<T, TILE, PER>(tile, d, ld, k0, k0, spread);
}

// Stage 2: the tiles of block row kt (blockIdx.y == 0) and block column kt (blockIdx.y == 1), each
// updated through the closed diagonal tile.
template <class S, class T, int TILE, int PER>
__global__ void fw_tile_panels(T* d, index n, index ld, index kt, index g0, bool spread) {
  const index t = blockIdx.x;
  if (t == kt) return;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* diag = reinterpret_cast<T*>(shared_bytes);
  T* own = diag + TILE * TILE;
  const index k0 = kt * TILE;
  const int kb = static_cast<int>(n - k0 < TILE ? n - k0 : TILE);
  const bool in_row = blockIdx.y == 0;
  const index r0 = in_row ? k0 : t * TILE, c0 = in_row ? t * TILE : k0;
  load_tile<T, TILE, PER>(diag, d, ld, k0, k0, spread);
  load_tile<T, TILE, PER>(own, d, ld, r0, c0, spread);
  __syncthreads();
  if (in_row) tile_closure_steps<S, T, TILE, PER>(own, diag, own, kb, spread, g0 + r0, g0 + k0, g0 + c0);
  else tile_closure_steps<S, T, TILE, PER>(own, own, diag, kb, spread, g0 + r0, g0 + k0, g0 + c0);
  store_tile<T, TILE, PER>(own, d, ld, r0, c0, spread);
}

// Stage 3: every tile off block row and column kt, from its block-column and block-row tiles in
// shared memory; a thread's PER entries stay in registers over the k-block.
template <class S, class T, int TILE, int PER>
__global__ void fw_tile_rest(T* d, index n, index ld, index kt, index g0, bool spread) {
  const index bi = blockIdx.y, bj = blockIdx.x;
  if (bi == kt || bj == kt) return;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* left = reinterpret_cast<T*>(shared_bytes);  // D(bi, kt)
  T* top = left + TILE * TILE;                    // D(kt, bj)
  const index k0 = kt * TILE, r0 = bi * TILE, c0 = bj * TILE;
  const int kb = static_cast<int>(n - k0 < TILE ? n - k0 : TILE);
  load_tile<T, TILE, PER>(left, d, ld, r0, k0, spread);
  load_tile<T, TILE, PER>(top, d, ld, k0, c0, spread);
  const int col = threadIdx.x;
  T x[PER];
#pragma unroll
  for (int r = 0; r < PER; ++r) x[r] = d[(r0 + tile_row<TILE, PER>(r, threadIdx.y, spread)) * ld + c0 + col];
  __syncthreads();
  for (int k = 0; k < kb; ++k) {
    const T b = top[k * TILE + col];
#pragma unroll
    for (int r = 0; r < PER; ++r) {
      const int row = tile_row<TILE, PER>(r, threadIdx.y, spread);
      x[r] = S::agg(x[r], S::con(left[row * TILE + k], b, g0 + r0 + row, g0 + k0 + k, g0 + c0 + col));
    }
  }
#pragma unroll
  for (int r = 0; r < PER; ++r) d[(r0 + tile_row<TILE, PER>(r, threadIdx.y, spread)) * ld + c0 + col] = x[r];
}

// ---- the register-tiled semiring GEMM (its shapes and arguments: closure_shapes.cuh) --------------

// Blocks per multiprocessor the compiler must leave registers for: two for 4-byte values (8x8:
// 128 registers, 8x16: 255; three blocks of 8x16 spill), one for 8-byte values.
template <class T>
inline constexpr int gemm_min_blocks = sizeof(T) <= 4 ? 2 : 1;
inline constexpr int gemm_a_stride = gemm_tile + 4;  // A's transposed rows, padded: conflict-free stores

// Intermediates per shared-memory stage (8 or 16; 8 for 8-byte types, whose two stages of 16 would
// exceed 48 KB of static shared memory), and unrolled per step of the inner loop (more unrolling lets
// the compiler hoist shared loads, within the 128 registers that keep two blocks on a
// multiprocessor). Both measured in bench/gpu_closure (docs/performance.md).
#ifndef GQL_CLOSURE_GEMM_CHUNK
#define GQL_CLOSURE_GEMM_CHUNK 8
#endif
#ifndef GQL_CLOSURE_GEMM_UNROLL
#define GQL_CLOSURE_GEMM_UNROLL 2
#endif
inline constexpr int gemm_chunk = GQL_CLOSURE_GEMM_CHUNK;
inline constexpr int gemm_unroll = GQL_CLOSURE_GEMM_UNROLL;
static_assert(gemm_chunk == 8 || gemm_chunk == 16, "GQL_CLOSURE_GEMM_CHUNK: 8 or 16");
template <class T>
inline constexpr int chunk_of = sizeof(T) <= 4 ? gemm_chunk : 8;

template <class T>
struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) Quad {
  T v[4];
};

// How an update agg(acc, con(a, b)) is computed:
//   exact    the policy's own agg and con;
//   native   fminf / fmaxf in place of a floating min / max agg (one FMNMX instead of a compare and a
//            select): equal to the policy's `b < a ? b : a` whenever acc is not NaN, and a NaN con
//            leaves acc as it is either way; a block holding a NaN output runs `exact`;
//   dpx      Hopper's add-min (min(a + b, acc) in one instruction) for i32 policies declaring con_adds.
enum class Update { exact, native, dpx };

template <class S, class T>
constexpr bool has_native_agg() {
  return (same_type<T, float> || same_type<T, double>) && (S::monoid == Monoid::min || S::monoid == Monoid::max);
}

template <class S, class T, Update u>
__device__ __forceinline__ T gemm_update(T acc, T a, T b, index i, index k, index j) {
  if constexpr (u == Update::dpx) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmin_s32(a, b, acc);
#else
    return S::agg(acc, S::con(a, b, i, k, j));
#endif
  } else if constexpr (u == Update::native) {
    const T v = S::con(a, b, i, k, j);
    if constexpr (S::monoid == Monoid::min) {
      if constexpr (same_type<T, float>) return fminf(acc, v);
      else return fmin(acc, v);
    } else {
      if constexpr (same_type<T, float>) return fmaxf(acc, v);
      else return fmax(acc, v);
    }
  } else {
    return S::agg(acc, S::con(a, b, i, k, j));
  }
}

template <class T>
struct GemmStages {
  T a[2][chunk_of<T>][gemm_a_stride];  // A's chunk transposed: a[k][i]
  T b[2][chunk_of<T>][gemm_tile];      // B's chunk: b[k][j]
};

// The thread's updates for the first `kcount` intermediates of one stage (all of them when full).
template <class S, class T, class Tile, Update u, bool full>
__device__ __forceinline__ void gemm_stage_updates(T (&acc)[Tile::rows][Tile::cols], const T (*as)[gemm_a_stride],
                                                   const T (*bs)[gemm_tile], int kcount, int tx, int ty, index gi,
                                                   index gk, index gj) {
  // A floating block holding a NaN (rare) runs `exact` unrolled once, leaving the registers to `native`.
  constexpr int unroll = u == Update::exact && has_native_agg<S, T>() ? 1 : gemm_unroll;
  constexpr int row_groups = Tile::rows / 4, col_groups = Tile::cols / 4;
#pragma unroll(full ? unroll : 1)
  for (int k = 0; k < (full ? chunk_of<T> : kcount); ++k) {
    Quad<T> a[row_groups], b[col_groups];
#pragma unroll
    for (int q = 0; q < row_groups; ++q) a[q] = *reinterpret_cast<const Quad<T>*>(&as[k][Tile::row(ty, 4 * q)]);
#pragma unroll
    for (int q = 0; q < col_groups; ++q) b[q] = *reinterpret_cast<const Quad<T>*>(&bs[k][Tile::col(tx, 4 * q)]);
#pragma unroll
    for (int r = 0; r < Tile::rows; ++r) {
      const T av = a[r / 4].v[r & 3];
#pragma unroll
      for (int c = 0; c < Tile::cols; ++c)
        acc[r][c] = gemm_update<S, T, u>(acc[r][c], av, b[c / 4].v[c & 3], gi + Tile::row(ty, r), gk + k,
                                         gj + Tile::col(tx, c));
    }
  }
}

// Every intermediate, in stages of chunk_of<T> through two shared-memory buffers: the next stage's
// global loads are in flight while the current one is computed, one barrier per stage.
template <class S, class T, class Tile, Update u>
__device__ __forceinline__ void gemm_main_loop(T (&acc)[Tile::rows][Tile::cols], GemmStages<T>& st,
                                               const GemmArgs<T>& g, index row0, index col0) {
  const int t = threadIdx.x, tx = t % Tile::threads_x, ty = t / Tile::threads_x;
  constexpr int chunk = chunk_of<T>, per = chunk * gemm_tile / Tile::threads;  // entries of A and of B per stage
  constexpr int per_row = chunk / per;                                          // threads loading one row of A
  const int a_row = t / per_row, a_k = (t % per_row) * per;  // A: one row, `per` consecutive intermediates
  const int b_k = t / (gemm_tile / per), b_col = (t % (gemm_tile / per)) * per;  // B: one intermediate
  const bool a_in = row0 + a_row < g.m;
  const T* a_src = g.a + (a_in ? (row0 + a_row) * g.lda + a_k : 0);
  const T* b_src = g.b + b_k * g.ldb + col0 + b_col;
  const int p = static_cast<int>(g.p);  // a k-block or a super tile: far below 2^31
  const int b_cols = static_cast<int>(g.q - col0 - b_col < per ? g.q - col0 - b_col : per);  // may be <= 0
  T pa[per], pb[per];
  const auto fetch = [&](int kc) {
    const int a_left = p - kc - a_k;
    const bool b_in = kc + b_k < p;
#pragma unroll
    for (int e = 0; e < per; ++e) {
      pa[e] = a_in && e < a_left ? a_src[e] : S::zero();
      pb[e] = b_in && e < b_cols ? b_src[e] : S::zero();
    }
    a_src += chunk;
    b_src += chunk * g.ldb;
  };
  const auto stash = [&](int buffer) {
#pragma unroll
    for (int e = 0; e < per; ++e) st.a[buffer][a_k + e][a_row] = pa[e];
#pragma unroll
    for (int q = 0; q < per / 4; ++q) {
      Quad<T> v;
#pragma unroll
      for (int e = 0; e < 4; ++e) v.v[e] = pb[4 * q + e];
      *reinterpret_cast<Quad<T>*>(&st.b[buffer][b_k][b_col + 4 * q]) = v;
    }
  };
  fetch(0);
  stash(0);
  __syncthreads();
  int buffer = 0;
  for (int kc = 0; kc < p; kc += chunk) {
    const bool more = kc + chunk < p;
    if (more) fetch(kc + chunk);
    if (more || p - kc == chunk)
      gemm_stage_updates<S, T, Tile, u, true>(acc, st.a[buffer], st.b[buffer], chunk, tx, ty, g.gi + row0,
                                              g.gk + kc, g.gj + col0);
    else
      gemm_stage_updates<S, T, Tile, u, false>(acc, st.a[buffer], st.b[buffer], p - kc, tx, ty, g.gi + row0,
                                               g.gk + kc, g.gj + col0);
    if (more) stash(buffer ^ 1);
    __syncthreads();
    buffer ^= 1;
  }
}

// The block's outputs to `out`, but those outside m x q or in a skipped row or column. Addresses are
// recomputed here, not kept from before the main loop (registers).
template <class T, class Tile>
__device__ __forceinline__ void store_outputs(const T (&acc)[Tile::rows][Tile::cols], const GemmArgs<T>& g,
                                              unsigned first_tile, unsigned tile_cols) {
  const int t = threadIdx.x, tx = t % Tile::threads_x, ty = t / Tile::threads_x;
  unsigned out_tile = blockIdx.x;
  asm volatile("" : "+r"(out_tile));
  out_tile -= first_tile;
  const index out_row0 = static_cast<index>(out_tile / tile_cols) * gemm_tile;
  const index out_col0 = static_cast<index>(out_tile % tile_cols) * gemm_tile;
#pragma unroll
  for (int r = 0; r < Tile::rows; ++r) {
    const index i = out_row0 + Tile::row(ty, r);
    if (i >= g.m || (g.skip_rows_lo <= i && i < g.skip_rows_hi)) continue;
#pragma unroll
    for (int c = 0; c < Tile::cols; ++c) {
      const index j = out_col0 + Tile::col(tx, c);
      if (j < g.q && !(g.skip_cols_lo <= j && j < g.skip_cols_hi)) g.out[i * g.ldc + j] = acc[r][c];
    }
  }
}

// Copies `bytes` (0..16) from global memory to shared memory without waiting, zero-filling the rest of
// the 16; 16-byte aligned addresses.
__device__ __forceinline__ void copy_async_16(void* shared_dst, const void* global_src, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(shared_dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(global_src), "r"(bytes) : "memory");
#else
  const unsigned char* src = static_cast<const unsigned char*>(global_src);
  unsigned char* out = static_cast<unsigned char*>(shared_dst);
  for (int e = 0; e < 16; ++e) out[e] = e < bytes ? src[e] : 0;
#endif
}

__device__ __forceinline__ void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// The block's tile of `in` into `staged` (row-major, 128 x 128), 16 bytes per copy; entries outside
// m x q are zero-filled (their outputs are never stored).
template <class T, class Tile>
__device__ __forceinline__ void stage_in_async(T* staged, const GemmArgs<T>& g, index row0, index col0) {
  constexpr int quads_per_row = gemm_tile / 4;
  for (int q = threadIdx.x; q < gemm_tile * quads_per_row; q += Tile::threads) {
    const int row = q / quads_per_row, col = (q % quads_per_row) * 4;
    const index i = row0 + row, j = col0 + col;
    const index left = i < g.m ? g.q - j : 0;
    const int bytes = left <= 0 ? 0 : left >= 4 ? 16 : static_cast<int>(left) * static_cast<int>(sizeof(T));
    copy_async_16(staged + row * gemm_tile + col, bytes > 0 ? g.in + i * g.ldc + j : g.in, bytes);
  }
}

// The plain order: the outputs' old values loaded into the accumulators first.
template <class S, class T, class Tile, bool use_dpx>
__device__ __forceinline__ void load_and_update(T (&acc)[Tile::rows][Tile::cols], const GemmArgs<T>& g,
                                                GemmStages<T>& stages, index row0, index col0) {
  const int t = threadIdx.x, tx = t % Tile::threads_x, ty = t / Tile::threads_x;
#pragma unroll
  for (int r = 0; r < Tile::rows; ++r) {
    const index i = row0 + Tile::row(ty, r);
#pragma unroll
    for (int c = 0; c < Tile::cols; ++c) {
      const index j = col0 + Tile::col(tx, c);
      acc[r][c] = i < g.m && j < g.q ? g.in[i * g.ldc + j] : S::zero();
    }
  }
  if constexpr (use_dpx) {
    gemm_main_loop<S, T, Tile, Update::dpx>(acc, stages, g, row0, col0);
  } else if constexpr (has_native_agg<S, T>()) {
    bool nan = false;
#pragma unroll
    for (int r = 0; r < Tile::rows; ++r)
#pragma unroll
      for (int c = 0; c < Tile::cols; ++c) nan |= acc[r][c] != acc[r][c];
    if (__syncthreads_or(nan)) gemm_main_loop<S, T, Tile, Update::exact>(acc, stages, g, row0, col0);
    else gemm_main_loop<S, T, Tile, Update::native>(acc, stages, g, row0, col0);
  } else {
    gemm_main_loop<S, T, Tile, Update::exact>(acc, stages, g, row0, col0);
  }
}

// 128 x 128 outputs per block: held in registers over every intermediate, stored once; their old
// values (`in`) loaded first, or staged in shared memory meanwhile and folded in last (stages_in).
// The block computes output tile blockIdx.x - first_tile, the tiles numbered row by row.
template <class S, class T, class Tile, bool use_dpx>
__device__ __forceinline__ void gemm_block(const GemmArgs<T>& g, unsigned first_tile, GemmStages<T>& stages,
                                           T* staged) {
  const int t = threadIdx.x, tx = t % Tile::threads_x, ty = t / Tile::threads_x;
  const unsigned tile_cols = static_cast<unsigned>((g.q + gemm_tile - 1) / gemm_tile);
  const unsigned tile = blockIdx.x - first_tile;
  const index row0 = static_cast<index>(tile / tile_cols) * gemm_tile;
  const index col0 = static_cast<index>(tile % tile_cols) * gemm_tile;
  if (g.skip_rows_lo <= row0 && row0 + gemm_tile <= g.skip_rows_hi) return;  // every output skipped
  if (g.skip_cols_lo <= col0 && col0 + gemm_tile <= g.skip_cols_hi) return;

  T acc[Tile::rows][Tile::cols];
  if constexpr (stages_in<S, T>()) {  // `in` 16-byte aligned with rows of 16-byte multiples (checked by the host)
    stage_in_async<T, Tile>(staged, g, row0, col0);
#pragma unroll
    for (int r = 0; r < Tile::rows; ++r)
#pragma unroll
      for (int c = 0; c < Tile::cols; ++c) acc[r][c] = S::zero();
    gemm_main_loop<S, T, Tile, use_dpx ? Update::dpx : Update::exact>(acc, stages, g, row0, col0);
    wait_async_copies();
    __syncthreads();
#pragma unroll
    for (int r = 0; r < Tile::rows; ++r)
#pragma unroll
      for (int c = 0; c < Tile::cols; c += 4) {
        const Quad<T> old = *reinterpret_cast<const Quad<T>*>(&staged[Tile::row(ty, r) * gemm_tile + Tile::col(tx, c)]);
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[r][c + e] = S::agg(old.v[e], acc[r][c + e]);
      }
    store_outputs<T, Tile>(acc, g, first_tile, tile_cols);
  } else {
    load_and_update<S, T, Tile, use_dpx>(acc, g, stages, row0, col0);
    store_outputs<T, Tile>(acc, g, first_tile, tile_cols);
  }
}

// One product, or two in one launch (stage 2's two panels): one block of Tile::threads per output
// tile of g0, row by row, then one per tile of g1 (gridDim.x = gemm_tiles of both), with
// staged_in_bytes<S, T>() of dynamic shared memory.
template <class S, class T, class Tile, bool use_dpx>
__global__ void __launch_bounds__(Tile::threads, gemm_min_blocks<T>)
    semiring_gemm(GemmArgs<T> g0, GemmArgs<T> g1) {
  __shared__ GemmStages<T> stages;
  extern __shared__ __align__(16) unsigned char gemm_dynamic[];  // staged_in_bytes<S, T>()
  T* staged = reinterpret_cast<T*>(gemm_dynamic);
  const unsigned first_tiles = static_cast<unsigned>(gemm_tiles(g0.m, g0.q));
  if (blockIdx.x < first_tiles) gemm_block<S, T, Tile, use_dpx>(g0, 0, stages, staged);
  else gemm_block<S, T, Tile, use_dpx>(g1, first_tiles, stages, staged);
}

}  // namespace gql::device::closure
