// Medium rows of C = A * B over a semiring S: one block per row, launched once over all rows of the
// bin, with a hash table of Slots cells in (dynamic) shared memory. Every product is combined into
// its column's cell (linear probing; a column's cell is claimed by a shared-memory CAS, the value
// combined with the semiring's atomic agg). A row's bound is at most Slots, so the table never
// fills; rows beyond it spill to global memory (the sorted class). The entries leave in column
// order by one of two ways:
//   spgemm_medium_rows:        the occupied cells are compacted, sorted by the bitonic network in
//                              shared memory and written;
//   spgemm_medium_rows_bitmap: a bitmap of C's columns (when it fits shared memory) marks the
//                              columns touched; a scan of the bitmap gives each entry its place and
//                              its value is looked up in the table, so nothing is sorted.
// Terminal monoids skip cells that already hold the terminal value. NVRTC-compatible.
#pragma once

#include "gql/device/semiring_atomics.cuh"
#include "gql/device/spgemm/spgemm_dynamic_shared.cuh"
#include "gql/device/spgemm/spgemm_small_rows.cuh"

namespace gql::device::spgemm {

// Dynamic shared memory of spgemm_medium_rows: the table's columns and values.
template <class V>
GQL_HD constexpr unsigned long long spgemm_medium_shared_bytes(int slots) {
  return static_cast<unsigned long long>(slots) * (sizeof(index_t) + sizeof(V));
}

// log2 of a power of two, at compile time (NVRTC has no __builtin_ctz).
constexpr unsigned log2_exact(unsigned x) { return x <= 1 ? 0u : 1u + log2_exact(x >> 1); }

template <int Slots>
__device__ __forceinline__ unsigned medium_hash(index_t j) {
  static_assert((Slots & (Slots - 1)) == 0, "the table's size is a power of two");
  constexpr unsigned shift = 32u - log2_exact(static_cast<unsigned>(Slots));
  return (static_cast<unsigned>(j) * 0x9E3779B1u) >> shift;
}

// The cell of column j, claimed if j has none yet (the table has room for every column of the row).
template <int Slots>
__device__ __forceinline__ unsigned medium_claim(index_t* table_keys, index_t j) {
  unsigned cell = medium_hash<Slots>(j);
  for (;;) {
    const index_t held = table_keys[cell];
    if (held == j) return cell;
    if (held == spgemm_no_column) {
      const index_t before = atomicCAS(&table_keys[cell], spgemm_no_column, j);
      if (before == spgemm_no_column || before == j) return cell;
    }
    cell = (cell + 1) & (Slots - 1);
  }
}

// The cell of column j, which is in the table.
template <int Slots>
__device__ __forceinline__ unsigned medium_find(const index_t* table_keys, index_t j) {
  unsigned cell = medium_hash<Slots>(j);
  while (table_keys[cell] != j) cell = (cell + 1) & (Slots - 1);
  return cell;
}

// Combines every product of `row` that the mask allows into the table; `touch(j)` is called once
// per product first.
template <class S, int Threads, int Slots, class Touch>
__device__ void medium_accumulate(const CsrView<typename S::a_type>& a, const CsrView<typename S::b_type>& b,
                                  const MaskView& mask, long long row, index_t* table_keys,
                                  typename S::value_type* table_values, RowProductsStorage<Threads>& products,
                                  Touch&& touch) {
  for_each_row_product<Threads>(a, b, row, products, [&](int, offset_t p, index_t k, offset_t q) {
    const index_t j = b.col_indices[q];
    if (!mask.allows(row, j)) return;
    touch(j);
    const unsigned cell = medium_claim<Slots>(table_keys, j);
    if constexpr (S::has_terminal) {
      if (table_values[cell] == S::terminal()) return;
    }
    atomic_agg<S>(&table_values[cell], S::con(operand_value<S>(a, p), operand_value<S>(b, q), row, k, j));
  });
}

// Dynamic shared memory of spgemm_medium_rows_bitmap: the table and a bitmap of C's columns.
template <class V>
GQL_HD constexpr unsigned long long spgemm_medium_bitmap_shared_bytes(int slots, long long n_cols) {
  return spgemm_medium_shared_bytes<V>(slots) + static_cast<unsigned long long>((n_cols + 31) / 32) * 4ull;
}

template <class S, int Threads, int Slots>
__global__ void __launch_bounds__(Threads)
spgemm_medium_rows_bitmap(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, MaskView mask,
                          const index_t* rows, const long long* segments, index_t* keys,
                          typename S::value_type* values, offset_t* row_nnz) {
  using V = typename S::value_type;
  static_assert((Slots & (Slots - 1)) == 0, "a power of two");
  index_t* table_keys = reinterpret_cast<index_t*>(dynamic_shared_bytes());
  V* table_values = reinterpret_cast<V*>(table_keys + Slots);
  unsigned* touched = reinterpret_cast<unsigned*>(table_values + Slots);
  __shared__ RowProductsStorage<Threads> products;
  __shared__ typename BlockScan<Threads, int>::TempStorage scan;
  const long long row = rows[blockIdx.x];
  const long long segment = segments[blockIdx.x];
  const int words = static_cast<int>((b.n_cols + 31) / 32);
  for (int c = threadIdx.x; c < Slots; c += Threads) {
    table_keys[c] = spgemm_no_column;
    table_values[c] = S::zero();
  }
  for (int w = threadIdx.x; w < words; w += Threads) touched[w] = 0u;
  __syncthreads();
  medium_accumulate<S, Threads, Slots>(a, b, mask, row, table_keys, table_values, products, [&](index_t j) {
    const unsigned bit = 1u << (j & 31);
    if ((touched[j >> 5] & bit) == 0u) atomicOr(&touched[j >> 5], bit);
  });
  const ThreadRange range = thread_range(words, Threads, threadIdx.x);
  int count = 0;
  for (int w = range.begin; w < range.end; ++w) count += __popc(touched[w]);
  int entries = 0;
  long long out = segment + BlockScan<Threads, int>::exclusive_sum(count, entries, scan);
  for (int w = range.begin; w < range.end; ++w) {
    for (unsigned bits = touched[w]; bits != 0u; bits &= bits - 1u) {
      const index_t j = w * 32 + __ffs(static_cast<int>(bits)) - 1;
      keys[out] = j;
      values[out] = table_values[medium_find<Slots>(table_keys, j)];
      ++out;
    }
  }
  if (threadIdx.x == 0) row_nnz[row] = entries;
}

template <class S, int Threads, int Slots>
__global__ void __launch_bounds__(Threads)
spgemm_medium_rows(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, MaskView mask, const index_t* rows,
                   const long long* segments, index_t* keys, typename S::value_type* values, offset_t* row_nnz) {
  using V = typename S::value_type;
  static_assert((Slots & (Slots - 1)) == 0 && Slots % Threads == 0, "a power of two, whole cells per thread");
  constexpr int per_thread = Slots / Threads;
  index_t* table_keys = reinterpret_cast<index_t*>(dynamic_shared_bytes());
  V* table_values = reinterpret_cast<V*>(table_keys + Slots);
  __shared__ RowProductsStorage<Threads> products;
  __shared__ typename BlockScan<Threads, int>::TempStorage scan;
  const long long row = rows[blockIdx.x];
  const long long segment = segments[blockIdx.x];
  for (int c = threadIdx.x; c < Slots; c += Threads) {
    table_keys[c] = spgemm_no_column;
    table_values[c] = S::zero();
  }
  __syncthreads();
  medium_accumulate<S, Threads, Slots>(a, b, mask, row, table_keys, table_values, products, [](index_t) {});
  // Compact the occupied cells to the front: each thread holds its cells in registers meanwhile.
  index_t held_keys[per_thread];
  V held_values[per_thread];
  int occupied = 0;
#pragma unroll
  for (int c = 0; c < per_thread; ++c) {
    held_keys[c] = table_keys[threadIdx.x * per_thread + c];
    held_values[c] = table_values[threadIdx.x * per_thread + c];
    occupied += held_keys[c] != spgemm_no_column ? 1 : 0;
  }
  int entries = 0;
  int out = BlockScan<Threads, int>::exclusive_sum(occupied, entries, scan);  // ends with a barrier
#pragma unroll
  for (int c = 0; c < per_thread; ++c) {
    if (held_keys[c] != spgemm_no_column) {
      table_keys[out] = held_keys[c];
      table_values[out] = held_values[c];
      ++out;
    }
  }
  __syncthreads();
  bitonic_sort_shared<Threads>(table_keys, table_values, entries);
  for (int t = threadIdx.x; t < entries; t += Threads) {
    keys[segment + t] = table_keys[t];
    values[segment + t] = table_values[t];
  }
  if (threadIdx.x == 0) row_nnz[row] = entries;
}

}  // namespace gql::device::spgemm
