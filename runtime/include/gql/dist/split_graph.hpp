// A graph split across ranks by blocks of rows: each rank holds its own rows only (with the whole
// graph's column ids), so a graph that one process cannot hold can be held by several. The blocks
// are consecutive, one per rank in rank order; every rank knows where each block starts, so any rank
// can tell which rank holds a row.
//
// Made from a graph every rank holds (split_rows: each keeps its block), from one rank's graph
// (scatter_rows: the others never hold more than their block), or as another split graph's
// transpose (transpose: each entry sent to the rank holding its column); gathered back into the
// whole graph on every rank by gathered().
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>
#include <string>
#include <utility>
#include <vector>

#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

template <class T>
class SplitGraph : public RowBlocks {
 public:
  // `blocks`: where every rank's rows start; `block`: this rank's rows, as rows 0.. of a graph with the
  // whole graph's columns (row r of the graph is row r - mine().begin there).
  SplitGraph(int64_t n_rows, int64_t n_cols, int64_t nvals, RowBlocks blocks, Csr<T> block, bool symmetric)
      : RowBlocks(std::move(blocks)),
        n_rows_(n_rows),
        n_cols_(n_cols),
        nvals_(nvals),
        block_(std::move(block)),
        symmetric_(symmetric) {}

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  int64_t nvals() const noexcept { return nvals_; }  // the whole graph's
  const Csr<T>& block() const noexcept { return block_; }
  Csr<T> take_block() && noexcept { return std::move(block_); }
  bool symmetric() const noexcept { return symmetric_; }

 private:
  int64_t n_rows_, n_cols_, nvals_;
  Csr<T> block_;
  bool symmetric_;
};

namespace detail {

// Every rank's first row of G's rows in blocks of equal edges (rows_by_work over the row offsets).
inline std::vector<int64_t> block_starts(std::span<const offset_t> row_offsets, int ranks) {
  std::vector<int64_t> starts(static_cast<size_t>(ranks) + 1);
  for (int r = 0; r < ranks; ++r) starts[static_cast<size_t>(r)] = rows_by_work(row_offsets, ranks, r).begin;
  starts.back() = static_cast<int64_t>(row_offsets.size()) - 1;
  return starts;
}

// `items` cut into consecutive pieces of the given lengths, one per rank, as World::exchange sends them.
template <class U>
std::vector<World::Pieces> pieces_of(std::span<const U> items, std::span<const int64_t> lengths) {
  std::vector<World::Pieces> pieces(lengths.size());
  size_t at = 0;
  for (size_t r = 0; r < lengths.size(); ++r) {
    pieces[r] = {std::as_bytes(items.subspan(at, static_cast<size_t>(lengths[r])))};
    at += static_cast<size_t>(lengths[r]);
  }
  return pieces;
}

// A block received as its rows' lengths, then its columns, then its values (if T stores them).
template <class T>
Csr<T> take_rows(const std::byte* in, int64_t rows, int64_t entries, int64_t n_cols) {
  Array<offset_t> offsets(static_cast<size_t>(rows) + 1);
  offsets[0] = 0;
  for (size_t r = 0; r < static_cast<size_t>(rows); ++r) {
    offset_t length;
    std::memcpy(&length, in, sizeof length);
    in += sizeof length;
    offsets[r + 1] = offsets[r] + length;
  }
  Array<index_t> cols(static_cast<size_t>(entries));
  std::memcpy(cols.data(), in, cols.size() * sizeof(index_t));
  in += cols.size() * sizeof(index_t);
  Array<storage_t<T>> values(stores_values<T> ? static_cast<size_t>(entries) : 0);
  if constexpr (stores_values<T>) std::memcpy(values.data(), in, values.size() * sizeof(storage_t<T>));
  return Csr<T>(rows, n_cols, std::move(offsets), std::move(cols), std::move(values));
}

}  // namespace detail

// Each rank keeps its block of G, which every rank holds alike: blocks of equal edges.
template <class T>
SplitGraph<T> split_rows(const World& world, const Csr<T>& G) {
  RowBlocks blocks(detail::block_starts(G.row_offsets(), world.size()), world.rank());
  Csr<T> block;
  world.on_every_rank([&] { block = rows_of(G, blocks.mine()); });
  return SplitGraph<T>(G.n_rows(), G.n_cols(), G.nvals(), std::move(blocks), std::move(block),
                       G.derived().symmetric());
}

