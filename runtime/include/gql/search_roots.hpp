// Search roots drawn as Graph500 draws them: distinct vertices, uniformly at random among those with
// an edge other than a self-loop, from a seeded generator so that every run searches from the same
// roots. Programs take them as `--src random:COUNT[:SEED]`; the benchmarks use the same draw.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql {

// The vertices a root may be: those of rows [first, first + rows) of g with an edge other than a
// self-loop (row r of g is vertex first + r), in order.
template <class T>
std::vector<int64_t> root_candidates(const Csr<T>& g, int64_t first = 0) {
  std::vector<int64_t> eligible;
  const CsrView view(g);
  for (int64_t r = 0; r < g.n_rows(); ++r) {
    bool has_edge = false;
    for (offset_t p = view.begin(r); p < view.end(r) && !has_edge; ++p) has_edge = view.column(p) != first + r;
    if (has_edge) eligible.push_back(first + r);
  }
  return eligible;
}

// `count` distinct roots among the candidates (a partial Fisher-Yates shuffle, so the draw is uniform
// and bounded in time). Error(usage) when there are fewer candidates than `count`.
inline std::vector<int64_t> draw_from_candidates(std::vector<int64_t> eligible, int64_t count, uint64_t seed) {
  if (count < 0 || count > static_cast<int64_t>(eligible.size()))
    throw Error(ErrorKind::usage, "cannot draw " + std::to_string(count) + " search roots: the graph has " +
                                      std::to_string(eligible.size()) +
                                      " vertices with an edge other than a self-loop");
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < count; ++i) {
    std::uniform_int_distribution<int64_t> rest(i, static_cast<int64_t>(eligible.size()) - 1);
    std::swap(eligible[static_cast<size_t>(i)], eligible[static_cast<size_t>(rest(rng))]);
  }
  eligible.resize(static_cast<size_t>(count));
  return eligible;
}

// `count` distinct roots of g.
template <class T>
std::vector<int64_t> draw_search_roots(const Csr<T>& g, int64_t count, uint64_t seed) {
  return draw_from_candidates(root_candidates(g), count, seed);
}

}  // namespace gql
