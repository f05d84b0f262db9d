// C = A * B over a semiring S for dense row-major matrices on the device (A m x p, B p x q, C m x q),
// whatever the three element types: the shared-memory tiled GEMM of products with dense operands
// (gql/device/dense/dense_products.hpp). A block of 256 threads computes a 64 x 64 tile of C, each thread
// 4 x 4 outputs in registers (rows ty + 16 r, columns tx + 16 c: neighbouring threads read
// neighbouring shared-memory words); k advances 16 at a time through a 64 x 16 tile of A and a
// 16 x 64 tile of B in shared memory. Entries past the matrices' edges are loaded as padding but
// never combined (k is bounded by p) nor stored. Includes nothing but gql/semiring.hpp
// (NVRTC-compatible).
#pragma once

#include "gql/semiring.hpp"

namespace gql::device::dense {

inline constexpr int tile = 64;        // C's tile edge per block
inline constexpr int k_step = 16;      // intermediates per shared-memory stage
inline constexpr int threads = 256;    // 16 x 16 threads
inline constexpr int per_thread = 4;   // outputs per thread along each edge

// The grid of an m x q product: one block per tile of C (x: column tiles, y: row tiles).
inline constexpr long long tiles(long long extent) { return (extent + tile - 1) / tile; }

template <class S, class TA, class TB, class V>
__global__ void __launch_bounds__(threads) semiring_gemm(const TA* a, const TB* b, V* c, long long m, long long p,
                                                          long long q) {
  __shared__ TA a_tile[tile][k_step + 1];  // +1: the column reads of a warp fall in distinct banks
  __shared__ TB b_tile[k_step][tile];
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  const long long i0 = static_cast<long long>(blockIdx.y) * tile, j0 = static_cast<long long>(blockIdx.x) * tile;
  typename S::value_type acc[per_thread][per_thread];
  for (int r = 0; r < per_thread; ++r)
    for (int s = 0; s < per_thread; ++s) acc[r][s] = S::zero();
  for (long long k0 = 0; k0 < p; k0 += k_step) {
    for (int e = static_cast<int>(threadIdx.x); e < tile * k_step; e += threads) {
      const int row = e / k_step, col = e % k_step;
      const long long i = i0 + row, k = k0 + col;
      a_tile[row][col] = i < m && k < p ? a[i * p + k] : TA{};
      const int krow = e / tile, jcol = e % tile;
      const long long kb = k0 + krow, j = j0 + jcol;
      b_tile[krow][jcol] = kb < p && j < q ? b[kb * q + j] : TB{};
    }
    __syncthreads();
    const int steps = p - k0 < k_step ? static_cast<int>(p - k0) : k_step;
    for (int kk = 0; kk < steps; ++kk) {
      TB right[per_thread];
      for (int s = 0; s < per_thread; ++s) right[s] = b_tile[kk][tx + 16 * s];
      for (int r = 0; r < per_thread; ++r) {
        const TA left = a_tile[ty + 16 * r][kk];
        for (int s = 0; s < per_thread; ++s)
          acc[r][s] = S::agg(acc[r][s], S::con(left, right[s], i0 + ty + 16 * r, k0 + kk, j0 + tx + 16 * s));
      }
    }
    __syncthreads();
  }
  for (int r = 0; r < per_thread; ++r)
    for (int s = 0; s < per_thread; ++s) {
      const long long i = i0 + ty + 16 * r, j = j0 + tx + 16 * s;
      if (i < m && j < q) c[i * q + j] = static_cast<V>(acc[r][s]);
    }
}

}  // namespace gql::device::dense
