// Large rows of C = A * B over a semiring S: dense accumulators over chunks of C's columns, many
// rows at once. Block x takes row rows[x / chunks] and its column chunk x % chunks: a dense
// accumulator of chunk_cells values and a bitmap of first touches in (dynamic) shared memory, so the
// semiring's atomic agg and the first-touch marks are shared-memory atomics, and no pass ever covers
// C's n columns in global memory. Each entry's row of B is cut to the chunk by binary searches, so
// every product is read by exactly one block. The chunk's entries are emitted in column order from
// the bitmap into the row's scratch segment, at a place reserved with one global atomic per block;
// the compaction puts the chunks of a row back in column order. A mask is loaded into a second
// bitmap first. Terminal monoids skip cells that already hold the terminal value. NVRTC-compatible.
#pragma once

#include "gql/device/spgemm/hybrid_sort_schedule.cuh"
#include "gql/device/semiring_atomics.cuh"
#include "gql/device/spgemm/spgemm_dynamic_shared.cuh"
#include "gql/device/spgemm/spgemm_mask.cuh"
#include "gql/device/spgemm/spgemm_row_products.cuh"

namespace gql::device::spgemm {

// Dynamic shared memory of spgemm_large_rows: the values, the touch bitmap and the mask bitmap.
template <class V>
GQL_HD constexpr unsigned long long spgemm_large_shared_bytes(int chunk_cells) {
  return static_cast<unsigned long long>(chunk_cells) * sizeof(V) +
         2ull * static_cast<unsigned long long>(chunk_cells / 32) * sizeof(unsigned);
}

template <class S, int Threads>
__global__ void __launch_bounds__(Threads)
spgemm_large_rows(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, MaskView mask, const index_t* rows,
                  const long long* segments, int chunks, int chunk_cells, index_t* keys,
                  typename S::value_type* values, unsigned long long* row_fill, long long* chunk_counts,
                  long long* chunk_starts, offset_t* row_nnz) {
  using V = typename S::value_type;
  V* cells = reinterpret_cast<V*>(dynamic_shared_bytes());
  unsigned* touched = reinterpret_cast<unsigned*>(cells + chunk_cells);
  unsigned* allowed = touched + chunk_cells / 32;
  __shared__ RowProductsStorage<Threads> products;
  __shared__ typename BlockScan<Threads, int>::TempStorage scan;
  __shared__ unsigned long long start;
  const int slot = static_cast<int>(blockIdx.x / static_cast<unsigned>(chunks));
  const int chunk = static_cast<int>(blockIdx.x % static_cast<unsigned>(chunks));
  const long long row = rows[slot];
  const long long first_column = static_cast<long long>(chunk) * chunk_cells;
  const int width = static_cast<int>(min_of(static_cast<long long>(chunk_cells), b.n_cols - first_column));
  const int words = (width + 31) / 32;
  for (int c = threadIdx.x; c < width; c += Threads) cells[c] = S::zero();
  const bool masked = mask.kind != MaskKind::none;
  for (int w = threadIdx.x; w < words; w += Threads) {
    touched[w] = 0u;
    if (masked) allowed[w] = mask.kind == MaskKind::deny ? ~0u : 0u;
  }
  __syncthreads();
  if (masked) {
    const offset_t mask_end = mask.row_offsets[row + 1];
    const offset_t from = lower_bound_column(mask.col_indices, mask.row_offsets[row], mask_end,
                                             static_cast<index_t>(first_column));
    for (offset_t m = from + threadIdx.x; m < mask_end; m += Threads) {
      const long long cell = mask.col_indices[m] - first_column;
      if (cell >= width) break;
      const unsigned bit = 1u << (cell & 31);
      if (mask.kind == MaskKind::allow) atomicOr(&allowed[cell >> 5], bit);
      else atomicAnd(&allowed[cell >> 5], ~bit);
    }
    __syncthreads();
  }
  ColumnWindow window;
  window.whole = chunks == 1;
  window.begin = static_cast<index_t>(first_column);
  window.end = static_cast<index_t>(first_column + width);
  for_each_row_product<Threads>(
      a, b, row, products,
      [&](int, offset_t p, index_t k, offset_t q) {
        const index_t j = b.col_indices[q];
        const int cell = static_cast<int>(j - first_column);
        const unsigned bit = 1u << (cell & 31);
        if (masked && (allowed[cell >> 5] & bit) == 0u) return;
        if ((touched[cell >> 5] & bit) == 0u) atomicOr(&touched[cell >> 5], bit);
        if constexpr (S::has_terminal) {
          if (cells[cell] == S::terminal()) return;
        }
        atomic_agg<S>(&cells[cell], S::con(operand_value<S>(a, p), operand_value<S>(b, q), row, k, j));
      },
      window);
  // Emit the touched cells in column order: each thread a contiguous range of bitmap words.
  const ThreadRange range = thread_range(words, Threads, threadIdx.x);
  int count = 0;
  for (int w = range.begin; w < range.end; ++w) count += __popc(touched[w]);
  int total = 0;
  const int before = BlockScan<Threads, int>::exclusive_sum(count, total, scan);
  if (threadIdx.x == 0) {
    start = total > 0 ? atomicAdd(&row_fill[slot], static_cast<unsigned long long>(total)) : 0ull;
    chunk_counts[blockIdx.x] = total;
    chunk_starts[blockIdx.x] = static_cast<long long>(start);
    if (total > 0) atomicAdd(reinterpret_cast<unsigned long long*>(&row_nnz[row]), static_cast<unsigned long long>(total));
  }
  __syncthreads();
  long long out = segments[slot] + static_cast<long long>(start) + before;
  for (int w = range.begin; w < range.end; ++w) {
    for (unsigned bits = touched[w]; bits != 0u; bits &= bits - 1u) {
      const int cell = w * 32 + __ffs(static_cast<int>(bits)) - 1;
      keys[out] = static_cast<index_t>(first_column + cell);
      values[out] = cells[cell];
      ++out;
    }
  }
}

}  // namespace gql::device::spgemm
