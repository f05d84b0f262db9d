// Dense (Gustavson) accumulator for one output row at a time: a value per column and a mark per
// column, plus the list of columns touched in this row, so a sparse row never scans all n cells.
//
// Marks are generation stamps (no clearing between rows): for the current row with stamp g,
// marks[j] == g means "named by the mask row" (allowed for a plain mask, forbidden for a
// complemented one) and marks[j] == g + 1 means "present in the output row".
#pragma once

#include <algorithm>
#include <bit>
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
      : marks_(static_cast<size_t>(n_cols), 0),
        values_(static_cast<size_t>(n_cols)),
        touched_(static_cast<size_t>(n_cols) + 1) {}  // +1: written before the count advances

  void begin_row() {
    if (stamp_ >= std::numeric_limits<uint32_t>::max() - 4) {  // wrap: forget every old stamp
      std::fill(marks_.begin(), marks_.end(), 0u);
      stamp_ = 0;
    }
    stamp_ += 2;
    count_ = 0;
  }

  // Names column j in the mask row (before any product of the row).
  void mark(index_t j) noexcept { marks_[static_cast<size_t>(j)] = stamp_; }

  // Adds the product make() at column j, unless the mask forbids j or the entry is settled.
  // With count_only the row's structure is built and no value is made or combined.
  template <MaskMode mode, bool count_only, class Make>
  void add(index_t j, Make&& make) {
    const size_t c = static_cast<size_t>(j);
    const uint32_t present = stamp_ + 1;
    if constexpr (mode == MaskMode::none && !can_settle<S>) {
      // Branch-free: a fresh entry starts from the identity (zero() is agg's identity), and the
      // touched list is written every time but only advances for a fresh column.
      const bool fresh = marks_[c] != present;
      marks_[c] = present;
      if constexpr (!count_only) {
        values_[c] = S::agg(fresh ? S::zero() : static_cast<value_type>(values_[c]), make());
        touched_[count_] = j;
      }
      count_ += fresh ? 1 : 0;
      return;
    }
    const uint32_t m = marks_[c];
    if (m == present) {
      if constexpr (count_only) return;
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
    marks_[c] = present;
    if constexpr (!count_only) {
      values_[c] = make();
      touched_[count_] = j;
    }
    ++count_;
  }

  int64_t size() const noexcept { return static_cast<int64_t>(count_); }

  // The entry at column j of the current row, or null when absent.
  const storage_t<value_type>* find(index_t j) const noexcept {
    const size_t c = static_cast<size_t>(j);
    return marks_[c] == stamp_ + 1 ? &values_[c] : nullptr;
  }

  // Calls sink(j, value) for every entry of the row in increasing column order (not after a
  // count_only row: its touched list is not kept).
  template <class Sink>
  void emit(Sink&& sink) {
    const size_t n = marks_.size();
    // A row holding a fair share of the columns is cheaper to scan (n sequential reads) than to
    // sort (t log t scattered compares).
    const size_t t = count_;
    if (t * static_cast<size_t>(std::bit_width(t)) * 8 >= n) {
      const uint32_t present = stamp_ + 1;
      for (size_t c = 0; c < n; ++c)
        if (marks_[c] == present) sink(static_cast<index_t>(c), values_[c]);
      return;
    }
    std::sort(touched_.begin(), touched_.begin() + static_cast<std::ptrdiff_t>(t));
    for (size_t p = 0; p < t; ++p) sink(touched_[p], values_[static_cast<size_t>(touched_[p])]);
  }

  // Writes the row, in column order, to cols[0, size()) and values[0, size()) without a branch
  // per column when the row is scanned. Only for result types that store values.
  void write(index_t* cols, storage_t<value_type>* values) {
    const size_t n = marks_.size();
    const size_t t = count_;
    if (t * static_cast<size_t>(std::bit_width(t)) * 8 >= n) {
      const uint32_t present = stamp_ + 1;
      size_t q = 0;
      for (size_t c = 0; c < n && q < t; ++c) {
        cols[q] = static_cast<index_t>(c);
        values[q] = values_[c];
        q += marks_[c] == present ? 1 : 0;
      }
      return;
    }
    std::sort(touched_.begin(), touched_.begin() + static_cast<std::ptrdiff_t>(t));
    for (size_t p = 0; p < t; ++p) {
      cols[p] = touched_[p];
      values[p] = values_[static_cast<size_t>(touched_[p])];
    }
  }

 private:
  std::vector<uint32_t> marks_;
  std::vector<storage_t<value_type>> values_;  // bytes for bool: no bit-packed proxies
  std::vector<index_t> touched_;               // the row's columns, first count_ cells
  size_t count_ = 0;
  uint32_t stamp_ = 0;
};

}  // namespace gql::cpu
