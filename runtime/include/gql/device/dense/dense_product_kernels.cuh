// The kernels of the products of a dense matrix with a graph or a vector on the device
// (gql/device/dense/dense_products.hpp). One thread per output: it folds its k in ascending order,
// as the host's twins do (gql/cpu/dense_products.hpp), so each output combines the same terms in
// the same order.
//
//   graph x matrix   C(i, j) over row i of G: k is each entry's column, B(k, j) read by neighbouring
//                    threads in neighbouring words (j fastest).
//   matrix x graph   C(i, j) over row j of G's transpose (its k ascending): A(i, k) read from one row
//                    of A by a warp.
//   matrix x vector  w(i) over the vector's entries, a thread per row.
//   vector x matrix  w(j) over the vector's entries, A(k, j) read by neighbouring threads in
//                    neighbouring words.
//
// Compiled by nvcc: generated code and the GPU tests.
#pragma once

#include "gql/device.hpp"
#include "gql/device/csr_view.cuh"
#include "gql/device/values/vector_slots.cuh"

namespace gql::device::dense {

// The k-th entry of a vector's entries as they lie on the device: a dense vector's are every
// position (indices null), a sparse one's its index list.
template <class T>
struct VectorEntries {
  const index_t* indices;  // null when dense
  const storage_t<T>* values;
  long long count;
  __device__ long long index(long long e) const { return indices ? static_cast<long long>(indices[e]) : e; }
};

// C = G * B: c[i * q + j] for every (i, j) of C (m x q).
template <class S, class TG, class TB>
struct GraphTimesDense {
  CsrView<TG> g;
  const storage_t<TB>* b;
  storage_t<typename S::value_type>* c;
  long long q;
  __device__ void operator()(long long p) const {
    const long long i = p / q, j = p % q;
    typename S::value_type acc = S::zero();
    for (offset_t e = g.row_begin(i); e < g.row_end(i); ++e) {
      const long long k = g.col_indices[e];
      acc = S::agg(acc, S::con(g.value_at(e), TB(b[k * q + j]), i, k, j));
    }
    c[p] = static_cast<storage_t<typename S::value_type>>(acc);
  }
};

// C = A * G from G's transpose gt (q x p): c[i * q + j] for every (i, j) of C (m x q).
template <class S, class TA, class TG>
struct DenseTimesGraph {
  const storage_t<TA>* a;
  CsrView<TG> gt;
  storage_t<typename S::value_type>* c;
  long long p, q;
  __device__ void operator()(long long position) const {
    const long long i = position / q, j = position % q;
    typename S::value_type acc = S::zero();
    for (offset_t e = gt.row_begin(j); e < gt.row_end(j); ++e) {
      const long long k = gt.col_indices[e];
      acc = S::agg(acc, S::con(TA(a[i * p + k]), gt.value_at(e), i, k, j));
    }
    c[position] = static_cast<storage_t<typename S::value_type>>(acc);
  }
};

// w = A * v (VectorFirst false) or v * A (true): slot o of w for every o, every slot present. A's
// element for output o and the vector's index k is a[o * o_step + k * k_step]: A * v reads row o
// (o_step = A's columns, k_step = 1), v * A column o (o_step = 1, k_step = A's columns).
template <class S, bool VectorFirst, class TV, class TA>
struct DenseVectorProduct {
  VectorEntries<TV> v;
  const storage_t<TA>* a;
  long long o_step, k_step;
  values::SlotsOut<typename S::value_type> w;
  __device__ void operator()(long long o) const {
    typename S::value_type acc = S::zero();
    for (long long e = 0; e < v.count; ++e) {
      const long long k = v.index(e);
      const TA x = TA(a[o * o_step + k * k_step]);
      if constexpr (VectorFirst) acc = S::agg(acc, S::con(TV(v.values[e]), x, 0, k, o));
      else acc = S::agg(acc, S::con(x, TV(v.values[e]), o, k, 0));
    }
    w.values[o] = static_cast<storage_t<typename S::value_type>>(acc);
    w.present[o] = 1;
  }
};

}  // namespace gql::device::dense
