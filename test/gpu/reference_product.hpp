// The product C = A * B over a semiring policy S, computed the plainest way (an ordered map per
// row), for GPU tests to compare the device results with.
#pragma once

#include <map>
#include <utility>
#include <vector>

#include "gql/graph.hpp"

namespace gql {

template <class S>
Csr<typename S::value_type> reference(const Csr<typename S::a_type>& a, const Csr<typename S::b_type>& b) {
  using V = typename S::value_type;
  std::vector<offset_t> offsets{0};
  std::vector<index_t> cols;
  std::vector<V> vals;
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

}  // namespace gql
