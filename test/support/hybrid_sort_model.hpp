// A CPU model of the device hybrid sort and reduce-by-key (gql/device/spgemm/hybrid_sort.cuh,
// gql/device/spgemm/reduce_by_key.cuh): the same chunking, the same bitonic network in the same order, the
// same merge-path splits per thread and the same fold order, with the block's threads run one after
// the other (within a step they touch disjoint items, so the order does not change the result).
// It yields exactly the device's output, so it checks the algorithm in CI and the device in tests.
// Host code (no CUDA needed); a test support header, not installed with the runtime.
#pragma once

#include <cstddef>
#include <span>
#include <utility>
#include <vector>

#include "gql/device/spgemm/hybrid_sort_schedule.cuh"
#include "gql/error.hpp"

namespace gql::device::spgemm {

template <int ChunkItems, class Key, class Value>
void hybrid_sort_chunk_model(Key* keys, Value* values, int count) {
  const int padded = device::spgemm::next_pow2(count);
  for (int k = 2; k <= padded; k *= 2) {
    for (int j = k / 2; j >= 1; j /= 2) {
      for (int t = 0; t < padded / 2; ++t) {
        const device::spgemm::Comparator c = device::spgemm::bitonic_comparator(k, j, t);
        if (c.hi < count && keys[c.hi] < keys[c.lo]) {
          std::swap(keys[c.lo], keys[c.hi]);
          std::swap(values[c.lo], values[c.hi]);
        }
      }
    }
  }
}

// Sorts keys/values with keys_alt/values_alt as the ping-pong buffers; returns true when the result
// is in the alternate buffers (as the device sort does).
template <int BlockThreads, int ChunkItems, class Key, class Value>
bool hybrid_sort_model(std::span<Key> keys, std::span<Value> values, std::span<Key> keys_alt,
                       std::span<Value> values_alt) {
  if (values.size() != keys.size() || keys_alt.size() < keys.size() || values_alt.size() < keys.size())
    throw Error(ErrorKind::usage, "hybrid sort: buffers of different lengths");
  const int n = static_cast<int>(keys.size());
  for (int chunk = 0; chunk < n; chunk += ChunkItems) {
    hybrid_sort_chunk_model<ChunkItems>(keys.data() + chunk, values.data() + chunk,
                                        device::min_of(ChunkItems, n - chunk));
  }
  bool in_alt = false;
  for (int width = ChunkItems; width < n; width *= 2) {
    const Key* src_keys = in_alt ? keys_alt.data() : keys.data();
    const Value* src_values = in_alt ? values_alt.data() : values.data();
    Key* dst_keys = in_alt ? keys.data() : keys_alt.data();
    Value* dst_values = in_alt ? values.data() : values_alt.data();
    for (int t = 0; t < BlockThreads; ++t) {
      const device::spgemm::ThreadRange range = device::spgemm::thread_range(n, BlockThreads, t);
      device::spgemm::merge_range(src_keys, src_values, dst_keys, dst_values, n, width, range.begin, range.end);
    }
    in_alt = !in_alt;
  }
  return in_alt;
}

// Reduce-by-key of a sorted buffer, folding in the device's order; returns the number of runs.
template <int BlockThreads, class Key, class Value, class Agg>
int reduce_by_key_model(std::span<const Key> keys, std::span<const Value> values, std::span<Key> out_keys,
                        std::span<Value> out_values, Agg agg) {
  const int n = static_cast<int>(keys.size());
  std::vector<Value> carry(BlockThreads);
  std::vector<char> has_carry(BlockThreads), has_head(BlockThreads);
  std::vector<Value> acc(BlockThreads);
  std::vector<int> last_out(BlockThreads, -1);  // the output slot of the run open at the range's end
  int out = -1;
  for (int t = 0; t < BlockThreads; ++t) {
    const device::spgemm::ThreadRange range = device::spgemm::thread_range(n, BlockThreads, t);
    for (int i = range.begin; i < range.end; ++i) {
      if (device::spgemm::is_run_head(keys.data(), i)) {
        if (last_out[t] >= 0) out_values[last_out[t]] = acc[t];
        ++out;
        out_keys[out] = keys[i];
        acc[t] = values[i];
        last_out[t] = out;
        has_head[t] = 1;
      } else if (last_out[t] >= 0) {
        acc[t] = agg(acc[t], values[i]);
      } else {
        carry[t] = i == range.begin ? values[i] : agg(carry[t], values[i]);
      }
    }
    has_carry[t] = range.begin < range.end && !device::spgemm::is_run_head(keys.data(), range.begin);
  }
  for (int t = 0; t < BlockThreads; ++t) {
    if (last_out[t] < 0) continue;
    Value folded = acc[t];
    for (int u = t + 1; u < BlockThreads && has_carry[u]; ++u) {
      folded = agg(folded, carry[u]);
      if (has_head[u]) break;
    }
    out_values[last_out[t]] = folded;
  }
  return out + 1;
}

}  // namespace gql::device::spgemm
