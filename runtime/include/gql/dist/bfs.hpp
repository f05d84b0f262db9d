// BFS levels on every rank, level-synchronous: the frontier is a bit per vertex, the same on every
// rank, and each rank works on the vertices of its rows (a block of equal edges), of a graph every
// rank holds or of one split across the ranks (gql/dist/split_graph.hpp), where a rank holds its
// rows only and the in-edges of a pull step come from the split transpose. A push step expands
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
#include <optional>
#include <string>
#include <vector>

#include "gql/common/direction.hpp"
#include "gql/common/traversal_stats.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist {
namespace detail {

// Rows of a graph as one rank holds them: row v of the graph is row v - base of `rows`.
template <class TG>
struct HeldRows {
  CsrView<TG> rows;
  int64_t base;
  offset_t begin(int64_t v) const noexcept { return rows.begin(v - base); }
  offset_t end(int64_t v) const noexcept { return rows.end(v - base); }
  index_t column(offset_t p) const noexcept { return rows.column(p); }
};

// A graph every rank holds: this rank's rows are read in place; in-edges from its transpose, made
// once per graph and kept with it (the graph itself when symmetric).
template <class TG>
class WholeRows {
 public:
  explicit WholeRows(const Csr<TG>& G) : G_(G), out_(G) {}
  HeldRows<TG> out_rows() const { return {out_, 0}; }
  HeldRows<TG> in_rows() {
    if (!in_) in_.emplace(cpu::transpose_of(G_));
    return {*in_, 0};
  }
  int64_t out_degree(int64_t v) const noexcept { return out_.degree(v); }
  // In-degrees once in_rows() was called; until then the out-degrees (G symmetric, or not yet pulled).
  int64_t in_degree(int64_t v) const noexcept { return (in_ ? *in_ : out_).degree(v); }

 private:
  const Csr<TG>& G_;
  CsrView<TG> out_;
  std::optional<CsrView<TG>> in_;  // the transpose's rows
};

// A graph split across the ranks: this rank's block; in-edges from the split transpose, made at the
// first pull step (a collective call: every rank chooses its directions alike). Every vertex's
// degrees are known to every rank (n of each, joined from the blocks). The transpose and the degrees
// are kept with the blocks (each rank's alike, so every rank finds them or makes them together).
template <class TG>
class SplitRows {
 public:
  SplitRows(const World& world, const SplitGraph<TG>& G)
      : world_(world), G_(G), out_degrees_(&degrees(world, G.block())) {}
  HeldRows<TG> out_rows() const { return {CsrView<TG>(G_.block()), G_.mine().begin}; }
  HeldRows<TG> in_rows() {
    if (G_.symmetric()) return out_rows();
    if (!transposed_) {
      transposed_ = &G_.block().derived().template get<SplitGraph<TG>>("dist: the split transpose",
                                                                      [&] { return transpose(world_, G_); });
      in_degrees_ = &degrees(world_, transposed_->block());
    }
    return {CsrView<TG>(transposed_->block()), G_.mine().begin};
  }
  int64_t out_degree(int64_t v) const noexcept { return (*out_degrees_)[static_cast<size_t>(v)]; }
  int64_t in_degree(int64_t v) const noexcept {
    return (*(transposed_ ? in_degrees_ : out_degrees_))[static_cast<size_t>(v)];
  }

 private:
  // Every vertex's degree in the graph whose block this is, kept with the block.
  static const Array<offset_t>& degrees(const World& world, const Csr<TG>& block) {
    return block.derived().template get<Array<offset_t>>("dist: every vertex's degree",
                                                         [&] { return all_items<offset_t>(world, row_lengths(block)); });
  }

