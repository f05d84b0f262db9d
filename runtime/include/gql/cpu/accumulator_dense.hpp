// Dense (Gustavson) accumulator for one output row at a time: a value per column and a mark per
// column, plus the list of columns touched in this row, so a sparse row never scans all n cells.
//
// Marks are generation stamps (no clearing between rows): for the current row with stamp g,
// marks[j] == g means "named by the mask row" (allowed for a plain mask, forbidden for a
// complemented one) and marks[j] == g + 1 means "present in the output row".
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "gql/cpu/accumulator_policy.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

template <class S>
class DenseAccumulator {
 public:
  using value_type = typename S::value_type;

  explicit DenseAccumulator(int64_t n_cols)
      : marks_(static_cast<size_t>(n_cols), 0), values_(static_cast<size_t>(n_cols)) {}

  void begin_row() {
    if (stamp_ >= std::numeric_limits<uint32_t>::max() - 4) {  // wrap: forget every old stamp
      std::fill(marks_.begin(), marks_.end(), 0u);
      stamp_ = 0;
    }
    stamp_ += 2;
    touched_.clear();
  }

  // Names column j in the mask row (before any product of the row).
  void mark(index_t j) noexcept { marks_[static_cast<size_t>(j)] = stamp_; }

  // Adds the product make() at column j, unless the mask forbids j or the entry is settled.
  template <MaskMode mode, class Make>
  void add(index_t j, Make&& make) {
    const size_t c = static_cast<size_t>(j);
    const uint32_t m = marks_[c];
    if (m == stamp_ + 1) {
      if constexpr (can_settle<S>) {
        if (settled<S>(values_[c])) return;
      }
      values_[c] = S::agg(values_[c], make());
      return;
    }
    if constexpr (mode == MaskMode::allow) {
      if (m != stamp_) return;
    } else if constexpr (mode == MaskMode::deny) {
      if (m == stamp_) return;
    }
    marks_[c] = stamp_ + 1;
    values_[c] = make();
    touched_.push_back(j);
  }

  int64_t size() const noexcept { return static_cast<int64_t>(touched_.size()); }

  // Calls sink(j, value) for every entry of the row in increasing column order.
  template <class Sink>
  void emit(Sink&& sink) {
    const size_t n = marks_.size();
    // A row holding a large share of the columns is cheaper to scan than to sort.
    if (touched_.size() * 16 >= n) {
      const uint32_t present = stamp_ + 1;
      for (size_t c = 0; c < n; ++c)
        if (marks_[c] == present) sink(static_cast<index_t>(c), values_[c]);
      return;
    }
    std::sort(touched_.begin(), touched_.end());
    for (index_t j : touched_) sink(j, values_[static_cast<size_t>(j)]);
  }

 private:
  std::vector<uint32_t> marks_;
  std::vector<storage_t<value_type>> values_;  // bytes for bool: no bit-packed proxies
  std::vector<index_t> touched_;
  uint32_t stamp_ = 0;
};

}  // namespace gql::cpu
