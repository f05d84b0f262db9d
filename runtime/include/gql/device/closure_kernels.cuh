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
//   semiring_gemm          stage 3 as a register-tiled semiring "GEMM": 128 x 128 outputs per block of
//                          256 threads, 8 x 8 per thread held in registers while KB intermediates pass
//                          from shared memory (as in SGEMM), out = agg(in, A (x) B). The out-of-core
//                          driver uses it for all of its panel products.
//
// Every kernel bounds the intermediate k by the real size (padding never feeds a real entry, so any
// zero works), and passes global vertex ids to con (positional operators). Only semiring.hpp is
// included, so NVRTC compiles this header as it is.
#pragma once

#include "gql/semiring.hpp"

namespace gql::device::closure {

using index = long long;

// An i32 min-plus policy may declare `static constexpr bool con_adds = true` (con(a, b) == a + b and
// agg == min): then the register kernel may use Hopper's DPX add-min (one instruction per update).
template <class S>
constexpr bool con_adds() {
  if constexpr (requires { S::con_adds; }) return S::con_adds;
  else return false;
}

template <class T>
__global__ void fill(T* data, index count, T value) {
  for (index i = blockIdx.x * static_cast<index>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<index>(gridDim.x) * blockDim.x)
    data[i] = value;
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

// ---- the register-tiled semiring GEMM --------------------------------------------------------------

inline constexpr int gemm_tile = 128;    // outputs per block edge
inline constexpr int gemm_threads = 256;  // 16 x 16 threads, 8 x 8 outputs each

// out(i, j) = agg(in(i, j), agg_k con(a(i, k), b(k, j))) for i < m, j < q, k < p; row-major operands.
// Outputs whose row or column lies in [skip_lo, skip_hi) are not written (in-core stage 3: the k-block's row and column, final after stage 2 and read by other
// blocks meanwhile). in may be out; a and b must not overlap out's written entries.
template <class T>
struct GemmArgs {
  const T* a;
  index lda;
  const T* b;
  index ldb;
  const T* in;
  T* out;
  index ldc;
  index m, p, q;
  index gi, gk, gj;  // global ids of row 0, intermediate 0 and column 0
  index skip_lo, skip_hi;
};

template <class T>
struct alignas(4 * sizeof(T) > 16 ? 16 : 4 * sizeof(T)) Quad {
  T v[4];
};

// Thread-tile coordinate e (0..7) of thread t (0..15): two groups of 4, 64 apart, so a quarter warp's
// 16-byte shared loads touch distinct banks.
__device__ __forceinline__ int gemm_offset(int t, int e) { return (e < 4 ? 0 : 64) + t * 4 + (e & 3); }

template <class S, class T, bool use_dpx>
__device__ __forceinline__ T gemm_update(T acc, T a, T b, index i, index k, index j) {
  if constexpr (use_dpx) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmin_s32(a, b, acc);
#else
    return S::agg(acc, S::con(a, b, i, k, j));
#endif
  } else {
    return S::agg(acc, S::con(a, b, i, k, j));
  }
}

template <class S, class T, int KB, bool use_dpx, bool full>
__device__ __forceinline__ void gemm_chunk(T (&acc)[8][8], const T* as, const T* bs, int kcount, int tx, int ty,
                                           index gi, index gk, index gj) {
#pragma unroll(full ? KB : 4)
  for (int k = 0; k < (full ? KB : kcount); ++k) {
    T av[8], bv[8];
    const Quad<T> a0 = *reinterpret_cast<const Quad<T>*>(as + k * gemm_tile + ty * 4);
    const Quad<T> a1 = *reinterpret_cast<const Quad<T>*>(as + k * gemm_tile + 64 + ty * 4);
    const Quad<T> b0 = *reinterpret_cast<const Quad<T>*>(bs + k * gemm_tile + tx * 4);
    const Quad<T> b1 = *reinterpret_cast<const Quad<T>*>(bs + k * gemm_tile + 64 + tx * 4);
#pragma unroll
    for (int e = 0; e < 4; ++e) {
      av[e] = a0.v[e];
      av[e + 4] = a1.v[e];
      bv[e] = b0.v[e];
      bv[e + 4] = b1.v[e];
    }
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int c = 0; c < 8; ++c)
        acc[r][c] = gemm_update<S, T, use_dpx>(acc[r][c], av[r], bv[c], gi + gemm_offset(ty, r), gk + k,
                                               gj + gemm_offset(tx, c));
  }
}

// Shared memory: A's chunk transposed (KB x 128) and B's chunk (KB x 128).
template <class S, class T, int KB, bool use_dpx>
__global__ void __launch_bounds__(gemm_threads, sizeof(T) <= 4 ? 2 : 1) semiring_gemm(GemmArgs<T> g) {
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* as = reinterpret_cast<T*>(shared_bytes);
  T* bs = as + KB * gemm_tile;
  const int t = threadIdx.x, tx = t % 16, ty = t / 16;
  const index row0 = blockIdx.y * static_cast<index>(gemm_tile), col0 = blockIdx.x * static_cast<index>(gemm_tile);
  if (g.skip_lo <= row0 && row0 + gemm_tile <= g.skip_hi) return;  // every output skipped
  if (g.skip_lo <= col0 && col0 + gemm_tile <= g.skip_hi) return;

  T acc[8][8];
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const index i = row0 + gemm_offset(ty, r);
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      const index j = col0 + gemm_offset(tx, c);
      acc[r][c] = i < g.m && j < g.q ? g.in[i * g.ldc + j] : S::zero();
    }
  }
  for (index kc = 0; kc < g.p; kc += KB) {
    const int kcount = static_cast<int>(g.p - kc < KB ? g.p - kc : KB);
    for (int e = t; e < KB * gemm_tile; e += gemm_threads) {
      const int ai = e / KB, ak = e % KB;  // consecutive threads read along a row of A
      const index gi = row0 + ai;
      as[ak * gemm_tile + ai] = gi < g.m && ak < kcount ? g.a[gi * g.lda + kc + ak] : S::zero();
      const int bk = e / gemm_tile, bj = e % gemm_tile;
      const index gj = col0 + bj;
      bs[bk * gemm_tile + bj] = gj < g.q && bk < kcount ? g.b[(kc + bk) * g.ldb + gj] : S::zero();
    }
    __syncthreads();
    if (kcount == KB)
      gemm_chunk<S, T, KB, use_dpx, true>(acc, as, bs, KB, tx, ty, g.gi + row0, g.gk + kc, g.gj + col0);
    else
      gemm_chunk<S, T, KB, use_dpx, false>(acc, as, bs, kcount, tx, ty, g.gi + row0, g.gk + kc, g.gj + col0);
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 8; ++r) {
    const index i = row0 + gemm_offset(ty, r);
    if (i >= g.m || (g.skip_lo <= i && i < g.skip_hi)) continue;
#pragma unroll
    for (int c = 0; c < 8; ++c) {
      const index j = col0 + gemm_offset(tx, c);
      if (j < g.q && !(g.skip_lo <= j && j < g.skip_hi)) g.out[i * g.ldc + j] = acc[r][c];
    }
  }
}

}  // namespace gql::device::closure
