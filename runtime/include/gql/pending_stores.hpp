// Element stores kept aside until their container is next read as a whole, then written in one pass
// (GraphBLAS's pending tuples): a loop of `A[i, j] = x` costs an append per store, not a rewrite of
// the container each. Host graphs and sparse vectors keep their new entries here (gql/graph.hpp); a
// value on the device keeps its stores here until they are written there in one pass
// (gql/device/values/element_stores.hpp).
//
// Host code only (g++ or nvcc); nothing here runs on the device.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <utility>
#include <vector>

namespace gql {

// Stores of values of type V at int64 positions (a container's own numbering: row * columns + column
// for a matrix, the index for a vector), in the order they were made.
template <class V>
class PendingStores {
 public:
  // Past this many waiting stores the container writes them at once: the list stays bounded.
  static constexpr size_t limit = size_t{1} << 22;

  // The stores resolved: positions sorted and unique, each with the value stored there last.
  struct Resolved {
    std::vector<int64_t> positions;
    std::vector<V> values;
  };

  bool empty() const noexcept { return positions_.empty(); }
  size_t size() const noexcept { return positions_.size(); }
  void add(int64_t position, V value) {
    positions_.push_back(position);
    values_.push_back(value);
  }
  void clear() noexcept {
    positions_.clear();
    values_.clear();
  }

  // O(p log p); a loop that stores in increasing positions (a diagonal) is not sorted again.
  Resolved resolved() const {
    std::vector<size_t> order(positions_.size());
    std::iota(order.begin(), order.end(), size_t{0});
    if (!std::is_sorted(positions_.begin(), positions_.end()))
      std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return positions_[a] < positions_[b]; });
    Resolved out;
    out.positions.reserve(order.size());
    out.values.reserve(order.size());
    for (size_t n = 0; n < order.size(); ++n) {
      const bool last_of_its_position = n + 1 == order.size() || positions_[order[n + 1]] != positions_[order[n]];
      if (!last_of_its_position) continue;
      out.positions.push_back(positions_[order[n]]);
      out.values.push_back(values_[order[n]]);
    }
    return out;
  }

 private:
  std::vector<int64_t> positions_;
  std::vector<V> values_;
};

// A host container's pending stores of new entries, with what makes assembling them safe while the
// container is only read: readers of a const container (OpenMP threads, kernel calls sharing a graph)
// may all ask for it at once; the first assembles under a lock and the others wait for it, then see
// the assembled arrays (the flag is released after the assembly and acquired before every read).
// Storing is a write: as for any write, no reader may run at the same time.
template <class V>
class PendingEntries {
 public:
  PendingEntries() = default;
  // Moving is a write of both containers (no reader runs): the stores go along, the lock stays.
  PendingEntries(PendingEntries&& other) noexcept { take(other); }
  PendingEntries& operator=(PendingEntries&& other) noexcept {
    if (this != &other) take(other);
    return *this;
  }
  PendingEntries(const PendingEntries&) = delete;
  PendingEntries& operator=(const PendingEntries&) = delete;

  // Whether stores wait to be assembled.
  bool waiting() const noexcept { return waiting_.load(std::memory_order_acquire); }

  // Keeps a store of a new entry; true when the list reached its limit (the owner assembles then).
  bool add(int64_t position, V value) {
    stores_.add(position, value);
    waiting_.store(true, std::memory_order_relaxed);
    return stores_.size() >= PendingStores<V>::limit;
  }

  // Calls `assemble(resolved)` once for the stores waiting, if any, and forgets them. Thread-safe
  // against other calls; `assemble` writes the owner's arrays, which no reader holds yet.
  template <class Assemble>
  void settle(Assemble&& assemble) const {
    if (!waiting()) return;
    std::lock_guard lock(mutex_);
    if (!waiting_.load(std::memory_order_relaxed)) return;  // another reader assembled them
    assemble(stores_.resolved());
    stores_.clear();
    waiting_.store(false, std::memory_order_release);
  }

 private:
  void take(PendingEntries& other) noexcept {
    stores_ = std::move(other.stores_);
    other.stores_.clear();
    waiting_.store(other.waiting_.exchange(false, std::memory_order_relaxed), std::memory_order_relaxed);
  }

  mutable std::mutex mutex_;
  mutable PendingStores<V> stores_;
  mutable std::atomic<bool> waiting_{false};
};

}  // namespace gql
