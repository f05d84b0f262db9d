// A random graph with skewed degrees for product tests: a hub every `hub_every` rows with n /
// hub_divisor entries, the other rows with fewer than `low_degrees`, and half of all entries in the
// first 16 columns so that hubs are also reached often. Columns are sorted and unique per row,
// weights in [1, 4].
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include "gql/graph.hpp"

namespace gql::test_support {

struct SkewedDegrees {
  int64_t hub_every = 97;
  int64_t hub_divisor = 3;
  uint64_t low_degrees = 12;
};

template <class T>
Csr<T> skewed_graph(int64_t n, uint64_t seed, const SkewedDegrees& shape = {}) {
  std::mt19937_64 rng(seed);
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  gql::Array<storage_t<T>> vals;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t degree =
        i % shape.hub_every == 0 ? n / shape.hub_divisor : static_cast<int64_t>(rng() % shape.low_degrees);
    std::map<index_t, int> row;
    for (int64_t d = 0; d < degree; ++d) {
      const index_t j = static_cast<index_t>(rng() % 2 ? rng() % 16 : rng() % static_cast<uint64_t>(n));
      row[j] = static_cast<int>(1 + rng() % 4);
    }
    for (const auto& [j, w] : row) {
      cols.push_back(j);
      if constexpr (stores_values<T>) vals.push_back(static_cast<storage_t<T>>(w));
    }
    offsets.push_back(static_cast<offset_t>(cols.size()));
  }
  Csr<T> g(n, n, std::move(offsets), std::move(cols), std::move(vals));
  g.validate();
  return g;
}

}  // namespace gql::test_support
