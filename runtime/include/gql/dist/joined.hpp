// Every rank's block of rows joined, in rank order, into the whole result on every rank, or on one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist::detail {

// The items each rank gives, joined in rank order, received in place (the array is not zeroed first).
template <class T>
Array<T> all_items(const World& world, std::span<const T> mine) {
  const std::vector<int64_t> sizes = world.part_sizes(static_cast<int64_t>(mine.size_bytes()));
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  Array<T> items;
  world.on_every_rank([&] { items.resize(static_cast<size_t>(total) / sizeof(T)); });  // fails every rank alike
  world.join_parts(std::as_bytes(mine), sizes, std::as_writable_bytes(std::span<T>(items)));
  return items;
}

// The items every rank gives joined in rank order on rank `root`, received in place there; empty on
// the other ranks.
template <class T>
Array<T> items_on(const World& world, std::span<const T> mine, int root) {
  const std::vector<int64_t> sizes = world.part_sizes(static_cast<int64_t>(mine.size_bytes()));
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  Array<T> items;
  world.on_every_rank([&] {
    if (world.rank() == root) items.resize(static_cast<size_t>(total) / sizeof(T));
  });
  world.gather_parts(std::as_bytes(mine), sizes, std::as_writable_bytes(std::span<T>(items)), root);
  return items;
}

// The lengths of rows [range.begin, range.end) of a graph with these row offsets.
inline std::vector<offset_t> row_lengths(std::span<const offset_t> offsets, RowRange range) {
  std::vector<offset_t> lengths(static_cast<size_t>(range.size()));
  for (size_t r = 0; r < lengths.size(); ++r) {
    const auto row = static_cast<size_t>(range.begin) + r;
    lengths[r] = offsets[row + 1] - offsets[row];
  }
  return lengths;
}
// The lengths of a block's rows.
template <class T>
std::vector<offset_t> row_lengths(const Csr<T>& block) {
  return row_lengths(block.row_offsets(), RowRange{0, block.n_rows()});
}

// Row offsets from every row's length, in order.
inline Array<offset_t> offsets_of(std::span<const offset_t> lengths) {
  Array<offset_t> row_offsets(lengths.size() + 1);
  row_offsets[0] = 0;
  for (size_t r = 0; r < lengths.size(); ++r) row_offsets[r + 1] = row_offsets[r] + lengths[r];
  return row_offsets;
}

// The graph whose rows are every rank's `block` in rank order; n_cols columns. One rank's block is
// the whole graph already.
template <class T>
Csr<T> joined_rows(const World& world, Csr<T>&& block, int64_t n_cols) {
  if (world.size() == 1) return std::move(block);
  const Array<offset_t> all_lengths = all_items<offset_t>(world, row_lengths(block));
  Array<index_t> cols = all_items<index_t>(world, block.col_indices());
  Array<storage_t<T>> values;
  if constexpr (stores_values<T>) values = all_items<storage_t<T>>(world, block.values());
  return Csr<T>(static_cast<int64_t>(all_lengths.size()), n_cols, offsets_of(all_lengths), std::move(cols),
                std::move(values));
}

// The same graph on rank `root` only, each rank's rows sent there and received in place; the other
// ranks get its shape without entries. For a result that only the root writes out.
template <class T>
Csr<T> joined_rows_on(const World& world, Csr<T>&& block, int64_t n_cols, int root = 0) {
  if (world.size() == 1) return std::move(block);
  const int64_t n_rows = world.sum(block.n_rows());
  const Array<offset_t> all_lengths = items_on<offset_t>(world, row_lengths(block), root);
  Array<index_t> cols = items_on<index_t>(world, block.col_indices(), root);
  Array<storage_t<T>> values;
  if constexpr (stores_values<T>) values = items_on<storage_t<T>>(world, block.values(), root);
  if (world.rank() != root) return Csr<T>(n_rows, n_cols);
  return Csr<T>(n_rows, n_cols, offsets_of(all_lengths), std::move(cols), std::move(values));
}

// D's rows [begin, end) on this rank, and every other rank's own rows, joined into D on every rank:
// each rank's rows broadcast into their place (the rows come in rank order).
template <class T>
void join_dense_rows(const World& world, Matrix<T>& D, int64_t begin, int64_t end) {
  if (world.size() == 1) return;
  const auto bytes = std::as_writable_bytes(D.data());
  const auto row_bytes = static_cast<size_t>(D.n_cols()) * sizeof(storage_t<T>);
  const auto mine = bytes.subspan(static_cast<size_t>(begin) * row_bytes, static_cast<size_t>(end - begin) * row_bytes);
  world.join_parts(mine, world.part_sizes(static_cast<int64_t>(mine.size())), bytes);
}

}  // namespace gql::dist::detail
