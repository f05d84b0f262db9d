// Vectors for the GPU tests of vector ops and products: equality of storage form, indices and value
// bytes, and sparse vectors over every `stride`-th index.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "gql/graph.hpp"

namespace gql::gpu_test {

template <class T>
bool same_vector(const Vector<T>& a, const Vector<T>& b) {
  if (a.size() != b.size() || a.is_dense() != b.is_dense() || a.nvals() != b.nvals()) return false;
  if (!std::equal(a.indices().begin(), a.indices().end(), b.indices().begin())) return false;
  return std::memcmp(a.values().data(), b.values().data(), a.values().size() * sizeof(storage_t<T>)) == 0;
}

// A sparse vector over every `stride`-th index k from `first`, its value value_of(k) as T.
template <class T, class ValueOf>
Vector<T> every(int64_t n, int64_t first, int64_t stride, ValueOf value_of) {
  Array<index_t> idx;
  Array<storage_t<T>> val;
  for (int64_t k = first; k < n; k += stride) {
    idx.push_back(static_cast<index_t>(k));
    val.push_back(static_cast<storage_t<T>>(convert_element<T>(value_of(k))));
  }
  return Vector<T>::sparse(n, std::move(idx), std::move(val));
}

}  // namespace gql::gpu_test
