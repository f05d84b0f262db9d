// Device kernels of the GPU LU factorization (device/lu.hpp): the panel's column steps (pivot search
// and row swap, then elimination) and the panel's swaps applied to the columns outside it. Row-major
// n x n matrix with leading dimension ld; the panel is columns [k0, k1).
#pragma once

namespace gql::device::lu {

using index = long long;

inline constexpr int pivot_threads = 1024;

template <class T>
__device__ __forceinline__ T magnitude(T x) {
  return x < T{0} ? -x : x;
}

// Column k: the row p >= k with the largest |a(p, k)| (the first such row on ties, as LAPACK), its
// swap with row k across the panel, pivots[k] = p. An exactly zero column records k in *singular
// (the smallest such column wins) and swaps nothing.
template <class T>
__global__ void __launch_bounds__(pivot_threads) pivot_column(T* a, index ld, index n, index k, index k0, index k1,
                                                              int* pivots, int* singular) {
  __shared__ T best_value[pivot_threads / 32];
  __shared__ index best_row[pivot_threads / 32];
  T value = T{-1};
  index row = n;
  for (index i = k + threadIdx.x; i < n; i += pivot_threads) {
    const T m = magnitude(a[i * ld + k]);
    if (m > value) {  // rows ascend per thread: the first maximum stays
      value = m;
      row = i;
    }
  }
  for (int offset = 16; offset > 0; offset /= 2) {
    const T other_value = __shfl_down_sync(0xffffffffu, value, offset);
    const index other_row = __shfl_down_sync(0xffffffffu, row, offset);
    if (other_value > value || (other_value == value && other_row < row)) {
      value = other_value;
      row = other_row;
    }
  }
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) {
    best_value[warp] = value;
    best_row[warp] = row;
  }
  __syncthreads();
  if (warp == 0) {
    value = best_value[lane];
    row = best_row[lane];
    for (int offset = 16; offset > 0; offset /= 2) {
      const T other_value = __shfl_down_sync(0xffffffffu, value, offset);
      const index other_row = __shfl_down_sync(0xffffffffu, row, offset);
      if (other_value > value || (other_value == value && other_row < row)) {
        value = other_value;
        row = other_row;
      }
    }
    if (lane == 0) {
      best_value[0] = value;
      best_row[0] = row;
    }
  }
  __syncthreads();
  const index p = best_row[0];
  if (best_value[0] == T{0} || p >= n) {  // p == n: nothing compared (a column of NaNs)
    if (threadIdx.x == 0) {
      pivots[k] = static_cast<int>(k);
      atomicMin(singular, static_cast<int>(k));
    }
    return;
  }
  if (threadIdx.x == 0) pivots[k] = static_cast<int>(p);
  if (p == k) return;
  for (index j = k0 + threadIdx.x; j < k1; j += pivot_threads) {
    const T x = a[k * ld + j];
    a[k * ld + j] = a[p * ld + j];
    a[p * ld + j] = x;
  }
}

// Rows i > k of the panel: l = a(i, k) / a(k, k) is stored in place of a(i, k) and a(i, j) -= l a(k, j)
// for k < j < k1. Block (32, 8): eight rows, a row's columns spread over 32 threads.
template <class T>
__global__ void eliminate_column(T* a, index ld, index n, index k, index k1) {
  const T pivot = a[k * ld + k];
  if (pivot == T{0}) return;  // singular: reported by pivot_column
  const index i = k + 1 + blockIdx.x * static_cast<index>(blockDim.y) + threadIdx.y;
  const T l = i < n ? a[i * ld + k] / pivot : T{0};
  __syncthreads();  // every thread of the row has read a(i, k) before it is overwritten
  if (i >= n) return;
  for (index j = k + 1 + threadIdx.x; j < k1; j += blockDim.x) a[i * ld + j] -= l * a[k * ld + j];
  if (threadIdx.x == 0) a[i * ld + k] = l;
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

}  // namespace gql::device::lu
