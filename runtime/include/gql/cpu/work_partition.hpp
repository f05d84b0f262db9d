// Splitting rows into contiguous chunks of about equal work, for dynamic scheduling: a chunk's work
// is the sum of its rows' costs plus one per row (so runs of empty rows still get spread).
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

namespace gql::cpu {

// prefix_cost has n + 1 entries, prefix_cost[i] = cost of rows [0, i). Returns the chunk borders
// b[0] = 0 < b[1] < ... < b[c] = n (at most n_chunks chunks, none empty).
inline std::vector<int64_t> partition_by_work(std::span<const int64_t> prefix_cost, int64_t n_chunks) {
  const int64_t n = static_cast<int64_t>(prefix_cost.size()) - 1;
  std::vector<int64_t> borders{0};
  if (n <= 0) return borders;  // no rows, no chunks
  const int64_t total = prefix_cost[static_cast<size_t>(n)] + n;
  n_chunks = std::clamp<int64_t>(n_chunks, 1, n);
  const auto cost_before = [&](int64_t i) { return prefix_cost[static_cast<size_t>(i)] + i; };
  for (int64_t c = 1; c < n_chunks; ++c) {
    const int64_t target = total / n_chunks * c + total % n_chunks * c / n_chunks;
    // The first row border whose cost before it reaches the target.
    int64_t lo = borders.back() + 1, hi = n;
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (cost_before(mid) >= target) hi = mid;
      else lo = mid + 1;
    }
    if (lo < n) borders.push_back(lo);
  }
  borders.push_back(n);
  return borders;
}

}  // namespace gql::cpu
