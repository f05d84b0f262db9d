// A graph of the most skewed degrees for the traversal tests: vertex 0 joined to each of the n - 1
// leaves, and a path of ten more vertices hanging off the last leaf, so that later levels start from
// low-degree vertices. Symmetric (each edge both ways).
#pragma once

#include <cstdint>
#include <utility>

#include "gql/edge_list.hpp"
#include "gql/graph.hpp"
#include "gql/io.hpp"

namespace gql::gpu_test {

inline Csr<bool> star(int64_t n) {
  EdgeList<bool> edges;
  edges.n_rows = edges.n_cols = n + 10;
  const auto join = [&](int64_t a, int64_t b) {
    edges.rows.push_back(static_cast<index_t>(a));
    edges.cols.push_back(static_cast<index_t>(b));
    edges.rows.push_back(static_cast<index_t>(b));
    edges.cols.push_back(static_cast<index_t>(a));
  };
  for (int64_t v = 1; v < n; ++v) join(0, v);
  for (int64_t v = n; v < n + 10; ++v) join(v - 1, v);
  return build_csr(std::move(edges), ReadOptions{}, "star");
}

}  // namespace gql::gpu_test
