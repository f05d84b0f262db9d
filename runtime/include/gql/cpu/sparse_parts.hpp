// A product's result vector built by blocks of column_block indices, each block filled by one thread
// in index order, then joined into one sparse vector by all threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gql/cpu/parallel.hpp"
#include "gql/graph.hpp"

namespace gql::cpu::detail {

inline constexpr int64_t column_block = 4096;

template <class V>
struct SparseParts {
  std::vector<std::vector<index_t>> indices;
  std::vector<std::vector<storage_t<V>>> values;
  explicit SparseParts(int64_t blocks) : indices(static_cast<size_t>(blocks)), values(static_cast<size_t>(blocks)) {}

  Vector<V> concatenate(int64_t size) {
    const size_t blocks = indices.size();
    std::vector<size_t> at(blocks + 1, 0);
    for (size_t b = 0; b < blocks; ++b) at[b + 1] = at[b] + indices[b].size();
    Array<index_t> idx(at.back());
    Array<storage_t<V>> val(at.back());
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(at.back())))
    for (size_t b = 0; b < blocks; ++b) {
      std::copy(indices[b].begin(), indices[b].end(), idx.begin() + static_cast<std::ptrdiff_t>(at[b]));
      std::copy(values[b].begin(), values[b].end(), val.begin() + static_cast<std::ptrdiff_t>(at[b]));
    }
    return Vector<V>::sparse(size, std::move(idx), std::move(val));
  }
};

}  // namespace gql::cpu::detail
