// BFS levels on every rank, level-synchronous: the frontier is a bit per vertex, the same on every
// rank, and each rank works on the vertices of its rows (a block of equal edges). A push step expands
// the frontier's vertices among them, marking their unseen heads in the next frontier's bits; a pull
// step looks for a frontier vertex among the in-edges of each of its unseen vertices (the transpose,
// made once per graph and kept with it, or the graph itself when it is symmetric). The direction is
// chosen as the one-process search chooses it, from counts every rank has alike. The ranks' bits are
// or-ed together (one allreduce of n bits per level) and every rank writes the same new levels, so
// the levels never travel. The result is the one-process search's (gql/cpu/traversal.hpp): levels are
// unique.
#pragma once

#include <atomic>
#include <bit>
#include <cstdint>
#include <limits>
#include <vector>

#include "gql/common/direction.hpp"
#include "gql/common/traversal_stats.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

// The levels (0 at `source`) of the vertices reached from it over G's edges (rows to columns).
template <class TG>
Vector<int32_t> bfs_levels(const World& world, const Csr<TG>& G, int64_t source,
                           common::TraversalStats* stats = nullptr, const common::DirectionOptions& direction = {}) {
  const int64_t n = G.n_rows();
  if (G.n_cols() != n)
    throw Error(ErrorKind::usage, "bfs: the graph is " + std::to_string(n) + " x " + std::to_string(G.n_cols()) +
                                      ", not square");
  common::check_source(n, source, "bfs");
  constexpr int32_t unseen = std::numeric_limits<int32_t>::max();
  const auto words = static_cast<size_t>((n + 63) / 64);
  Array<int32_t> level;
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
  const auto in_frontier = [&](int64_t v) { return frontier[static_cast<size_t>(v) / 64] >> (v % 64) & 1; };
  const auto mark_next = [&](int64_t v) {
    std::atomic_ref<uint64_t>(next[static_cast<size_t>(v) / 64]).fetch_or(uint64_t{1} << (v % 64), std::memory_order_relaxed);
  };
  common::DirectionChooser chooser(direction);
  const Csr<TG>* transposed = nullptr;  // made at the first pull step
  int64_t frontier_size = 1, frontier_edges = gv.degree(source), open_edges = G.nvals();
  common::TraversalStats total;
  for (int32_t depth = 1;; ++depth) {
    int64_t examined = 0;
    if (chooser.pull(frontier_edges, open_edges, frontier_size, n)) {
      if (!transposed) transposed = &cpu::transpose_of(G);
      const CsrView gt(*transposed);
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : examined) if (cpu::worth_threads(mine.size()))
      for (int64_t v = mine.begin; v < mine.end; ++v) {
        if (level[static_cast<size_t>(v)] != unseen) continue;
        for (offset_t p = gt.begin(v); p < gt.end(v); ++p) {
          ++examined;
          if (in_frontier(gt.column(p))) {
            mark_next(v);
            break;
          }
        }
      }
      ++total.pull_steps;
    } else {
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : examined) if (cpu::worth_threads(mine.size()))
      for (int64_t u = mine.begin; u < mine.end; ++u) {
        if (!in_frontier(u)) continue;
        for (offset_t p = gv.begin(u); p < gv.end(u); ++p) {
          ++examined;
          const index_t v = gv.column(p);
          if (level[static_cast<size_t>(v)] == unseen) mark_next(v);
        }
      }
    }
    world.or_words(next);
    int64_t found = 0, found_edges = 0, found_in_edges = 0;
    const CsrView in(transposed ? *transposed : G);  // in-degrees, once a transpose exists (else G is symmetric or unread)
#pragma omp parallel for schedule(static) reduction(+ : found, found_edges, found_in_edges) if (cpu::worth_threads(n / 64))
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t bits = next[w]; bits != 0; bits &= bits - 1) {
        const auto v = static_cast<int64_t>(w * 64) + std::countr_zero(bits);
        level[static_cast<size_t>(v)] = depth;
        ++found;
        found_edges += gv.degree(v);
        found_in_edges += in.degree(v);
      }
    }
    total.edges_examined += world.sum(examined);
    ++total.levels;
    if (found == 0) break;
    total.searched_edges += found_edges;
    frontier_size = found;
    frontier_edges = found_edges;
    open_edges -= found_in_edges;
    frontier.swap(next);
    std::fill(next.begin(), next.end(), 0);
  }
  if (stats) {
    total.searched_edges += gv.degree(source);
    *stats = total;
  }
  return cpu::detail::reached_levels(level);  // unseen is the type's greatest value there too
}

}  // namespace gql::dist
