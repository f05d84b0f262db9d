// Connected components for the label-propagation loop of std/components.gql, which the compiler
// recognizes (plan::recognize_traversals): every vertex takes the smallest starting label of its
// component. The loop needs a full pass over the graph per round; this finds the components once by
// union-find in the way of Afforest (Sutton, Ben-Nun and Barak, IPDPS 2018): link each vertex to its
// first neighbours, compress, guess the largest component from a sample, then link the remaining
// edges of the vertices outside it only (the edges inside it join nothing new). Linking always hangs
// the larger root under the smaller, so a finished tree's root is the smallest vertex of its component.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <limits>
#include <random>
#include <span>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include <omp.h>

#include "gql/cpu/parallel.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

namespace detail {

// Puts u's and v's trees together: the larger of the two roots is hung under the smaller. Lock-free:
// a compare-and-swap on a root's parent, retried from the new roots when another thread moved first.
inline void link(index_t u, index_t v, index_t* parent) {
  auto load = [&](index_t x) { return std::atomic_ref<index_t>(parent[x]).load(std::memory_order_relaxed); };
  index_t a = load(u), b = load(v);
  while (a != b) {
    const index_t high = std::max(a, b), low = std::min(a, b);
    index_t up = load(high);
    if (up == low) return;  // already joined
    if (up == high && std::atomic_ref<index_t>(parent[high]).compare_exchange_strong(up, low, std::memory_order_relaxed))
      return;
    a = load(load(high));
    b = load(low);
  }
}

// Every vertex points at its tree's root (other threads shorten the same paths meanwhile: every
// value read is still an ancestor).
inline void compress(Array<index_t>& parent) {
  const auto n = static_cast<int64_t>(parent.size());
  auto at = [&](index_t x) { return std::atomic_ref<index_t>(parent[static_cast<size_t>(x)]); };
#pragma omp parallel for schedule(static, 16384) if (worth_threads(n))
  for (int64_t v = 0; v < n; ++v) {
    const auto self = static_cast<index_t>(v);
    for (index_t up = at(self).load(std::memory_order_relaxed), top; (top = at(up).load(std::memory_order_relaxed)) != up;
         up = top)
      at(self).store(top, std::memory_order_relaxed);
  }
}

// The root held by most of 1024 sampled vertices: likely the largest component's. A fixed seed: the
// guess changes only how much work is skipped, never the components.
inline index_t frequent_root(const Array<index_t>& parent) {
  std::mt19937_64 draw(0x9e3779b97f4a7c15ULL);
  std::uniform_int_distribution<size_t> vertex(0, parent.size() - 1);
  std::unordered_map<index_t, int> seen;
  for (int s = 0; s < 1024; ++s) ++seen[parent[vertex(draw)]];
  return std::max_element(seen.begin(), seen.end(), [](const auto& x, const auto& y) { return x.second < y.second; })
      ->first;
}

}  // namespace detail

// Whether every entry (i, j) of G has its mirror (j, i): marked so (read with --symmetrize), or
// checked by a binary search per entry, the answer kept with G's contents.
template <class TG>
bool structure_is_symmetric(const Csr<TG>& G) {
  struct Answer {
    bool symmetric = false;
  };
  if (G.n_rows() != G.n_cols()) return false;
  if (G.derived().symmetric()) return true;
  return G.derived()
      .template get<Answer>("structure symmetric",
                            [&] {
                              const auto offsets = G.row_offsets();
                              const auto columns = G.col_indices();
                              const int64_t n = G.n_rows();
                              bool mirrored = true;
#pragma omp parallel for schedule(dynamic, 1024) reduction(&& : mirrored) if (worth_threads(G.nvals()))
                              for (int64_t i = 0; i < n; ++i)
                                for (offset_t p = offsets[static_cast<size_t>(i)];
                                     mirrored && p < offsets[static_cast<size_t>(i) + 1]; ++p) {
                                  const auto j = static_cast<size_t>(columns[static_cast<size_t>(p)]);
                                  const auto first = columns.begin() + offsets[j], last = columns.begin() + offsets[j + 1];
                                  mirrored = std::binary_search(first, last, static_cast<index_t>(i));
                                }
                              return Answer{mirrored};
                            })
      .symmetric;
}

