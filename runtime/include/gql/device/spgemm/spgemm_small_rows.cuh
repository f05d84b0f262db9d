// Small rows of C = A * B over a semiring S, sorted: one block per row, launched once over all rows
// of a bin. The row's (column, con(a, b)) products are sorted by column and reduced by key with
// agg, which leaves the row's entries with sorted columns in its scratch segment.
//   spgemm_small_rows:  rows whose products fit one shared-memory chunk: gathered, bitonic-sorted
//                       and reduced without leaving shared memory.
//   spgemm_sorted_rows: longer rows (spilled to global memory): gathered into the scratch segment,
//                       sorted there by the hybrid sort (bitonic chunks, merge-path merge tree)
//                       with an alternate buffer, then reduced.
// Products that the mask rejects get the column spgemm_no_column, which sorts last and is dropped.
// NVRTC-compatible.
#pragma once

#include "gql/device/spgemm/hybrid_sort.cuh"
#include "gql/device/spgemm/reduce_by_key.cuh"
#include "gql/device/spgemm/spgemm_mask.cuh"
#include "gql/device/spgemm/spgemm_row_products.cuh"

namespace gql::device::spgemm {

// Greater than every column of C (columns are 32-bit and C has fewer than 2^31 - 1 of them).
inline constexpr index_t spgemm_no_column = 0x7fffffff;

template <class S>
struct AggOf {
  GQL_HD typename S::value_type operator()(typename S::value_type x, typename S::value_type y) const {
    return S::agg(x, y);
  }
};

// Sorts keys/values[0, count) in shared memory by the bitonic network of the hybrid sort (padding
// to the next power of two is virtual). Called by every thread.
template <int Threads, class Key, class Value>
__device__ void bitonic_sort_shared(Key* keys, Value* values, int count) {
  const int padded = next_pow2(count);
  for (int k = 2; k <= padded; k *= 2) {
    for (int j = k / 2; j >= 1; j /= 2) {
      for (int t = threadIdx.x; t < padded / 2; t += Threads) {
        const Comparator c = bitonic_comparator(k, j, t);
        if (c.hi < count && keys[c.hi] < keys[c.lo]) {
          const Key key = keys[c.lo];
          keys[c.lo] = keys[c.hi];
          keys[c.hi] = key;
          const Value value = values[c.lo];
          values[c.lo] = values[c.hi];
          values[c.hi] = value;
        }
      }
      __syncthreads();
    }
  }
}

// The product at A entry p, B entry q of `row`, or spgemm_no_column when the mask rejects it.
template <class S>
__device__ __forceinline__ void make_product(const CsrView<typename S::a_type>& a,
                                             const CsrView<typename S::b_type>& b, const MaskView& mask,
                                             long long row, offset_t p, index_t k, offset_t q, index_t& key,
                                             typename S::value_type& value) {
  const index_t j = b.col_indices[q];
  if (mask.allows(row, j)) {
    key = j;
    value = S::con(operand_value<S>(a, p), operand_value<S>(b, q), row, k, j);
  } else {
    key = spgemm_no_column;
    value = S::zero();
  }
}

// Block r takes rows[r]; its entries go to keys/values from segments[r]; row_nnz[rows[r]] = their number.
template <class S, int Threads, int Items>
__global__ void __launch_bounds__(Threads)
spgemm_small_rows(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, MaskView mask, const index_t* rows,
                  const long long* segments, index_t* keys, typename S::value_type* values, offset_t* row_nnz) {
  using V = typename S::value_type;
  using Reduce = BlockReduceByKey<Threads, index_t, V>;
  __shared__ index_t row_keys[Items];
  __shared__ V row_values[Items];
  __shared__ RowProductsStorage<Threads> products;
  __shared__ typename Reduce::TempStorage reduce_storage;
  const long long row = rows[blockIdx.x];
  const long long segment = segments[blockIdx.x];
  const int n = for_each_row_product<Threads>(a, b, row, products, [&](int x, offset_t p, index_t k, offset_t q) {
    make_product<S>(a, b, mask, row, p, k, q, row_keys[x], row_values[x]);
  });
  bitonic_sort_shared<Threads>(row_keys, row_values, n);
  int runs = Reduce::reduce(row_keys, row_values, n, keys + segment, values + segment, AggOf<S>{}, reduce_storage);
  if (n > 0 && row_keys[n - 1] == spgemm_no_column) --runs;
  if (threadIdx.x == 0) row_nnz[row] = runs;
}

// Block r takes rows[r] with the hybrid sort in global memory: the products in keys/values from
// segments[r], the alternate buffers from segments[r] - alt_base.
template <class S, int Threads, int ChunkItems>
__global__ void __launch_bounds__(Threads)
spgemm_sorted_rows(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, MaskView mask, const index_t* rows,
                   const long long* segments, long long alt_base, index_t* keys, typename S::value_type* values,
                   index_t* keys_alt, typename S::value_type* values_alt, offset_t* row_nnz) {
  using V = typename S::value_type;
  using Sort = BlockHybridSort<Threads, ChunkItems, index_t, V>;
  using Reduce = BlockReduceByKey<Threads, index_t, V>;
  __shared__ typename Sort::TempStorage sort_storage;
  __shared__ RowProductsStorage<Threads> products;
  __shared__ typename Reduce::TempStorage reduce_storage;
  const long long row = rows[blockIdx.x];
  const long long segment = segments[blockIdx.x];
  index_t* k1 = keys + segment;
  V* v1 = values + segment;
  index_t* k2 = keys_alt + (segment - alt_base);
  V* v2 = values_alt + (segment - alt_base);
  const int n = for_each_row_product<Threads>(a, b, row, products, [&](int x, offset_t p, index_t k, offset_t q) {
    make_product<S>(a, b, mask, row, p, k, q, k1[x], v1[x]);
  });
  const bool sorted_in_alt = Sort::sort(k1, v1, k2, v2, n, sort_storage);
  int runs = 0;
  if (sorted_in_alt) {
    runs = Reduce::reduce(k2, v2, n, k1, v1, AggOf<S>{}, reduce_storage);
    if (n > 0 && k2[n - 1] == spgemm_no_column) --runs;
  } else {
    runs = Reduce::reduce(k1, v1, n, k2, v2, AggOf<S>{}, reduce_storage);
    if (n > 0 && k1[n - 1] == spgemm_no_column) --runs;
    __syncthreads();
    for (int t = threadIdx.x; t < runs; t += Threads) {  // the entries belong in the segment
      k1[t] = k2[t];
      v1[t] = v2[t];
    }
  }
  if (threadIdx.x == 0) row_nnz[row] = runs;
}

}  // namespace gql::device::spgemm
