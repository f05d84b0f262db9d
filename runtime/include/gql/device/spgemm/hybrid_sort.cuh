// The hybrid sort: a block-level key/value sort of a global buffer of any length.
//   1. chunks of ChunkItems that fit shared memory are sorted by a bitonic network (only the last
//      chunk is padded, to the next power of two, and the padding is virtual: see
//      bitonic_comparator), and written back in place;
//   2. the sorted runs are merged pairwise in a tree, each pass split across all threads of the
//      block by merge path, ping-ponging between the buffer and an alternate buffer of equal size.
// Not stable (the bitonic network reorders equal keys); the order is deterministic.
// The CPU model test/support/hybrid_sort_model.hpp runs the same schedule. NVRTC-compatible.
#pragma once

#include "gql/device/spgemm/hybrid_sort_schedule.cuh"

namespace gql::device::spgemm {

template <int BlockThreads, int ChunkItems, class Key, class Value>
struct BlockHybridSort {
  static_assert((ChunkItems & (ChunkItems - 1)) == 0 && ChunkItems >= 2, "the chunk is a power of two");

  struct TempStorage {
    Key keys[ChunkItems];
    Value values[ChunkItems];
  };

  // Sorts keys[0, n) (with values) using keys_alt/values_alt (n items each) as the second buffer.
  // Returns true when the sorted result ends up in the alternate buffers. Called by every thread.
  __device__ static bool sort(Key* keys, Value* values, Key* keys_alt, Value* values_alt, int n,
                              TempStorage& storage) {
    for (int chunk = 0; chunk < n; chunk += ChunkItems) {
      sort_chunk(keys + chunk, values + chunk, min_of(ChunkItems, n - chunk), storage);
    }
    bool in_alt = false;
    for (int width = ChunkItems; width < n; width *= 2) {
      const Key* src_keys = in_alt ? keys_alt : keys;
      const Value* src_values = in_alt ? values_alt : values;
      Key* dst_keys = in_alt ? keys : keys_alt;
      Value* dst_values = in_alt ? values : values_alt;
      const ThreadRange range = thread_range(n, BlockThreads, threadIdx.x);
      merge_range(src_keys, src_values, dst_keys, dst_values, n, width, range.begin, range.end);
      __syncthreads();
      in_alt = !in_alt;
    }
    return in_alt;
  }

  // Sorts one chunk of `count` <= ChunkItems items in shared memory and writes it back.
  __device__ static void sort_chunk(Key* keys, Value* values, int count, TempStorage& storage) {
    for (int i = threadIdx.x; i < count; i += BlockThreads) {
      storage.keys[i] = keys[i];
      storage.values[i] = values[i];
    }
    __syncthreads();
    const int padded = next_pow2(count);
    for (int k = 2; k <= padded; k *= 2) {
      for (int j = k / 2; j >= 1; j /= 2) {
        for (int t = threadIdx.x; t < padded / 2; t += BlockThreads) {
          const Comparator c = bitonic_comparator(k, j, t);
          if (c.hi < count && storage.keys[c.hi] < storage.keys[c.lo]) {
            const Key key = storage.keys[c.lo];
            storage.keys[c.lo] = storage.keys[c.hi];
            storage.keys[c.hi] = key;
            const Value value = storage.values[c.lo];
            storage.values[c.lo] = storage.values[c.hi];
            storage.values[c.hi] = value;
          }
        }
        __syncthreads();
      }
    }
    for (int i = threadIdx.x; i < count; i += BlockThreads) {
      keys[i] = storage.keys[i];
      values[i] = storage.values[i];
    }
    __syncthreads();
  }
};

}  // namespace gql::device::spgemm