// Rank `root`'s G sent out in blocks of equal edges: `G` is read on `root` only (null elsewhere),
// and no other rank holds more than its block.
template <class T>
SplitGraph<T> scatter_rows(const World& world, const Csr<T>* G, int root = 0) {
  if (root < 0 || root >= world.size())
    throw Error(ErrorKind::usage, "scatter_rows: root " + std::to_string(root) + " of " +
                                      std::to_string(world.size()) + " ranks");
  world.on_every_rank([&] {
    if (world.rank() == root && G == nullptr) throw Error(ErrorKind::usage, "scatter_rows: no graph on the root rank");
  });
  // The shape, whether symmetric, and every block's start and entry count, from the root.
  const int ranks = world.size();
  std::vector<int64_t> header(static_cast<size_t>(2 * ranks) + 5, 0);
  if (world.rank() == root) {
    const std::vector<int64_t> starts = detail::block_starts(G->row_offsets(), ranks);
    const auto offsets = G->row_offsets();
    header[0] = G->n_rows();
    header[1] = G->n_cols();
    header[2] = G->nvals();
    header[3] = G->derived().symmetric();
    for (size_t r = 0; r <= static_cast<size_t>(ranks); ++r) header[4 + r] = starts[r];
    for (size_t r = 0; r < static_cast<size_t>(ranks); ++r)
      header[5 + static_cast<size_t>(ranks) + r] =
          offsets[static_cast<size_t>(starts[r + 1])] - offsets[static_cast<size_t>(starts[r])];
  }
  world.broadcast(std::as_writable_bytes(std::span<int64_t>(header)), root);
  RowBlocks blocks(std::vector<int64_t>(header.begin() + 4, header.begin() + 5 + ranks), world.rank());
  const auto entries_of = [&](int r) { return header[5 + static_cast<size_t>(ranks) + static_cast<size_t>(r)]; };
  // The root sends every other rank its rows as they lie in G (their lengths, then columns and
  // values), and keeps its own; the others send nothing.
  const RowRange mine = blocks.mine();
  std::vector<World::Pieces> to_each(static_cast<size_t>(ranks));
  std::vector<std::vector<offset_t>> lengths(static_cast<size_t>(ranks));
  Csr<T> block;
  world.on_every_rank([&] {
    if (world.rank() != root) return;
    const auto offsets = G->row_offsets();
    for (int r = 0; r < ranks; ++r) {
      const auto ur = static_cast<size_t>(r);
      if (r == root) continue;
      const RowRange rows = blocks.rows_of_rank(r);
      lengths[ur] = detail::row_lengths(offsets, rows);
      const auto first = static_cast<size_t>(offsets[static_cast<size_t>(rows.begin)]);
      const auto entries = static_cast<size_t>(entries_of(r));
      to_each[ur] = {std::as_bytes(std::span<const offset_t>(lengths[ur])),
                     std::as_bytes(G->col_indices().subspan(first, entries)),
                     std::as_bytes(G->values().subspan(stores_values<T> ? first : 0, stores_values<T> ? entries : 0))};
    }
    block = rows_of(*G, mine);
  });
  std::vector<int64_t> from_each;
  const std::vector<std::byte> incoming = world.exchange(to_each, from_each);
  world.on_every_rank([&] {
    if (world.rank() != root) block = detail::take_rows<T>(incoming.data(), mine.size(), entries_of(world.rank()), header[1]);
  });
  return SplitGraph<T>(header[0], header[1], header[2], std::move(blocks), std::move(block), header[3] != 0);
}

// The whole graph on every rank: the blocks joined in rank order.
template <class T>
Csr<T> gathered(const World& world, const SplitGraph<T>& G) {
  Csr<T> whole = detail::joined_rows(world, G.block().clone(), G.n_cols());
  if (G.symmetric()) whole.derived().mark_symmetric();
  return whole;
}

// The whole graph on rank `root`, each rank's rows sent there and received in place; its shape
// without entries on the other ranks. For a result that only the root writes out; takes the blocks.
template <class T>
Csr<T> gathered_on(const World& world, SplitGraph<T>&& G, int root = 0) {
  const bool symmetric = G.symmetric();
  const int64_t n_cols = G.n_cols();
  Csr<T> whole = detail::joined_rows_on(world, std::move(G).take_block(), n_cols, root);
  if (symmetric && world.rank() == root) whole.derived().mark_symmetric();
  return whole;
}

