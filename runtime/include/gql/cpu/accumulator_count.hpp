// The accumulator of a counting product (an integer sum of a constant con, where an entry's value is
// the number of products reaching it), for one output row at a time, emitted in column order.
//
// A product from one of B's sparse rows adds one to its column's 32-bit cell and sets the column's
// presence bit, as the bitmap accumulator does. B's dense rows, which the product already holds as
// bitmaps (DenseRows), are added whole into bit-sliced counters instead: one branch-free pass over
// n / 64 words per row of B, where its entries one at a time cost a scattered read-modify-write each.
// (kron:16: B's 137 rows of n / 128 entries or more carry 72% of A * A's 400 M products, in 174 k
// pairs of a row of A and a dense row of B: about 1,600 increments per pass saved.) Emitting adds
// both counts of each column.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <memory>
#include <vector>

#include "gql/cpu/accumulator_bitmap.hpp"
#include "gql/cpu/bit_sliced_counts.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

class CountAccumulator {
 public:
  using value_type = uint32_t;

  explicit CountAccumulator(int64_t n_cols)
      : present_(n_cols), sliced_(present_.word_count()), counts_(new uint32_t[static_cast<size_t>(n_cols)]()) {}

  void begin_row() noexcept { bitmaps_.clear(); }

  // One more product reaching column j.
  void add(index_t j) noexcept {
    present_.set(j);
    ++counts_[static_cast<size_t>(j)];
  }

  // One more product reaching every column set in `words` (a bitmap of n / 64 words, which must stay
  // alive and unchanged until the row is emitted).
  void add_bitmap(const uint64_t* words) { bitmaps_.push_back(words); }

  // Calls sink(j, count) for every column of the row in increasing order, and ends the row.
  template <class Sink>
  void emit(Sink&& sink) {
    if (!add_bitmaps()) {
      present_.drain([&](index_t j) { emit_column(j, 0, sink); });
      return;
    }
    sliced_.with_planes([&]<int P>(std::integral_constant<int, P>) {
      present_.drain_words([&](size_t w, uint64_t bits) {
        uint8_t sliced_counts[64];
        detail::BitSlicedCounts::counts_of_word(sliced_.take_word<P>(w), sliced_counts);
        const auto base = static_cast<index_t>(w * 64);
        do {
          const int l = std::countr_zero(bits);
          emit_column(base + l, sliced_counts[l], sink);
          bits &= bits - 1;
        } while (bits != 0);
      });
    });
  }

 private:
  template <class Sink>
  void emit_column(index_t j, uint32_t sliced_count, Sink& sink) {
    uint32_t& cell = counts_[static_cast<size_t>(j)];
    sink(j, cell + sliced_count);
    cell = 0;
  }

  // Adds the row's bitmaps into the bit-sliced counters (and their columns to the presence bits),
  // at most BitSlicedCounts::max_count of them at a time: the counts of every such group but the
  // last move into the 32-bit cells. True when there were any.
  bool add_bitmaps() {
    constexpr auto per_group = static_cast<size_t>(detail::BitSlicedCounts::max_count);
    constexpr auto per_add = static_cast<size_t>(detail::BitSlicedCounts::bitmaps_per_add);
    for (size_t next = 0; next < bitmaps_.size();) {
      const size_t group = std::min(bitmaps_.size() - next, per_group);
      sliced_.begin(static_cast<int64_t>(group));
      for (size_t q = 0; q < group; q += per_add)
        sliced_.add(bitmaps_.data() + next + q, static_cast<int>(std::min(per_add, group - q)), present_.words());
      next += group;
      if (next < bitmaps_.size()) move_sliced_into_cells();
    }
    return !bitmaps_.empty();
  }

  void move_sliced_into_cells() noexcept {
    sliced_.with_planes([&]<int P>(std::integral_constant<int, P>) {
      for (size_t w = 0; w < present_.word_count(); ++w) {
        uint8_t sliced_counts[64];
        detail::BitSlicedCounts::counts_of_word(sliced_.take_word<P>(w), sliced_counts);
        for (size_t l = 0; l < 64; ++l)  // columns past n (in the last word) never have a count
          if (sliced_counts[l] != 0) counts_[w * 64 + l] += sliced_counts[l];
      }
    });
  }

  detail::ColumnBitmap present_;
  detail::BitSlicedCounts sliced_;
  std::unique_ptr<uint32_t[]> counts_;  // zero between rows
  std::vector<const uint64_t*> bitmaps_;  // the row's dense rows of B
};

}  // namespace gql::cpu
