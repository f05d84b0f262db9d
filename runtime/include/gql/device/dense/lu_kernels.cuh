// Device kernels of the GPU LU factorization (device/dense/lu.hpp): a narrow panel factored in one
// cooperative launch, and a panel's row swaps applied to the columns outside it. Row-major n x n
// matrix with leading dimension ld.
#pragma once

#include <cooperative_groups.h>

namespace gql::device::dense::lu {

using index = long long;

inline constexpr int panel_threads = 256;
inline constexpr int panel_width = 32;  // widest panel factor_panel takes

template <class T>
__device__ __forceinline__ T magnitude(T x) {
  return x < T{0} ? -x : x;
}

// The larger magnitude wins, the first row on ties (as LAPACK's i?amax); row == n: nothing compared.
template <class T>
__device__ __forceinline__ void keep_better(T& value, index& row, T other_value, index other_row) {
  if (other_value > value || (other_value == value && other_row < row)) {
    value = other_value;
    row = other_row;
  }
}

template <class T>
__device__ __forceinline__ void warp_best(T& value, index& row) {
  for (int offset = 16; offset > 0; offset /= 2) {
    const T other_value = __shfl_down_sync(0xffffffffu, value, offset);
    const index other_row = __shfl_down_sync(0xffffffffu, row, offset);
    keep_better(value, row, other_value, other_row);
  }
}

// Global scratch of factor_panel, two of each (by column parity: a block may write column c + 1's
// while a slower one still reads column c's).
template <class T>
struct PanelScratch {
  T* candidate_rows;      // [2][blocks][panel_width]: each block's best row, as it stands
  T* candidate_values;    // [2][blocks]
  index* candidate_index;  // [2][blocks]
  T* row_c;               // [2][panel_width]: row c before its swap
};

template <class T>
struct PanelArgs {
  T* a;
  index ld, n;
  index c0, c1;           // the panel: columns [c0, c1), rows [c0, n); c1 - c0 <= panel_width
  index rows_per_block;   // block b holds rows [c0 + b * rows_per_block, ...) in shared memory
  int* pivots;
  int* singular;
  PanelScratch<T> scratch;
};

// LU with partial pivoting of the panel, one column at a time with one grid-wide barrier per column:
// each block keeps its rows in shared memory and offers its best pivot candidate (a copy of the
// row); after the barrier every block picks the same winner p, the owners of rows c and p swap them
// (the panel's width only; the rest is swapped by swap_outside_panel), and each block eliminates its
// rows below c. pivots[c] = p; an exactly zero column records c in *singular (the smallest such
// column wins) and swaps nothing. Launched cooperatively (all blocks resident).
template <class T>
__global__ void __launch_bounds__(panel_threads) factor_panel(PanelArgs<T> g) {
  namespace cg = cooperative_groups;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  T* rows = reinterpret_cast<T*>(shared_bytes);  // rows_per_block x panel_width
  __shared__ T pivot_row[panel_width];
  __shared__ T best_value[panel_threads / 32];
  __shared__ index best_row[panel_threads / 32];
  __shared__ int winner;  // -1: no pivot (singular column)
  cg::grid_group grid = cg::this_grid();
  const int width = static_cast<int>(g.c1 - g.c0), blocks = static_cast<int>(gridDim.x);
  const index first = g.c0 + blockIdx.x * g.rows_per_block;
  const index end = first + g.rows_per_block < g.n ? first + g.rows_per_block : g.n;
  const int count = end > first ? static_cast<int>(end - first) : 0;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;

  for (int e = threadIdx.x; e < count * width; e += panel_threads)
    rows[(e / width) * panel_width + e % width] = g.a[(first + e / width) * g.ld + g.c0 + e % width];
  __syncthreads();

  for (int c = 0; c < width; ++c) {
    const index gc = g.c0 + c;
    const int parity = c & 1;
    T* candidate_rows = g.scratch.candidate_rows + parity * blocks * panel_width;
    T* candidate_values = g.scratch.candidate_values + parity * blocks;
    index* candidate_index = g.scratch.candidate_index + parity * blocks;
    T* row_c = g.scratch.row_c + parity * panel_width;

    // This block's candidate among its rows >= gc.
    T value = T{-1};
    index row = g.n;
    for (int r = threadIdx.x; r < count; r += panel_threads)
      if (first + r >= gc) keep_better(value, row, magnitude(rows[r * panel_width + c]), first + r);
    warp_best(value, row);
    if (lane == 0) {
      best_value[warp] = value;
      best_row[warp] = row;
    }
    __syncthreads();
    if (warp == 0) {
      value = lane < panel_threads / 32 ? best_value[lane] : T{-1};
      row = lane < panel_threads / 32 ? best_row[lane] : g.n;
      warp_best(value, row);
      if (lane == 0) {
        candidate_values[blockIdx.x] = value;
        candidate_index[blockIdx.x] = row;
        best_row[0] = row;
      }
    }
    __syncthreads();
    if (best_row[0] < g.n)
      for (int j = threadIdx.x; j < width; j += panel_threads)
        candidate_rows[blockIdx.x * panel_width + j] = rows[(best_row[0] - first) * panel_width + j];
    if (first <= gc && gc < end)
      for (int j = threadIdx.x; j < width; j += panel_threads) row_c[j] = rows[(gc - first) * panel_width + j];
    grid.sync();

    // The winner, the same in every block.
    if (warp == 0) {
      value = T{-1};
      row = g.n;
      int from = -1;
      for (int b = lane; b < blocks; b += 32) {
        const T v = candidate_values[b];
        const index i = candidate_index[b];
        if (v > value || (v == value && i < row)) {
          value = v;
          row = i;
          from = b;
        }
      }
      for (int offset = 16; offset > 0; offset /= 2) {
        const T other_value = __shfl_down_sync(0xffffffffu, value, offset);
        const index other_row = __shfl_down_sync(0xffffffffu, row, offset);
        const int other_from = __shfl_down_sync(0xffffffffu, from, offset);
        if (other_value > value || (other_value == value && other_row < row)) {
          value = other_value;
          row = other_row;
          from = other_from;
        }
      }
      if (lane == 0) {
        const bool singular = row >= g.n || value == T{0};  // row == n: nothing compared (NaNs)
        winner = singular ? -1 : from;
        best_row[0] = row;
        if (blockIdx.x == 0) {
          g.pivots[gc] = static_cast<int>(singular ? gc : row);
          if (singular) atomicMin(g.singular, static_cast<int>(gc));
        }
      }
    }
    __syncthreads();
    if (winner < 0) continue;  // singular: nothing to swap or eliminate (the column is zero)
    const index p = best_row[0];
    for (int j = threadIdx.x; j < width; j += panel_threads)
      pivot_row[j] = candidate_rows[winner * panel_width + j];
    __syncthreads();
    if (p != gc) {
      if (first <= gc && gc < end)
        for (int j = threadIdx.x; j < width; j += panel_threads) rows[(gc - first) * panel_width + j] = pivot_row[j];
      if (first <= p && p < end)
        for (int j = threadIdx.x; j < width; j += panel_threads) rows[(p - first) * panel_width + j] = row_c[j];
    }
    __syncthreads();
    // Rows below gc: the multiplier in place of column c, then the rest of the row.
    const int below = static_cast<int>(gc + 1 > first ? gc + 1 - first : 0);
    const T pivot = pivot_row[c];
    for (int r = below + threadIdx.x; r < count; r += panel_threads) rows[r * panel_width + c] /= pivot;
    __syncthreads();
    const int rest = width - c - 1;
    if (rest > 0)
      for (int e = threadIdx.x; e < (count - below) * rest; e += panel_threads) {
        const int r = below + e / rest, j = c + 1 + e % rest;
        rows[r * panel_width + j] -= rows[r * panel_width + c] * pivot_row[j];
      }
    __syncthreads();
  }

  for (int e = threadIdx.x; e < count * width; e += panel_threads)
    g.a[(first + e / width) * g.ld + g.c0 + e % width] = rows[(e / width) * panel_width + e % width];
}

// The panel's swaps (rows k and pivots[k], k0 <= k < k1, in order) on columns outside [k0, k1).
template <class T>
__global__ void swap_outside_panel(T* a, index ld, index n, index k0, index k1, const int* pivots) {
  const index t = blockIdx.x * static_cast<index>(blockDim.x) + threadIdx.x;
  const index j = t < k0 ? t : t + (k1 - k0);
  if (j >= n) return;
  for (index k = k0; k < k1; ++k) {
    const index p = pivots[k];
    if (p == k) continue;
    const T x = a[k * ld + j];
    a[k * ld + j] = a[p * ld + j];
    a[p * ld + j] = x;
  }
}

}  // namespace gql::device::dense::lu
