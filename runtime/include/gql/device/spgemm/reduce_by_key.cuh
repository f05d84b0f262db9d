// Block-level reduce-by-key of a sorted key/value buffer: each run of equal keys becomes one output
// (key, agg of its values in buffer order). Every thread folds a contiguous range; runs that cross
// ranges are finished by the thread holding the run's head, which folds in the following threads'
// leading pieces. The CPU model test/support/hybrid_sort_model.hpp folds in the same order.
// NVRTC-compatible.
#pragma once

#include "gql/device/block_scan.cuh"
#include "gql/device/spgemm/hybrid_sort_schedule.cuh"

namespace gql::device::spgemm {

template <int BlockThreads, class Key, class Value>
struct BlockReduceByKey {
  struct TempStorage {
    typename BlockScan<BlockThreads, int>::TempStorage scan;
    Value carry[BlockThreads];     // the fold of a thread's leading piece of a run begun earlier
    bool has_carry[BlockThreads];  // the range is non-empty and does not begin a run
    bool has_head[BlockThreads];   // the range holds at least one run head
  };

  // Reduces keys/values[0, n) into out_keys/out_values (which must not alias the input); returns
  // the number of runs. Called by every thread of the block.
  template <class Agg>
  __device__ static int reduce(const Key* keys, const Value* values, int n, Key* out_keys, Value* out_values,
                               Agg agg, TempStorage& storage) {
    const ThreadRange range = thread_range(n, BlockThreads, threadIdx.x);
    int heads = 0;
    for (int i = range.begin; i < range.end; ++i) heads += is_run_head(keys, i) ? 1 : 0;
    int runs = 0;
    int out = BlockScan<BlockThreads, int>::exclusive_sum(heads, runs, storage.scan) - 1;

    Value acc{};
    Value carry{};
    bool open = false;  // acc folds a run whose head is in this range
    for (int i = range.begin; i < range.end; ++i) {
      if (is_run_head(keys, i)) {
        if (open) out_values[out] = acc;
        ++out;
        out_keys[out] = keys[i];
        acc = values[i];
        open = true;
      } else if (open) {
        acc = agg(acc, values[i]);
      } else {
        carry = i == range.begin ? values[i] : agg(carry, values[i]);
      }
    }
    storage.carry[threadIdx.x] = carry;
    storage.has_carry[threadIdx.x] = range.begin < range.end && !is_run_head(keys, range.begin);
    storage.has_head[threadIdx.x] = heads > 0;
    __syncthreads();
    if (open) {
      for (int u = threadIdx.x + 1; u < BlockThreads && storage.has_carry[u]; ++u) {
        acc = agg(acc, storage.carry[u]);
        if (storage.has_head[u]) break;
      }
      out_values[out] = acc;
    }
    __syncthreads();
    return runs;
  }
};

}  // namespace gql::device::spgemm
