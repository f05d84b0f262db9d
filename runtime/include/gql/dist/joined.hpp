// Every rank's block of rows joined, in rank order, into the whole result on every rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

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

// The graph whose rows are every rank's `block` in rank order; n_cols columns. One rank's block is
// the whole graph already.
template <class T>
Csr<T> joined_rows(const World& world, Csr<T>&& block, int64_t n_cols) {
  if (world.size() == 1) return std::move(block);
  const auto offsets = block.row_offsets();
  std::vector<offset_t> lengths(static_cast<size_t>(block.n_rows()));
  for (size_t r = 0; r < lengths.size(); ++r) lengths[r] = offsets[r + 1] - offsets[r];
  const Array<offset_t> all_lengths = all_items<offset_t>(world, lengths);
  Array<offset_t> row_offsets(all_lengths.size() + 1);
  row_offsets[0] = 0;
  for (size_t r = 0; r < all_lengths.size(); ++r) row_offsets[r + 1] = row_offsets[r] + all_lengths[r];
  Array<index_t> cols = all_items<index_t>(world, block.col_indices());
  Array<storage_t<T>> values;
  if constexpr (stores_values<T>) values = all_items<storage_t<T>>(world, block.values());
  return Csr<T>(static_cast<int64_t>(all_lengths.size()), n_cols, std::move(row_offsets), std::move(cols),
                std::move(values));
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
