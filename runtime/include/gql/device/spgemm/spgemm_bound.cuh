// Per-row upper bound of C = A * B's entries: the number of products of row i, i.e. the sum of the
// out-degrees in B of i's neighbours in A. Row classing and scratch sizes come from it.
// NVRTC-compatible.
#pragma once

#include "gql/device/csr_view.cuh"

namespace gql::device::spgemm {

// One warp per row: lanes sum the degrees of the row's neighbours, then a shuffle reduction.
template <class A, class B>
__global__ void spgemm_row_bounds(CsrView<A> a, CsrView<B> b, long long* bounds) {
  const long long warp = (static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (warp >= a.n_rows) return;
  long long sum = 0;
  for (offset_t p = a.row_begin(warp) + lane; p < a.row_end(warp); p += 32) {
    const index_t k = a.col_indices[p];
    sum += b.row_end(k) - b.row_begin(k);
  }
  for (int d = 16; d > 0; d /= 2) sum += __shfl_down_sync(0xffffffffu, sum, d);
  if (lane == 0) bounds[warp] = sum;
}

}  // namespace gql::device::spgemm
