// Element stores into a dense device matrix, kept on the host until the matrix is next read and then
// written by one launch (GraphBLAS's pending tuples). A loop of `D[i, i] = x` over a matrix on the
// device costs a host append per store, not a transfer and a synchronization each.
//
// Host code (g++ or nvcc); the launch is in the runtime library (src/cuda/element_stores.cu).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gql/device.hpp"
#include "gql/graph.hpp"

namespace gql::gpu {

// data[positions[n]] = values[n] for n < count, on `stream`: `count` distinct positions of elements of
// `element_bytes` bytes (1, 2, 4 or 8); positions and values are host arrays, read before the return.
void scatter_elements(void* data, size_t element_bytes, const int64_t* positions, const void* values, int64_t count,
                      const Stream& stream);

template <class T>
class PendingStores {
 public:
  // Past this many waiting stores the next store writes them out: the host list stays bounded.
  static constexpr size_t limit = size_t{1} << 22;

  bool empty() const noexcept { return positions_.empty(); }
  size_t size() const noexcept { return positions_.size(); }
  void add(int64_t position, storage_t<T> value) {
    positions_.push_back(position);
    values_.push_back(value);
  }
  void clear() noexcept {
    positions_.clear();
    values_.clear();
  }

  // Writes the stores into `data` in the order they were made (of two stores to one position the
  // later wins), then forgets them.
  void apply(DeviceBuffer<storage_t<T>>& data, const Stream& stream) {
    if (empty()) return;
    std::vector<size_t> order(positions_.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return positions_[a] < positions_[b]; });
    std::vector<int64_t> positions;
    std::vector<storage_t<T>> values;
    positions.reserve(order.size());
    values.reserve(order.size());
    for (size_t n = 0; n < order.size(); ++n) {
      const bool last_of_its_position = n + 1 == order.size() || positions_[order[n + 1]] != positions_[order[n]];
      if (!last_of_its_position) continue;
      positions.push_back(positions_[order[n]]);
      values.push_back(values_[order[n]]);
    }
    scatter_elements(data.data(), sizeof(storage_t<T>), positions.data(), values.data(),
                     static_cast<int64_t>(positions.size()), stream);
    clear();
  }

 private:
  std::vector<int64_t> positions_;
  std::vector<storage_t<T>> values_;
};

}  // namespace gql::gpu
