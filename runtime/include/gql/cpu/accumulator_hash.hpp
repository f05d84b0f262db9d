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
#include <utility>
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

  template <class Sink>
  void emit(Sink&& sink) {
    order_.clear();
    for (size_t s = 0; s < size_; ++s)
      if (states_[s] == present) order_.emplace_back(keys_[s], static_cast<uint32_t>(s));
    std::sort(order_.begin(), order_.end());
    for (const auto& [j, s] : order_) sink(j, values_[s]);
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

  // The slot holding j, or the empty slot where j would go.
  size_t find(index_t j) const noexcept {
    size_t s = static_cast<size_t>((static_cast<uint32_t>(j) * 0x9E3779B1u) >> shift_) & (size_ - 1);
    while (states_[s] != empty && keys_[s] != j) s = (s + 1) & (size_ - 1);
    return s;
  }

  std::vector<index_t> keys_;
  std::vector<uint8_t> states_;
  std::vector<storage_t<value_type>> values_;  // bytes for bool: no bit-packed proxies
  std::vector<std::pair<index_t, uint32_t>> order_;
  size_t size_ = 0;
  unsigned shift_ = 0;
  size_t used_ = 0;
};

}  // namespace gql::cpu