  const World& world_;
  const SplitGraph<TG>& G_;
  const Array<offset_t>* out_degrees_;
  const Array<offset_t>* in_degrees_ = nullptr;
  const SplitGraph<TG>* transposed_ = nullptr;
};

// The search over n vertices with nvals edges, this rank working on the vertices `mine`.
template <class Rows>
Vector<int32_t> search_levels(const World& world, Rows& graph, int64_t n, int64_t nvals, RowRange mine,
                              int64_t source, common::TraversalStats* stats, const common::DirectionOptions& direction) {
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
  level[static_cast<size_t>(source)] = 0;
  frontier[static_cast<size_t>(source) / 64] = uint64_t{1} << (source % 64);
  const auto in_frontier = [&](int64_t v) { return frontier[static_cast<size_t>(v) / 64] >> (v % 64) & 1; };
  const auto mark_next = [&](int64_t v) {
    std::atomic_ref<uint64_t>(next[static_cast<size_t>(v) / 64]).fetch_or(uint64_t{1} << (v % 64), std::memory_order_relaxed);
  };
  common::DirectionChooser chooser(direction);
  const auto out = graph.out_rows();
  int64_t frontier_size = 1, frontier_edges = graph.out_degree(source), open_edges = nvals;
  common::TraversalStats total;
  for (int32_t depth = 1;; ++depth) {
    int64_t examined = 0;
    if (chooser.pull(frontier_edges, open_edges, frontier_size, n)) {
      const auto in = graph.in_rows();
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : examined) if (cpu::worth_threads(mine.size()))
      for (int64_t v = mine.begin; v < mine.end; ++v) {
        if (level[static_cast<size_t>(v)] != unseen) continue;
        for (offset_t p = in.begin(v); p < in.end(v); ++p) {
          ++examined;
          if (in_frontier(in.column(p))) {
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
        for (offset_t p = out.begin(u); p < out.end(u); ++p) {
          ++examined;
          const index_t v = out.column(p);
          if (level[static_cast<size_t>(v)] == unseen) mark_next(v);
        }
      }
    }
    world.or_words(next);
    int64_t found = 0, found_edges = 0, found_in_edges = 0;
#pragma omp parallel for schedule(static) reduction(+ : found, found_edges, found_in_edges) if (cpu::worth_threads(n / 64))
    for (size_t w = 0; w < words; ++w) {
      for (uint64_t bits = next[w]; bits != 0; bits &= bits - 1) {
        const auto v = static_cast<int64_t>(w * 64) + std::countr_zero(bits);
        level[static_cast<size_t>(v)] = depth;
        ++found;
        found_edges += graph.out_degree(v);
        found_in_edges += graph.in_degree(v);
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
    total.searched_edges += graph.out_degree(source);
    *stats = total;
  }
  return cpu::detail::reached_levels(level);  // unseen is the type's greatest value there too
}

inline void check_square(int64_t n_rows, int64_t n_cols) {
  if (n_cols != n_rows)
    throw Error(ErrorKind::usage, "bfs: the graph is " + std::to_string(n_rows) + " x " + std::to_string(n_cols) +
                                      ", not square");
}

}  // namespace detail

// The levels (0 at `source`) of the vertices reached from it over G's edges (rows to columns), G held
// by every rank.
template <class TG>
Vector<int32_t> bfs_levels(const World& world, const Csr<TG>& G, int64_t source,
                           common::TraversalStats* stats = nullptr, const common::DirectionOptions& direction = {}) {
  detail::check_square(G.n_rows(), G.n_cols());
  detail::WholeRows<TG> rows(G);
  Vector<int32_t> levels = detail::search_levels(
      world, rows, G.n_rows(), G.nvals(), rows_by_work(G.row_offsets(), world.size(), world.rank()), source, stats,
      direction);
  if (stats && G.derived().symmetric()) stats->searched_edges /= 2;  // an undirected edge is stored twice
  return levels;
}

// The same over a graph split across the ranks: each rank searches from its own rows; the levels
// (n of them, not the graph) are on every rank.
template <class TG>
Vector<int32_t> bfs_levels(const World& world, const SplitGraph<TG>& G, int64_t source,
                           common::TraversalStats* stats = nullptr, const common::DirectionOptions& direction = {}) {
  detail::check_square(G.n_rows(), G.n_cols());
  detail::SplitRows<TG> rows(world, G);
  Vector<int32_t> levels = detail::search_levels(world, rows, G.n_rows(), G.nvals(), G.mine(), source, stats, direction);
  if (stats && G.symmetric()) stats->searched_edges /= 2;  // an undirected edge is stored twice
  return levels;
}

}  // namespace gql::dist
