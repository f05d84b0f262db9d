// BFS levels on every rank, level-synchronous: the frontier is a bit per vertex, the same on every
// rank; each rank expands the frontier's vertices among its rows (a block of equal edges), marking
// the unseen heads in its bits of the next frontier, and the ranks' bits are or-ed together (one
// allreduce of n bits per level). Every rank then writes the same new levels, so the levels never
// travel. The result is the one-process search's (gql/cpu/traversal.hpp): levels are unique.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "gql/common/traversal_stats.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

// The levels (0 at `source`) of the vertices reached from it over G's edges (rows to columns).
template <class TG>
Vector<int32_t> bfs_levels(const World& world, const Csr<TG>& G, int64_t source,
                           common::TraversalStats* stats = nullptr) {
  const int64_t n = G.n_rows();
  if (G.n_cols() != n)
    throw Error(ErrorKind::usage, "bfs: the graph is " + std::to_string(n) + " x " + std::to_string(G.n_cols()) +
                                      ", not square");
  common::check_source(n, source, "bfs");
  constexpr int32_t unseen = std::numeric_limits<int32_t>::max();
  const auto words = static_cast<size_t>((n + 63) / 64);
  std::vector<int32_t> level;
  std::vector<uint64_t> frontier, next;
  world.on_every_rank([&] {
    level.assign(static_cast<size_t>(n), unseen);
    frontier.assign(words, 0);
    next.assign(words, 0);
  });
  const auto offsets = G.row_offsets();
  const RowRange mine = rows_by_work(offsets, world.size(), world.rank());
  const CsrView gv(G);
  level[static_cast<size_t>(source)] = 0;
  frontier[static_cast<size_t>(source) / 64] = uint64_t{1} << (source % 64);
  common::TraversalStats total;
  for (int32_t depth = 1;; ++depth) {
    int64_t examined = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : examined) if (cpu::worth_threads(mine.size()))
    for (int64_t u = mine.begin; u < mine.end; ++u) {
      if (!(frontier[static_cast<size_t>(u) / 64] >> (u % 64) & 1)) continue;
      for (offset_t p = gv.begin(u); p < gv.end(u); ++p) {
        ++examined;
        const index_t v = gv.column(p);
        if (level[static_cast<size_t>(v)] == unseen)
          std::atomic_ref<uint64_t>(next[static_cast<size_t>(v) / 64])
              .fetch_or(uint64_t{1} << (v % 64), std::memory_order_relaxed);
      }
    }
    world.or_words(next);
    int64_t found = 0, found_edges = 0;
#pragma omp parallel for schedule(static) reduction(+ : found, found_edges) if (cpu::worth_threads(n / 64))
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t bits = next[w]; bits != 0; bits &= bits - 1) {
        const auto v = static_cast<int64_t>(w * 64) + std::countr_zero(bits);
        level[static_cast<size_t>(v)] = depth;
        ++found;
        found_edges += gv.degree(v);
      }
    }
    total.edges_examined += world.sum(examined);
    ++total.levels;
    if (found == 0) break;
    total.searched_edges += found_edges;
    frontier.swap(next);
    std::fill(next.begin(), next.end(), 0);
  }
  if (stats) {
    total.searched_edges += gv.degree(source);
    *stats = total;
  }
  Array<index_t> idx;
  Array<int32_t> val;
  for (int64_t v = 0; v < n; ++v)
    if (level[static_cast<size_t>(v)] != unseen) {
      idx.push_back(static_cast<index_t>(v));
      val.push_back(level[static_cast<size_t>(v)]);
    }
  return Vector<int32_t>::sparse(n, std::move(idx), std::move(val));
}

}  // namespace gql::dist
