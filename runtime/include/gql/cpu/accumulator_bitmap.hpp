// Bitmap accumulator for one output row at a time: a value per column and a bit per column saying
// "present in the row". Emitting scans the bitmap's words, so the row comes out in column order
// without a sort, in time proportional to n / 64 + the row's entries (a row chosen for this
// accumulator has enough products to pay for that); the scan also clears the words, leaving the
// accumulator ready for the next row.
//
// A second bitmap holds the mask row's columns: allowed for a plain mask, forbidden for a
// complemented one.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>

#include "gql/cpu/accumulator_policy.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

namespace detail {

// A bitmap over n columns; set bits are visited in column order by a scan of all n / 64 words (no
// summary words: updating one per product would chain every product through the same few memory
// words, which costs more than the scan for the rows this accumulator is chosen for).
class ColumnBitmap {
 public:
  explicit ColumnBitmap(int64_t n_cols)
      : n_words_(static_cast<size_t>((n_cols + 63) / 64)), words_(new uint64_t[n_words_]()) {}

  bool test(index_t j) const noexcept { return words_[static_cast<size_t>(j) >> 6] >> (j & 63) & 1; }

  // Sets bit j; true when it was clear.
  bool set(index_t j) noexcept {
    uint64_t& w = words_[static_cast<size_t>(j) >> 6];
    const uint64_t bit = uint64_t{1} << (j & 63);
    const bool fresh = (w & bit) == 0;
    w |= bit;
    return fresh;
  }

  // Calls f(j) for every set bit in increasing order and clears the bitmap.
  template <class F>
  void drain(F&& f) {
    drain_words([&](size_t wi, uint64_t w) {
      const auto base = static_cast<index_t>(wi * 64);
      do {
        f(base + static_cast<index_t>(std::countr_zero(w)));
        w &= w - 1;
      } while (w != 0);
    });
  }

  // Calls f(word index, word) for every nonzero word in increasing order and clears the bitmap.
  template <class F>
  void drain_words(F&& f) {
    for (size_t wi = 0; wi < n_words_; ++wi) {
      const uint64_t w = words_[wi];
      if (w == 0) continue;
      words_[wi] = 0;
      f(wi, w);
    }
  }

  void clear() noexcept { std::fill_n(words_.get(), n_words_, uint64_t{0}); }

  // Sets every bit set in `other` (a bitmap of the same width).
  void merge(const uint64_t* other) noexcept {
    uint64_t* w = words_.get();
    for (size_t wi = 0; wi < n_words_; ++wi) w[wi] |= other[wi];
  }

  // The number of set bits; clears the bitmap.
  int64_t count_and_clear() noexcept {
    int64_t count = 0;
    for (size_t wi = 0; wi < n_words_; ++wi) {
      count += std::popcount(words_[wi]);
      words_[wi] = 0;
    }
    return count;
  }

  size_t word_count() const noexcept { return n_words_; }
  uint64_t* words() noexcept { return words_.get(); }

 private:
  size_t n_words_;
  std::unique_ptr<uint64_t[]> words_;
};

}  // namespace detail

template <class S>
class BitmapAccumulator {
 public:
  using value_type = typename S::value_type;

  // Every cell holds agg's identity between rows (emitting resets the cells it reads), so adding
  // to a cell needs no branch on whether the column is new to the row: that branch mispredicts
  // on about every other product.
  explicit BitmapAccumulator(int64_t n_cols)
      : present_(n_cols), named_(n_cols), values_(new storage_t<value_type>[static_cast<size_t>(n_cols)]) {
    std::fill_n(values_.get(), n_cols, static_cast<storage_t<value_type>>(S::zero()));
  }

  void begin_row() noexcept { count_ = 0; }

  // Names column j in the mask row (before any product of the row).
  void mark(index_t j) noexcept {
    named_.set(j);
    has_named_ = true;
  }

  // As DenseAccumulator::add.
  template <MaskMode mode, bool count_only, class Make>
  void add(index_t j, Make&& make) {
    if constexpr (mode == MaskMode::allow) {
      if (!named_.test(j)) return;
    } else if constexpr (mode == MaskMode::deny) {
      if (named_.test(j)) return;
    }
    const bool fresh = present_.set(j);
    count_ += fresh ? 1 : 0;
    if constexpr (!count_only) {
      auto& cell = values_[static_cast<size_t>(j)];
      if constexpr (can_settle<S>) {
        // `any` keeps its first operand, so a fresh cell takes the product itself.
        if (fresh) cell = make();
        else if (!settled<S>(cell)) cell = S::agg(cell, make());
      } else {
        cell = S::agg(static_cast<value_type>(cell), make());
      }
    }
  }

  int64_t size() const noexcept { return count_; }

  // Calls sink(j, value) for every entry in increasing column order, and ends the row.
  template <class Sink>
  void emit(Sink&& sink) {
    present_.drain([&](index_t j) {
      auto& cell = values_[static_cast<size_t>(j)];
      sink(j, static_cast<const storage_t<value_type>&>(cell));
      cell = static_cast<storage_t<value_type>>(S::zero());
    });
    end_row();
  }

  // Writes the row, in column order, to cols[0, size()) and values[0, size()), and ends the row.
  void write(index_t* cols, storage_t<value_type>* values) {
    size_t q = 0;
    present_.drain([&](index_t j) {
      auto& cell = values_[static_cast<size_t>(j)];
      cols[q] = j;
      values[q++] = cell;
      cell = static_cast<storage_t<value_type>>(S::zero());
    });
    end_row();
  }

  // Writes the row's columns, in order, to cols[0, size()) (after a count_only row, which leaves
  // the cells untouched), and ends the row.
  void write_columns(index_t* cols) {
    size_t q = 0;
    present_.drain([&](index_t j) { cols[q++] = j; });
    end_row();
  }

  // Adds every column of a whole bitmap row (n / 64 words) to the row's structure: a count_only
  // row only (no values are made); size() does not see these columns, take_count() does.
  void add_columns(const uint64_t* words) noexcept { present_.merge(words); }

  // The number of columns in a count_only row (also those of add_columns), and ends the row.
  int64_t take_count() noexcept {
    const int64_t count = present_.count_and_clear();
    end_row();
    return count;
  }

  // Ends a row whose entries are not wanted (after a count_only row).
  void discard() noexcept {
    present_.clear();
    end_row();
  }

 private:
  void end_row() noexcept {
    if (has_named_) named_.clear();
    has_named_ = false;
  }

  detail::ColumnBitmap present_;
  detail::ColumnBitmap named_;
  std::unique_ptr<storage_t<value_type>[]> values_;  // bytes for bool: no bit-packed proxies
  int64_t count_ = 0;
  bool has_named_ = false;
};

}  // namespace gql::cpu
