// Rows of a split graph fetched from the ranks that hold them: what a rank's block of A needs of a
// split B for A * B (the rows its columns name), so that no rank holds more of B than those rows.
// Each rank asks every other for the rows it needs among theirs (one all-to-all of row ids), and
// each answers with those rows' lengths, columns and values (three all-to-alls). The rows arrive
// in row order, so they are the CSR of the fetched graph as they come.
#pragma once

#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "gql/dist/split_graph.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

namespace detail {

// The distinct columns of `block`, in order: through a bit per column (O(n_cols) on every rank,
// like a split graph's other per-vertex state).
template <class T>
std::vector<index_t> distinct_columns(const Csr<T>& block) {
  const int64_t n = block.n_cols();
  std::vector<uint64_t> seen(static_cast<size_t>((n + 63) / 64), 0);
  for (const index_t c : block.col_indices()) seen[static_cast<size_t>(c) >> 6] |= uint64_t{1} << (c & 63);
  std::vector<index_t> columns;
  for (size_t w = 0; w < seen.size(); ++w)
    for (uint64_t bits = seen[w]; bits != 0; bits &= bits - 1)
      columns.push_back(static_cast<index_t>(w * 64 + static_cast<size_t>(__builtin_ctzll(bits))));
  return columns;
}

template <class U>
Array<U> items_from(const std::vector<std::byte>& bytes) {
  Array<U> items(bytes.size() / sizeof(U));
  if (!items.empty()) std::memcpy(items.data(), bytes.data(), bytes.size());
  return items;
}

}  // namespace detail

// The rows `needed` (sorted, distinct, each below B.n_rows()) of the split graph B, on this rank: a
// graph of B's shape holding those rows and no others. Every rank calls it, each with its own list.
template <class T>
Csr<T> fetched_rows(const World& world, const SplitGraph<T>& B, std::span<const index_t> needed) {
  const int ranks = world.size();
  // The requests, cut by the rank holding each row (they come sorted, so by rank in turn).
  std::vector<int64_t> asked(static_cast<size_t>(ranks), 0);
  for (const index_t row : needed) ++asked[static_cast<size_t>(B.owner(row))];
  std::vector<int64_t> asked_of_me;
  const std::vector<std::byte> requests = world.exchange(detail::pieces_of(needed, asked), asked_of_me);
  const Array<index_t> rows = detail::items_from<index_t>(requests);
  // The answers, in the requests' order: each requested row's length, then all their columns, then
  // all their values, each cut by the asking rank.
  const Csr<T>& block = B.block();
  const auto offsets = block.row_offsets();
  const auto first = static_cast<size_t>(B.mine().begin);
  std::vector<int64_t> rows_for(static_cast<size_t>(ranks));
  for (size_t r = 0; r < rows_for.size(); ++r) rows_for[r] = asked_of_me[r] / static_cast<int64_t>(sizeof(index_t));
  std::vector<offset_t> lengths(rows.size());
  std::vector<int64_t> entries_for(static_cast<size_t>(ranks), 0);
  for (size_t r = 0, q = 0; r < static_cast<size_t>(ranks); ++r)
    for (int64_t k = 0; k < rows_for[r]; ++k, ++q) {
      const size_t local = static_cast<size_t>(rows[q]) - first;
      lengths[q] = offsets[local + 1] - offsets[local];
      entries_for[r] += lengths[q];
    }
  std::vector<index_t> columns;
  std::vector<storage_t<T>> values;
  world.on_every_rank([&] {
    int64_t total = 0;
    for (const int64_t e : entries_for) total += e;
    columns.reserve(static_cast<size_t>(total));
    if constexpr (stores_values<T>) values.reserve(static_cast<size_t>(total));
  });
  for (const index_t row : rows) {
    const size_t local = static_cast<size_t>(row) - first;
    const auto begin = static_cast<size_t>(offsets[local]), end = static_cast<size_t>(offsets[local + 1]);
    columns.insert(columns.end(), block.col_indices().begin() + static_cast<std::ptrdiff_t>(begin),
                   block.col_indices().begin() + static_cast<std::ptrdiff_t>(end));
    if constexpr (stores_values<T>)
      values.insert(values.end(), block.values().begin() + static_cast<std::ptrdiff_t>(begin),
                    block.values().begin() + static_cast<std::ptrdiff_t>(end));
  }
  std::vector<int64_t> received;
  const Array<offset_t> got_lengths = detail::items_from<offset_t>(
      world.exchange(detail::pieces_of(std::span<const offset_t>(lengths), rows_for), received));
  Array<index_t> got_columns = detail::items_from<index_t>(
      world.exchange(detail::pieces_of(std::span<const index_t>(columns), entries_for), received));
  Array<storage_t<T>> got_values;
  if constexpr (stores_values<T>)
    got_values = detail::items_from<storage_t<T>>(
        world.exchange(detail::pieces_of(std::span<const storage_t<T>>(values), entries_for), received));
  // The fetched rows in B's shape: the rows arrived in order; every other row is empty.
  Array<offset_t> fetched_offsets(static_cast<size_t>(B.n_rows()) + 1, 0);
  for (size_t q = 0; q < needed.size(); ++q) fetched_offsets[static_cast<size_t>(needed[q]) + 1] = got_lengths[q];
  for (size_t r = 0; r < static_cast<size_t>(B.n_rows()); ++r) fetched_offsets[r + 1] += fetched_offsets[r];
  return Csr<T>(B.n_rows(), B.n_cols(), std::move(fetched_offsets), std::move(got_columns),
                std::move(got_values));
}

}  // namespace gql::dist
