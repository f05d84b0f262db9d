// The product C = A * B over a semiring policy S, computed the plainest way (an ordered map per
// row), and the check that a device result equals it, for the GPU product tests.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "gpu_check.hpp"
#include "gql/graph.hpp"

namespace gql {

template <class S>
Csr<typename S::value_type> reference(const Csr<typename S::a_type>& a, const Csr<typename S::b_type>& b) {
  using V = typename S::value_type;
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  gql::Array<V> vals;
  for (int64_t i = 0; i < a.n_rows(); ++i) {
    std::map<index_t, V> row;
    for (offset_t p = a.row_offsets()[i]; p < a.row_offsets()[i + 1]; ++p) {
      const index_t k = a.col_indices()[p];
      for (offset_t q = b.row_offsets()[k]; q < b.row_offsets()[k + 1]; ++q) {
        const index_t j = b.col_indices()[q];
        const V product = S::con(a.value_at(p), b.value_at(q), i, k, j);
        auto [it, fresh] = row.try_emplace(j, product);
        if (!fresh) it->second = S::agg(it->second, product);
      }
    }
    for (auto& [j, v] : row) {
      cols.push_back(j);
      vals.push_back(v);
    }
    offsets.push_back(static_cast<offset_t>(cols.size()));
  }
  return Csr<V>(a.n_rows(), b.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

// Checks that `got` is a valid CSR with exactly the entries of `expected`; `where` names the case.
template <class V>
void compare_with_reference(const Csr<V>& got, const Csr<V>& expected, const std::string& where) {
  try {
    got.validate();
  } catch (const Error& e) {
    GPU_CHECK_MSG(false, where + ": " + e.what());
    return;
  }
  GPU_CHECK_MSG(got.nvals() == expected.nvals(), where + ": " + std::to_string(got.nvals()) + " entries, expected " +
                                                     std::to_string(expected.nvals()));
  if (got.nvals() != expected.nvals()) return;
  const bool same = std::equal(got.row_offsets().begin(), got.row_offsets().end(), expected.row_offsets().begin()) &&
                    std::equal(got.col_indices().begin(), got.col_indices().end(), expected.col_indices().begin()) &&
                    std::equal(got.values().begin(), got.values().end(), expected.values().begin());
  GPU_CHECK_MSG(same, where + ": entries differ from the CPU reference");
}

}  // namespace gql
