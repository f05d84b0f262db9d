// C<M> = A * B by the mask's entries on the GPU (GraphBLAS's dot3; the CPU's is gql/cpu/spgemm_dot.hpp):
// a warp per entry (i, j) of the mask joins A's row i with row j of Bt, B's transpose (B's column j).
// Its lanes take the shorter row's entries in turn and search each in the longer row (sorted
// columns), fold con(A_ik, B_kj, i, k, j) of the common k by S::agg, and the warp folds its lanes'
// values. Whether the entry found any k, and its value, are written at the entry's position in the
// mask; the host side (gql/device/spgemm/masked_dot.hpp) compacts them into C. Only the mask's entries are
// ever formed. NVRTC-compatible.
#pragma once

#include "gql/device/csr_view.cuh"
#include "gql/device/spgemm/spgemm_row_products.cuh"

namespace gql::device::spgemm {

// A value from the lane `lane_mask` away (semiring values are scalars of at most 8 bytes).
template <class V>
__device__ __forceinline__ V shuffle_xor_value(V v, int lane_mask) {
  if constexpr (sizeof(V) < 4) return static_cast<V>(__shfl_xor_sync(0xffffffffu, static_cast<int>(v), lane_mask));
  else return __shfl_xor_sync(0xffffffffu, v, lane_mask);
}

template <class S, int Threads>
__global__ void __launch_bounds__(Threads)
spgemm_dot_entries(CsrView<typename S::a_type> a, CsrView<typename S::b_type> bt, const offset_t* mask_offsets,
                   const index_t* mask_columns, long long n_rows, long long entries, typename S::value_type* values,
                   unsigned char* found) {
  using V = typename S::value_type;
  constexpr int warps = Threads / 32;
  const int lane = static_cast<int>(threadIdx.x) & 31;
  for (long long e = blockIdx.x * static_cast<long long>(warps) + threadIdx.x / 32; e < entries;
       e += static_cast<long long>(gridDim.x) * warps) {
    long long lo = 0, hi = n_rows;  // the mask row holding entry e: mask_offsets[lo] <= e < mask_offsets[lo + 1]
    while (hi - lo > 1) {
      const long long mid = lo + (hi - lo) / 2;
      if (mask_offsets[mid] <= e) lo = mid;
      else hi = mid;
    }
    const long long i = lo;
    const index_t j = mask_columns[e];
    const offset_t a_begin = a.row_begin(i), a_end = a.row_end(i);
    const offset_t b_begin = bt.row_begin(j), b_end = bt.row_end(j);
    const bool a_shorter = a_end - a_begin <= b_end - b_begin;
    const index_t* short_cols = a_shorter ? a.col_indices : bt.col_indices;
    const index_t* long_cols = a_shorter ? bt.col_indices : a.col_indices;
    const offset_t short_begin = a_shorter ? a_begin : b_begin, short_end = a_shorter ? a_end : b_end;
    const offset_t long_begin = a_shorter ? b_begin : a_begin, long_end = a_shorter ? b_end : a_end;
    V value = S::zero();
    bool any = false;
    for (offset_t p = short_begin + lane; p < short_end; p += 32) {
      const index_t k = short_cols[p];
      const offset_t q = lower_bound_column(long_cols, long_begin, long_end, k);
      if (q < long_end && long_cols[q] == k) {
        const offset_t pa = a_shorter ? p : q, pb = a_shorter ? q : p;
        const V product = S::con(operand_value<S>(a, pa), operand_value<S>(bt, pb), i, k, j);
        value = any ? S::agg(value, product) : product;
        any = true;
      }
    }
    for (int m = 16; m > 0; m >>= 1) {
      const V other = shuffle_xor_value(value, m);
      const bool other_any = __shfl_xor_sync(0xffffffffu, any ? 1 : 0, m) != 0;
      if (other_any) value = any ? S::agg(value, other) : other;
      any = any || other_any;
    }
    if (lane == 0) {
      values[e] = value;
      found[e] = any ? 1 : 0;
    }
  }
}

}  // namespace gql::device::spgemm
