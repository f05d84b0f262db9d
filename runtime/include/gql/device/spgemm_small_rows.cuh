// Small rows of C = A * B over a semiring S: one row per block. The row's (column, con(a, b))
// products are written to a scratch segment, sorted by the hybrid sort and reduced by key with agg,
// which leaves the row's entries with sorted columns. NVRTC-compatible.
#pragma once

#include "gql/device/csr_view.cuh"
#include "gql/device/hybrid_sort.cuh"
#include "gql/device/reduce_by_key.cuh"

namespace gql::device {

template <class S>
struct AggOf {
  GQL_HD typename S::value_type operator()(typename S::value_type x, typename S::value_type y) const {
    return S::agg(x, y);
  }
};

// Writes the products of `row` to keys/values[0, bound) in A's row order, B's row order within.
template <class S, int Threads>
__device__ void gather_row_products(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, long long row,
                                    index_t* keys, typename S::value_type* values) {
  int pos = 0;
  for (offset_t p = a.row_begin(row); p < a.row_end(row); ++p) {
    const index_t k = a.col_indices[p];
    const typename S::a_type a_value = a.value_at(p);
    const offset_t b_begin = b.row_begin(k);
    const int degree = static_cast<int>(b.row_end(k) - b_begin);
    for (int t = threadIdx.x; t < degree; t += Threads) {
      const index_t j = b.col_indices[b_begin + t];
      keys[pos + t] = j;
      values[pos + t] = S::con(a_value, b.value_at(b_begin + t), row, k, j);
    }
    pos += degree;
  }
  __syncthreads();
}

// Block r handles rows[r], whose products go to scratch [offsets[r], offsets[r+1]) of the four
// buffers. Its entries end in the primary buffers when in_primary[r] is 1, in the alternate ones
// otherwise; counts[r] is their number.
template <class S, int Threads, int ChunkItems>
__global__ void __launch_bounds__(Threads)
spgemm_small_rows(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, const index_t* rows,
                  const long long* offsets, index_t* keys, typename S::value_type* values, index_t* keys_alt,
                  typename S::value_type* values_alt, long long* counts, unsigned char* in_primary) {
  using V = typename S::value_type;
  using Sort = BlockHybridSort<Threads, ChunkItems, index_t, V>;
  using Reduce = BlockReduceByKey<Threads, index_t, V>;
  __shared__ typename Sort::TempStorage sort_storage;
  __shared__ typename Reduce::TempStorage reduce_storage;
  const long long row = rows[blockIdx.x];
  const long long base = offsets[blockIdx.x];
  const int n = static_cast<int>(offsets[blockIdx.x + 1] - base);
  gather_row_products<S, Threads>(a, b, row, keys + base, values + base);
  const bool sorted_in_alt = Sort::sort(keys + base, values + base, keys_alt + base, values_alt + base, n, sort_storage);
  // Reduce into whichever pair of buffers the sorted products are not in.
  const int runs = sorted_in_alt ? Reduce::reduce(keys_alt + base, values_alt + base, n, keys + base, values + base,
                                                  AggOf<S>{}, reduce_storage)
                                 : Reduce::reduce(keys + base, values + base, n, keys_alt + base, values_alt + base,
                                                  AggOf<S>{}, reduce_storage);
  if (threadIdx.x == 0) {
    counts[blockIdx.x] = runs;
    in_primary[blockIdx.x] = sorted_in_alt ? 1 : 0;
  }
}

// Copies each small row's reduced entries from scratch to dst at dst_offsets[r] (one block a row).
template <class V, int Threads>
__global__ void spgemm_compact_rows(const long long* offsets, const long long* counts, const unsigned char* in_primary,
                                    const index_t* keys, const V* values, const index_t* keys_alt,
                                    const V* values_alt, const long long* dst_offsets, index_t* dst_keys,
                                    V* dst_values) {
  const long long base = offsets[blockIdx.x];
  const index_t* src_keys = (in_primary[blockIdx.x] ? keys : keys_alt) + base;
  const V* src_values = (in_primary[blockIdx.x] ? values : values_alt) + base;
  const long long dst = dst_offsets[blockIdx.x];
  for (long long t = threadIdx.x; t < counts[blockIdx.x]; t += Threads) {
    dst_keys[dst + t] = src_keys[t];
    dst_values[dst + t] = src_values[t];
  }
}

}  // namespace gql::device
