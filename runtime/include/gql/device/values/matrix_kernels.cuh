// The kernels of the dense matrices' ops on the device (gql/device/values/matrix_ops.hpp): entry-wise
// maps of two matrices through the spec's function (of one: graph_kernels.cuh's MapValues), the tiled
// transpose, and a graph's entries scattered into a filled matrix. Each writes every element as the host's twin does (gql/cpu/
// matrix_ops.hpp, elementwise.hpp, ops.hpp's densify): the same conversions, the same values.
//
// Compiled by nvcc: generated code and the GPU tests.
#pragma once

#include <cstdint>

#include "gql/device.hpp"
#include "gql/device/csr_view.cuh"
#include "gql/device/values/vector_slots.cuh"

namespace gql::device::values {

// out[p] = fn(a[p], b[p]) as R, at every position (union and intersect of dense matrices).
template <class R, class TA, class TB, class F>
struct CombineEntries {
  const storage_t<TA>* a;
  const storage_t<TB>* b;
  F fn;
  storage_t<R>* out;
  __device__ void operator()(long long p) const { out[p] = cast_to<R>(fn(TA(a[p]), TB(b[p]))); }
};

// The transpose moves tiles of 32 x 32 through shared memory, so that both the reads of A's rows
// and the writes of its transpose's rows are coalesced; a block of 32 x 8 threads moves one tile
// (each thread four rows of it) and strides over the tiles.
inline constexpr int transpose_tile = 32;
inline constexpr int transpose_rows_per_pass = 8;

// out (cols x rows) = in (rows x cols)', converted from TA to R.
template <class R, class TA>
__global__ void transpose_tiles(const storage_t<TA>* in, storage_t<R>* out, long long rows, long long cols) {
  __shared__ storage_t<TA> tile[transpose_tile][transpose_tile + 1];  // padded: no bank conflicts on the column reads
  const long long tiles_x = (cols + transpose_tile - 1) / transpose_tile;
  const long long tiles = tiles_x * ((rows + transpose_tile - 1) / transpose_tile);
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    const long long row0 = t / tiles_x * transpose_tile, col0 = t % tiles_x * transpose_tile;
    for (int r = threadIdx.y; r < transpose_tile; r += transpose_rows_per_pass) {
      const long long i = row0 + r, j = col0 + threadIdx.x;
      if (i < rows && j < cols) tile[r][threadIdx.x] = in[i * cols + j];
    }
    __syncthreads();
    for (int r = threadIdx.y; r < transpose_tile; r += transpose_rows_per_pass) {
      const long long j = col0 + r, i = row0 + threadIdx.x;  // row j of the transpose, its column i
      if (i < rows && j < cols) out[j * rows + i] = cast_to<R>(TA(tile[threadIdx.x][r]));
    }
    __syncthreads();  // the tile is rewritten by the next pass
  }
}

// out(i, j) = G's entry p at (i, j), a thread per entry (its row found in the offsets): the graph's
// values cast as the host's densify casts them (a pattern graph's are all true).
template <class TC, class TG>
struct ScatterEntries {
  CsrView<TG> g;
  storage_t<TC>* out;
  __device__ void operator()(long long p) const {
    const long long i = first_not_below<offset_t, long long>(g.row_offsets, 1, g.n_rows + 1, p + 1) - 1;
    out[i * g.n_cols + g.col_indices[p]] = static_cast<storage_t<TC>>(g.value_at(p));
  }
};

}  // namespace gql::device::values