// The fixed point of the loop `labels = union(labels, G * labels over (second, min), min)` run until
// nothing changes, computed by union-find: each entry of `labels` becomes the smallest starting label
// in its vertex's component. That is the loop's result when G's structure is symmetric and `labels`
// holds an entry exactly at the vertices with an edge (G's non-empty rows), as the loop starts in
// std/components.gql; otherwise this returns false and leaves `labels` as it was (the caller runs the
// loop as written). Where each starting label is its vertex's own id (as std/components.gql starts),
// the smallest is the id of the component's root, which the labels take without a pass of their own.
template <class TG, class L>
bool component_labels(const Csr<TG>& G, Vector<L>& labels, TraversalStats* stats = nullptr) {
  static_assert(std::is_integral_v<L> && !std::is_same_v<L, bool>, "component_labels: integer labels");
  const int64_t n = G.n_rows();
  if (labels.size() != n || !structure_is_symmetric(G)) return false;
  const auto offsets = G.row_offsets();
  const auto columns = G.col_indices();
  const auto degree = [&](int64_t v) { return offsets[static_cast<size_t>(v) + 1] - offsets[static_cast<size_t>(v)]; };
  // The labels' entries, read once (a vector's accessors settle waiting stores on every call).
  const int64_t count = labels.nvals();
  const bool dense = labels.is_dense();
  const std::span<const index_t> at = std::as_const(labels).indices();
  const std::span<const L> start = std::as_const(labels).values();
  const auto vertex_of = [&](int64_t p) { return dense ? p : static_cast<int64_t>(at[static_cast<size_t>(p)]); };
  if (n == 0) return true;

  // Every vertex its own tree (first touched by the threads that start it), the rows with entries
  // counted on the way: the starting labels must sit exactly there.
  Array<index_t> parent(static_cast<size_t>(n));
  int64_t with_edges = 0;
#pragma omp parallel for reduction(+ : with_edges) schedule(static, 16384) if (worth_threads(n))
  for (int64_t v = 0; v < n; ++v) {
    parent[static_cast<size_t>(v)] = static_cast<index_t>(v);
    with_edges += degree(v) > 0;
  }
  if (count != with_edges) return false;
  bool at_rows = true, own_ids = true;
#pragma omp parallel for reduction(&& : at_rows, own_ids) schedule(static, 16384) if (worth_threads(count))
  for (int64_t p = 0; p < count; ++p) {
    const int64_t v = vertex_of(p);
    at_rows = at_rows && (dense || degree(v) > 0);
    own_ids = own_ids && std::cmp_equal(start[static_cast<size_t>(p)], v);
  }
  if (!at_rows) return false;

  int64_t examined = 0;
  constexpr int sampled_neighbours = 2;
  for (int r = 0; r < sampled_neighbours; ++r) {
#pragma omp parallel for schedule(dynamic, 16384) reduction(+ : examined) if (worth_threads(n))
    for (int64_t u = 0; u < n; ++u)
      if (degree(u) > r) {
        detail::link(static_cast<index_t>(u), columns[static_cast<size_t>(offsets[static_cast<size_t>(u)] + r)],
                     parent.data());
        ++examined;
      }
    detail::compress(parent);
  }
  const index_t largest = detail::frequent_root(parent);
  // An edge between the largest component and another vertex is linked from that vertex's side: the
  // structure is symmetric.
#pragma omp parallel for schedule(dynamic, 16384) reduction(+ : examined) if (worth_threads(G.nvals()))
  for (int64_t u = 0; u < n; ++u) {
    if (std::atomic_ref<index_t>(parent[static_cast<size_t>(u)]).load(std::memory_order_relaxed) == largest) continue;
    for (offset_t p = offsets[static_cast<size_t>(u)] + sampled_neighbours; p < offsets[static_cast<size_t>(u) + 1]; ++p) {
      detail::link(static_cast<index_t>(u), columns[static_cast<size_t>(p)], parent.data());
      ++examined;
    }
  }

  // Nothing links any more: a labelled vertex's root is found by walking up, with no pass that
  // compresses every tree first.
  const auto root = [&](int64_t v) {
    index_t r = parent[static_cast<size_t>(v)];
    while (parent[static_cast<size_t>(r)] != r) r = parent[static_cast<size_t>(r)];
    return r;
  };
  const std::span<L> out = labels.values();
  if (own_ids) {
    // The root is the component's smallest vertex, and every vertex with an edge starts at its own id.
#pragma omp parallel for schedule(static, 16384) if (worth_threads(count))
    for (int64_t p = 0; p < count; ++p) out[static_cast<size_t>(p)] = static_cast<L>(root(vertex_of(p)));
  } else {
    // The smallest starting label of each component, kept at its root.
    Array<L> smallest(static_cast<size_t>(n));
#pragma omp parallel for schedule(static, 16384) if (worth_threads(n))
    for (int64_t v = 0; v < n; ++v) smallest[static_cast<size_t>(v)] = std::numeric_limits<L>::max();
#pragma omp parallel for schedule(static, 16384) if (worth_threads(count))
    for (int64_t p = 0; p < count; ++p) {
      std::atomic_ref<L> best(smallest[static_cast<size_t>(root(vertex_of(p)))]);
      L seen = best.load(std::memory_order_relaxed);
      const L mine = start[static_cast<size_t>(p)];
      while (mine < seen && !best.compare_exchange_weak(seen, mine, std::memory_order_relaxed)) {
      }
    }
#pragma omp parallel for schedule(static, 16384) if (worth_threads(count))
    for (int64_t p = 0; p < count; ++p) out[static_cast<size_t>(p)] = smallest[static_cast<size_t>(root(vertex_of(p)))];
  }
  if (stats) *stats = TraversalStats{.levels = 0, .pull_steps = 0, .edges_examined = examined, .searched_edges = 0};
  return true;
}

}  // namespace gql::cpu
