// Hash accumulator for one output row at a time: open addressing with linear probing in a table
// sized to the row (a power of two at least twice the row's bound), so a row with few products
// costs memory and time in proportion to its products, not to n.
//
// Slot states: empty, named by the mask row (allowed or forbidden, as for the dense accumulator),
// and present in the output row.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "gql/cpu/accumulator_policy.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

template <class S>
class HashAccumulator {
 public:
  using value_type = typename S::value_type;

  // Prepares a table for a row of at most `capacity` distinct columns (products and mask entries).
  void begin_row(int64_t capacity) {
    const uint64_t want = std::bit_ceil(static_cast<uint64_t>(std::max<int64_t>(capacity, 4)) * 2);
    size_ = static_cast<size_t>(want);
    shift_ = 32 - static_cast<unsigned>(std::countr_zero(want));
    if (keys_.size() < size_) {
      keys_.resize(size_);
      states_.resize(size_);
      values_.resize(size_);
    }
    std::fill_n(states_.begin(), size_, uint8_t{empty});
    used_ = 0;
  }

  void mark(index_t j) noexcept {
    const size_t s = find(j);
    keys_[s] = j;
    states_[s] = named;
  }

  // As DenseAccumulator::add.
  template <MaskMode mode, bool count_only, class Make>
  void add(index_t j, Make&& make) {
    const size_t s = find(j);
    const uint8_t state = states_[s];
    if (state == present) {
      if constexpr (count_only) return;
      if constexpr (can_settle<S>) {
        if (settled<S>(values_[s])) return;
      }
      values_[s] = S::agg(values_[s], make());
      return;
    }
    if constexpr (mode == MaskMode::allow) {
      if (state != named) return;
    } else if constexpr (mode == MaskMode::deny) {
      if (state == named) return;
    }
    keys_[s] = j;
    states_[s] = present;
    if constexpr (!count_only) values_[s] = make();
    ++used_;
  }

  int64_t size() const noexcept { return static_cast<int64_t>(used_); }

  // Ends a row whose entries are not wanted (begin_row clears the table).
  void discard() noexcept {}

  template <class Sink>
  void emit(Sink&& sink) {
    // (column, slot) packed in one word: sorting the words sorts by column.
    order_.clear();
    for (size_t s = 0; s < size_; ++s)
      if (states_[s] == present) order_.push_back(uint64_t{static_cast<uint32_t>(keys_[s])} << 32 | s);
    sort_short(order_.data(), order_.size());
    for (const uint64_t e : order_) sink(static_cast<index_t>(e >> 32), values_[static_cast<size_t>(e & 0xffffffffu)]);
  }

  // Writes the row's columns, in order, to cols[0, size()) (also after a count_only row).
  void write_columns(index_t* cols) {
    size_t q = 0;
    for (size_t s = 0; s < size_; ++s)
      if (states_[s] == present) cols[q++] = keys_[s];
    sort_short(cols, q);
  }

  // Writes the row, in column order, to cols[0, size()) and values[0, size()).
  void write(index_t* cols, storage_t<value_type>* values) {
    size_t q = 0;
    emit([&](index_t j, const storage_t<value_type>& x) {
      cols[q] = j;
      values[q++] = x;
    });
  }

 private:
  enum : uint8_t { empty = 0, named = 1, present = 2 };

  // Sorts v[0, n): insertion sort for the short lists most rows here have, std::sort otherwise.
  template <class T>
  static void sort_short(T* v, size_t n) {
    if (n > 32) {
      std::sort(v, v + n);
      return;
    }
    for (size_t a = 1; a < n; ++a) {
      const T x = v[a];
      size_t b = a;
      for (; b > 0 && v[b - 1] > x; --b) v[b] = v[b - 1];
      v[b] = x;
    }
  }

  // The slot holding j, or the empty slot where j would go.
  size_t find(index_t j) const noexcept {
    size_t s = static_cast<size_t>((static_cast<uint32_t>(j) * 0x9E3779B1u) >> shift_) & (size_ - 1);
    while (states_[s] != empty && keys_[s] != j) s = (s + 1) & (size_ - 1);
    return s;
  }

  std::vector<index_t> keys_;
  std::vector<uint8_t> states_;
  std::vector<storage_t<value_type>> values_;  // bytes for bool: no bit-packed proxies
  std::vector<uint64_t> order_;
  size_t size_ = 0;
  unsigned shift_ = 0;
  size_t used_ = 0;
};

}  // namespace gql::cpu
