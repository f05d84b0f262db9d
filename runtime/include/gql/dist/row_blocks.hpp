// How the distributed ops divide rows among ranks: consecutive blocks, one per rank in rank order,
// so that the ranks' results joined in rank order are the rows in order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

struct RowRange {
  int64_t begin = 0, end = 0;
  int64_t size() const noexcept { return end - begin; }
};

// Which rank holds which rows of a split value, as every rank knows it: rank r holds rows
// [starts[r], starts[r + 1]) (ranks + 1 starts, the last one the row count).
class RowBlocks {
 public:
  RowBlocks(std::vector<int64_t> starts, int rank) : starts_(std::move(starts)), rank_(rank) {}

  // This rank's rows.
  RowRange mine() const noexcept { return rows_of_rank(rank_); }
  RowRange rows_of_rank(int rank) const noexcept {
    return {starts_[static_cast<size_t>(rank)], starts_[static_cast<size_t>(rank) + 1]};
  }
  // The rank holding row `row`.
  int owner(int64_t row) const noexcept {
    return static_cast<int>(std::upper_bound(starts_.begin(), starts_.end(), row) - starts_.begin()) - 1;
  }
  const std::vector<int64_t>& starts() const noexcept { return starts_; }

 private:
  std::vector<int64_t> starts_;
  int rank_;
};

// An equal share of n rows, whole units of `unit` rows each (the last unit may be short).
inline RowRange even_rows(int64_t n, int ranks, int rank, int64_t unit = 1) {
  const int64_t units = (n + unit - 1) / unit;
  const auto at = [&](int r) { return std::min(n, units * r / ranks * unit); };
  return {at(rank), at(rank + 1)};
}

namespace detail {
// Every rank's first row of even_rows(n, ranks, r, unit), then n: the starts of RowBlocks.
inline std::vector<int64_t> even_starts(int64_t n, int ranks, int64_t unit) {
  if (unit < 1) throw Error(ErrorKind::usage, "a split matrix's row unit must be positive");
  std::vector<int64_t> starts(static_cast<size_t>(ranks) + 1);
  for (int r = 0; r < ranks; ++r) starts[static_cast<size_t>(r)] = even_rows(n, ranks, r, unit).begin;
  starts.back() = n;
  return starts;
}
}  // namespace detail

// An equal share of the work of n rows, where rows [0, i) cost cost_before(i): nondecreasing from
// cost_before(0) = 0 to cost_before(n), the whole work. Rank r's rows start at the first row whose
// cost before it reaches r's share, found by binary search (no prefix array needs to exist).
template <class CostBefore>
RowRange rows_by_cost(int64_t n, CostBefore&& cost_before, int ranks, int rank) {
  const int64_t total = cost_before(n);
  const auto at = [&](int r) -> int64_t {
    if (r >= ranks) return n;
    const int64_t target = total / ranks * r + total % ranks * r / ranks;  // total * r / ranks, exactly
    int64_t lo = 0, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (cost_before(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return {at(rank), at(rank + 1)};
}

// The same where prefix[i] is the cost of rows [0, i) (prefix has n + 1 entries, from 0).
inline RowRange rows_by_work(std::span<const int64_t> prefix, int ranks, int rank) {
  return rows_by_cost(static_cast<int64_t>(prefix.size()) - 1, [&](int64_t i) { return prefix[static_cast<size_t>(i)]; },
                      ranks, rank);
}

// Rows [range.begin, range.end) of A as a graph of their own (the same columns).
template <class T>
Csr<T> rows_of(const Csr<T>& A, RowRange range) {
  const auto offsets = A.row_offsets();
  const offset_t first = offsets[static_cast<size_t>(range.begin)], last = offsets[static_cast<size_t>(range.end)];
  Array<offset_t> row_offsets(static_cast<size_t>(range.size()) + 1);
  for (int64_t r = 0; r <= range.size(); ++r)
    row_offsets[static_cast<size_t>(r)] = offsets[static_cast<size_t>(range.begin + r)] - first;
  const auto cols = A.col_indices().subspan(static_cast<size_t>(first), static_cast<size_t>(last - first));
  Array<storage_t<T>> values;
  if constexpr (stores_values<T>) {
    const auto vals = A.values().subspan(static_cast<size_t>(first), static_cast<size_t>(last - first));
    values.assign(vals.begin(), vals.end());
  }
  return Csr<T>(range.size(), A.n_cols(), std::move(row_offsets), Array<index_t>(cols.begin(), cols.end()),
                std::move(values));
}

}  // namespace gql::dist