// G's transpose split by G's own row starts (G square): each rank sends every entry of its block to
// the rank holding the entry's column, which files it under that row. Entries arrive from the ranks
// in rank order, each rank's in its rows' order, so every new row's columns (the old rows) come
// sorted. A symmetric G is its own transpose.
template <class T>
SplitGraph<T> transpose(const World& world, const SplitGraph<T>& G) {
  if (G.n_rows() != G.n_cols())
    throw Error(ErrorKind::usage, "transpose of a split graph: " + std::to_string(G.n_rows()) + " x " +
                                      std::to_string(G.n_cols()) + " is not square");
  if (G.symmetric()) return SplitGraph<T>(G.n_rows(), G.n_cols(), G.nvals(), G, G.block().clone(), true);
  struct Bare {
    index_t row, col;  // the old row and column
  };
  struct Valued {
    index_t row, col;
    storage_t<T> value;
  };
  using Entry = std::conditional_t<stores_values<T>, Valued, Bare>;
  const int ranks = world.size();
  const Csr<T>& block = G.block();
  const RowRange mine = G.mine();
  const auto offsets = block.row_offsets();
  const auto cols = block.col_indices();
  // f(row in the block, position, receiving rank) for every entry, in the block's order: a row's
  // columns are sorted, so their ranks come in order too and are found by walking the blocks' starts.
  const auto each_entry = [&](auto&& f) {
    for (int64_t r = 0; r < block.n_rows(); ++r) {
      int owner = 0;
      for (offset_t p = offsets[static_cast<size_t>(r)]; p < offsets[static_cast<size_t>(r) + 1]; ++p) {
        while (G.rows_of_rank(owner).end <= cols[static_cast<size_t>(p)]) ++owner;
        f(r, static_cast<size_t>(p), owner);
      }
    }
  };
  // Entries counted per receiving rank, then placed in that rank's part, in the block's order.
  std::vector<int64_t> to_each(static_cast<size_t>(ranks), 0);
  each_entry([&](int64_t, size_t, int owner) { ++to_each[static_cast<size_t>(owner)]; });
  std::vector<size_t> at(static_cast<size_t>(ranks), 0);
  for (size_t r = 1; r < at.size(); ++r) at[r] = at[r - 1] + static_cast<size_t>(to_each[r - 1]);
  std::vector<Entry> outgoing;
  world.on_every_rank([&] { outgoing.resize(cols.size()); });
  each_entry([&](int64_t r, size_t p, int owner) {
    Entry& e = outgoing[at[static_cast<size_t>(owner)]++];
    e.row = static_cast<index_t>(mine.begin + r);
    e.col = cols[p];
    if constexpr (stores_values<T>) e.value = block.values()[p];
  });
  std::vector<int64_t> from_each;
  const std::vector<std::byte> incoming =
      world.exchange(detail::pieces_of(std::span<const Entry>(outgoing), to_each), from_each);
  outgoing = {};
  const auto count = incoming.size() / sizeof(Entry);
  const auto entry = [&](size_t q) {
    Entry e;
    std::memcpy(&e, incoming.data() + q * sizeof(Entry), sizeof e);
    return e;
  };
  // A counting sort by the new row, stable: the new rows' columns stay in arrival order (sorted).
  Array<offset_t> t_offsets(static_cast<size_t>(mine.size()) + 1, 0);
  for (size_t q = 0; q < count; ++q) ++t_offsets[static_cast<size_t>(entry(q).col - mine.begin) + 1];
  for (size_t r = 0; r < static_cast<size_t>(mine.size()); ++r) t_offsets[r + 1] += t_offsets[r];
  std::vector<offset_t> next(t_offsets.begin(), t_offsets.end() - 1);
  Array<index_t> t_cols(count);
  Array<storage_t<T>> t_values(stores_values<T> ? count : 0);
  for (size_t q = 0; q < count; ++q) {
    const Entry e = entry(q);
    const auto p = static_cast<size_t>(next[static_cast<size_t>(e.col - mine.begin)]++);
    t_cols[p] = e.row;
    if constexpr (stores_values<T>) t_values[p] = e.value;
  }
  Csr<T> t_block(mine.size(), G.n_rows(), std::move(t_offsets), std::move(t_cols), std::move(t_values));
  return SplitGraph<T>(G.n_cols(), G.n_rows(), G.nvals(), G, std::move(t_block), false);
}

// The language's rows/cols/nvals of a split graph: the whole graph's (found as gql::rows too, below).
template <class T> int64_t rows(const SplitGraph<T>& g) noexcept { return g.n_rows(); }
template <class T> int64_t cols(const SplitGraph<T>& g) noexcept { return g.n_cols(); }
template <class T> int64_t nvals(const SplitGraph<T>& g) noexcept { return g.nvals(); }

}  // namespace gql::dist

namespace gql {
using dist::cols;
using dist::nvals;
using dist::rows;
}  // namespace gql
