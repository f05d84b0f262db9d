// What the closure's host driver (gql/device/closure/closure.hpp) and its kernels (closure_kernels.cuh)
// share: the register-tiled GEMM's arguments and tile shapes, and the semiring's properties that pick
// a kernel variant (Hopper's add-min, the old values staged in shared memory). Host code compiled by
// any compiler, and device code for nvcc and NVRTC: only semiring.hpp is included.
#pragma once

#include "gql/semiring.hpp"

namespace gql::device::closure {

using index = long long;

// std::is_same_v without <type_traits> (NVRTC has no standard library).
template <class A, class B>
inline constexpr bool same_type = false;
template <class A>
inline constexpr bool same_type<A, A> = true;

// An i32 min-plus policy may declare `static constexpr bool con_adds = true` (con(a, b) == a + b and
// agg == min): then the register kernel may use Hopper's DPX add-min (one instruction per update).
template <class S>
constexpr bool con_adds() {
  if constexpr (requires { S::con_adds; }) return S::con_adds;
  else return false;
}

inline constexpr int gemm_tile = 128;  // outputs per block edge

// A thread's register tile: ROWS x COLS outputs of the block's 128 x 128, so (128 / COLS) x
// (128 / ROWS) threads. Its rows (and columns) come in groups of 4, spread evenly over the block
// tile: with the thread's group at t * 4, a quarter warp's 16-byte shared loads touch distinct banks.
// The shapes built, and the values each holds, are gql::gpu_closure_thread_tiles (gql/closure_variants.hpp):
// 8 x 16 halves the shared loads per update but needs about 170 registers for 4-byte values.
template <int ROWS, int COLS>
struct ThreadTile {
  static_assert(ROWS % 4 == 0 && COLS % 4 == 0 && gemm_tile % ROWS == 0 && gemm_tile % COLS == 0,
                "register tiles: rows and columns in groups of 4 that divide the block tile");
  static constexpr int rows = ROWS, cols = COLS;
  static constexpr int threads_x = gemm_tile / COLS, threads_y = gemm_tile / ROWS;
  static constexpr int threads = threads_x * threads_y;
  static GQL_HD int row(int ty, int r) { return (r / 4) * (gemm_tile * 4 / ROWS) + ty * 4 + (r & 3); }
  static GQL_HD int col(int tx, int c) { return (c / 4) * (gemm_tile * 4 / COLS) + tx * 4 + (c & 3); }
};

// out(i, j) = agg(in(i, j), agg_k con(a(i, k), b(k, j))) for i < m, j < q, k < p; row-major operands.
// Outputs whose row lies in [skip_rows_lo, skip_rows_hi) or whose column lies in [skip_cols_lo,
// skip_cols_hi) are not written (in-core stages 2 and 3: the k-block's row and column, read by other
// blocks meanwhile). in may be out, and a or b may overlap out where a block reads only the entries it
// writes itself (the panels of stage 2): a block stores its outputs after its last read.
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
  index skip_rows_lo = 0, skip_rows_hi = 0;
  index skip_cols_lo = 0, skip_cols_hi = 0;
};

// Output tiles of 128 x 128 covering m x q: the GEMM's blocks.
GQL_HD index gemm_tiles(index m, index q) {
  return (m + gemm_tile - 1) / gemm_tile * ((q + gemm_tile - 1) / gemm_tile);
}

// Whether a block folds its outputs' old values in last, out = agg(in, agg_k con(...)), with the
// accumulators starting at the identity: 4-byte integers under a min or max monoid (which commutes).
// Then `in` is copied into shared memory asynchronously while the products run, instead of the block
// first waiting for it in registers: blocks on a multiprocessor start together, so that wait is not
// hidden by the other block's products. It made int32 DPX min-plus 7-8% faster on the H200 but fp32
// 8-10% slower (docs/performance.md), so floats keep the plain order. GQL_CLOSURE_GEMM_STAGE_IN=0
// keeps the plain order for all (for measuring).
#ifndef GQL_CLOSURE_GEMM_STAGE_IN
#define GQL_CLOSURE_GEMM_STAGE_IN 1
#endif
inline constexpr bool gemm_stage_in = GQL_CLOSURE_GEMM_STAGE_IN;
template <class T>
inline constexpr bool is_integer = static_cast<T>(1) / static_cast<T>(2) == static_cast<T>(0);
template <class S, class T>
constexpr bool stages_in() {
  return gemm_stage_in && sizeof(T) == 4 && is_integer<T> && (S::monoid == Monoid::min || S::monoid == Monoid::max);
}
// Dynamic shared memory of semiring_gemm: the staged 128 x 128 tile of `in`.
template <class S, class T>
constexpr unsigned staged_in_bytes() {
  return stages_in<S, T>() ? gemm_tile * gemm_tile * sizeof(T) : 0;
}

// Whether the GEMM may run Hopper's DPX add-min for S: i32 min-plus policies declaring con_adds.
template <class S>
constexpr bool dpx_capable() {
  return same_type<typename S::value_type, int> && S::monoid == Monoid::min && con_adds<S>();
}

}  // namespace gql::device::closure
