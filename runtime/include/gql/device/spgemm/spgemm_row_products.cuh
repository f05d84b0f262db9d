// Every product of one row of C = A * B, enumerated by a whole block with all threads busy however
// the row's degrees are spread: A's row is taken in rounds of one entry per thread, a block scan of
// the entries' B-degrees lays the round's products out in a line, and each thread finds the entry
// of the products it takes by a binary search in that scan. A column window restricts the products
// to columns [window.begin, window.end) of C: each entry's row of B is cut to the window by two
// binary searches (B's rows have sorted columns). NVRTC-compatible.
#pragma once

#include "gql/device/block_scan.cuh"
#include "gql/device/csr_view.cuh"

namespace gql::device::spgemm {

// An operand's value as con reads it: nothing is loaded when con ignores its operands.
template <class S, class T>
__device__ __forceinline__ T operand_value(const CsrView<T>& m, offset_t p) {
  if constexpr (S::reads_values) return m.value_at(p);
  else return T{};
}

// Columns [begin, end) of C; `whole` skips the searches when the window is every column.
struct ColumnWindow {
  index_t begin = 0;
  index_t end = 0;
  bool whole = true;
};

// The first position in cols[lo, hi) whose column is at least `column`.
__device__ __forceinline__ offset_t lower_bound_column(const index_t* cols, offset_t lo, offset_t hi, index_t column) {
  return first_not_below(cols, lo, hi, column);
}

template <int Threads>
struct RowProductsStorage {
  typename BlockScan<Threads, int>::TempStorage scan;
  int start[Threads + 1];    // the round's products of entry e are [start[e], start[e + 1])
  offset_t b_begin[Threads]; // where entry e's row of B begins
  index_t k[Threads];        // entry e's column of A (row of B)
};

// Calls visit(x, p, k, q) for each product of `row`: x its position in the row's products (A's row
// order, B's row order within), p the entry of A, k = A's column there, q the entry of B. Called by
// every thread of the block; returns the number of products. A round's products must fit an int
// (rows of at most 2^31 - 1 products).
template <int Threads, class TA, class TB, class Visit>
__device__ int for_each_row_product(const CsrView<TA>& a, const CsrView<TB>& b, long long row,
                                    RowProductsStorage<Threads>& s, Visit&& visit, ColumnWindow window = {}) {
  int position = 0;
  const offset_t a_end = a.row_end(row);
  for (offset_t round = a.row_begin(row); round < a_end; round += Threads) {
    const offset_t p = round + threadIdx.x;
    int degree = 0;
    if (p < a_end) {
      const index_t k = a.col_indices[p];
      offset_t begin = b.row_begin(k), end = b.row_end(k);
      if (!window.whole && begin < end) {
        begin = lower_bound_column(b.col_indices, begin, end, window.begin);
        end = lower_bound_column(b.col_indices, begin, end, window.end);
      }
      degree = static_cast<int>(end - begin);
      s.k[threadIdx.x] = k;
      s.b_begin[threadIdx.x] = begin;
    }
    int total = 0;
    s.start[threadIdx.x] = BlockScan<Threads, int>::exclusive_sum(degree, total, s.scan);
    if (threadIdx.x == 0) s.start[Threads] = total;
    __syncthreads();
    for (int x = threadIdx.x; x < total; x += Threads) {
      // The last entry whose products start at or before x (entries of degree 0 are skipped over).
      int lo = 0, hi = Threads;
      while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        if (s.start[mid] <= x) lo = mid;
        else hi = mid;
      }
      visit(position + x, round + lo, s.k[lo], s.b_begin[lo] + (x - s.start[lo]));
    }
    position += total;
    __syncthreads();
  }
  return position;
}

}  // namespace gql::device::spgemm
