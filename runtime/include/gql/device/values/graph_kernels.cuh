// The kernels' functions of the graphs' ops on the device (gql/device/values/graph_ops.hpp), each
// run at every index by gql::gpu::slots_detail::launch_for_each: values mapped through the spec's
// function or converted, the entries of a filled graph, and two graphs' rows merged by column (a
// thread per row) for union and intersect.
//
// Compiled by nvcc: generated code and the GPU tests.
#pragma once

#include "gql/device/csr_view.cuh"
#include "gql/device/values/vector_slots.cuh"

namespace gql::device::values {

// out[p] = fn(in[p]) as R, over a graph's stored values (a pattern graph's are all true: in is null)
// or a dense matrix's entries.
template <class R, class T, class F>
struct MapValues {
  const storage_t<T>* in;
  F fn;
  storage_t<R>* out;
  __device__ void operator()(long long p) const { out[p] = cast_to<R>(fn(in != nullptr ? T(in[p]) : T(true))); }
};

// A stored value as it is: with MapValues, the conversion of one element type into another.
struct AsStored {
  template <class T>
  __device__ T operator()(T x) const { return x; }
};

// The graph a scalar assignment writes before the mask: row i's offset i * cols and entry p's column
// p % cols, of rows x cols entries.
struct FullRowOffsets {
  long long cols;
  offset_t* offsets;
  __device__ void operator()(long long i) const { offsets[i] = i * cols; }
};
struct FullColumns {
  long long cols;
  index_t* columns;
  __device__ void operator()(long long p) const { columns[p] = static_cast<index_t>(p % cols); }
};

// Row i of A and B merged by column: emit(j, p, q) for each column of the union (intersect: of both),
// p and q the entries' positions in A and B, -1 where one has none.
template <bool union_of_rows, class Emit>
__device__ void merge_row(const CsrView<bool>& a, const CsrView<bool>& b, long long i, Emit&& emit) {
  offset_t p = a.row_offsets[i], q = b.row_offsets[i];
  const offset_t p_end = a.row_offsets[i + 1], q_end = b.row_offsets[i + 1];
  while (p < p_end || q < q_end) {
    const bool take_a = q == q_end || (p < p_end && a.col_indices[p] <= b.col_indices[q]);
    const bool take_b = p == p_end || (q < q_end && b.col_indices[q] <= a.col_indices[p]);
    const index_t j = take_a ? a.col_indices[p] : b.col_indices[q];
    if (union_of_rows || (take_a && take_b)) emit(j, take_a ? p : offset_t{-1}, take_b ? q : offset_t{-1});
    p += take_a;
    q += take_b;
  }
}

template <bool union_of_rows>
struct MergedRowLength {
  CsrView<bool> a, b;
  offset_t* lengths;
  __device__ void operator()(long long i) const {
    offset_t n = 0;
    merge_row<union_of_rows>(a, b, i, [&](index_t, offset_t, offset_t) { ++n; });
    lengths[i] = n;
  }
};

template <bool union_of_rows, class R, class TA, class TB, class F>
struct MergedRow {
  CsrView<bool> a, b;
  const storage_t<TA>* a_values;  // null: a pattern graph, every value true
  const storage_t<TB>* b_values;
  F fn;
  const offset_t* offsets;
  index_t* columns;
  storage_t<R>* values;
  __device__ void operator()(long long i) const {
    offset_t at = offsets[i];
    merge_row<union_of_rows>(a, b, i, [&](index_t j, offset_t p, offset_t q) {
      const TA x = p < 0 ? TA{} : a_values != nullptr ? TA(a_values[p]) : TA(true);
      const TB y = q < 0 ? TB{} : b_values != nullptr ? TB(b_values[q]) : TB(true);
      columns[at] = j;
      values[at] = p >= 0 && q >= 0 ? cast_to<R>(fn(x, y))
                   : p >= 0         ? cast_to<R>(x)
                                    : cast_to<R>(y);
      ++at;
    });
  }
};

}  // namespace gql::device::values
