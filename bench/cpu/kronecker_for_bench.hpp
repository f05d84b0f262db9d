// Graph500 Kronecker graphs for the CPU benchmarks (initiator A = 0.57, B = C = 0.19, random vertex
// relabelling, duplicate edges and self-loops removed), built straight into CSR. The benchmarks
// carry their own copy so they do not depend on the runtime's generators.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include <omp.h>

#include "gql/graph.hpp"

namespace gql::bench {

struct KroneckerOptions {
  int scale = 16;
  int edge_factor = 16;
  bool symmetric = false;  // add (v, u) for every (u, v)
  uint64_t seed = 20261130;
};

inline Csr<bool> kronecker_graph(const KroneckerOptions& o) {
  const int64_t n = int64_t{1} << o.scale;
  const int64_t n_edges = n * o.edge_factor;
  // Random relabelling of vertices so the degree skew is not tied to the id order.
  std::vector<uint32_t> label(static_cast<size_t>(n));
  std::iota(label.begin(), label.end(), 0u);
  std::mt19937_64 shuffle_rng(o.seed);
  std::shuffle(label.begin(), label.end(), shuffle_rng);

  std::vector<uint64_t> keys(static_cast<size_t>(o.symmetric ? 2 * n_edges : n_edges));
  constexpr int64_t block = 1 << 16;
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t b = 0; b < (n_edges + block - 1) / block; ++b) {
    std::mt19937_64 rng(o.seed * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(b));
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (int64_t e = b * block; e < std::min(n_edges, (b + 1) * block); ++e) {
      uint64_t u = 0, v = 0;
      for (int level = 0; level < o.scale; ++level) {
        const double r = coin(rng);
        const uint64_t down = r >= 0.57 + 0.19 ? 1 : 0;             // quadrants C and D
        const uint64_t right = (r >= 0.57 && r < 0.76) || r >= 0.95;  // quadrants B and D
        u = (u << 1) | down;
        v = (v << 1) | right;
      }
      const uint64_t lu = label[u], lv = label[v];
      keys[static_cast<size_t>(e)] = lu << 32 | lv;
      if (o.symmetric) keys[static_cast<size_t>(n_edges + e)] = lv << 32 | lu;
    }
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::erase_if(keys, [](uint64_t k) { return (k >> 32) == (k & 0xffffffffu); });

  std::vector<offset_t> offsets(static_cast<size_t>(n) + 1, 0);
  std::vector<index_t> cols(keys.size());
  for (size_t p = 0; p < keys.size(); ++p) {
    ++offsets[(keys[p] >> 32) + 1];
    cols[p] = static_cast<index_t>(keys[p] & 0xffffffffu);
  }
  for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
  return Csr<bool>(n, n, std::move(offsets), std::move(cols));
}

}  // namespace gql::bench
