// Every rank's block of rows joined, in rank order, into the whole result on every rank.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist::detail {

// The items each rank gives, joined in rank order.
template <class T>
Array<T> all_items(const World& world, std::span<const T> mine) {
  const std::vector<std::byte> joined = world.all_parts(std::as_bytes(mine));
  Array<T> items(joined.size() / sizeof(T));
  if (!joined.empty()) std::memcpy(items.data(), joined.data(), joined.size());
  return items;
}

// The graph whose rows are every rank's `block` in rank order; n_cols columns.
template <class T>
Csr<T> joined_rows(const World& world, const Csr<T>& block, int64_t n_cols) {
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

// D's rows [begin, end) on this rank, and every other rank's own rows, joined into D on every rank.
template <class T>
void join_dense_rows(const World& world, Matrix<T>& D, int64_t begin, int64_t end) {
  const auto all = D.data();
  const auto n = static_cast<size_t>(D.n_cols());
  const auto own = std::span<const storage_t<T>>(all.data() + static_cast<size_t>(begin) * n,
                                                 static_cast<size_t>(end - begin) * n);
  const Array<storage_t<T>> rows = all_items<storage_t<T>>(world, own);
  std::copy(rows.begin(), rows.end(), all.begin());
}

}  // namespace gql::dist::detail
