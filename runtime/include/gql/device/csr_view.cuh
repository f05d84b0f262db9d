// A non-owning view of a CSR graph in device memory, passed by value to kernels.
// NVRTC-compatible.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device {

// The first position p in [begin, end) of the sorted `keys` with keys[p] >= key (end when none): where
// key is stored, or where it would go (a row's columns, a sparse vector's indices).
template <class Key, class Position>
GQL_HD Position first_not_below(const Key* keys, Position begin, Position end, Key key) {
  while (begin < end) {
    const Position mid = begin + (end - begin) / 2;
    if (keys[mid] < key) begin = mid + 1;
    else end = mid;
  }
  return begin;
}

template <class T>
struct CsrView {
  long long n_rows = 0;
  long long n_cols = 0;
  const offset_t* row_offsets = nullptr;  // n_rows + 1
  const index_t* col_indices = nullptr;   // nvals, sorted per row
  const storage_t<T>* values = nullptr;   // nvals; null for pattern graphs (T = bool)

  GQL_HD offset_t row_begin(long long row) const { return row_offsets[row]; }
  GQL_HD offset_t row_end(long long row) const { return row_offsets[row + 1]; }
  // The value of the p-th stored entry: true for pattern graphs.
  GQL_HD T value_at(offset_t p) const {
    if constexpr (is_same<T, bool>::value) return true;
    else return values[p];
  }
};

}  // namespace gql::device
