// Block-wide exclusive prefix sum (warp shuffles, then one warp over the warp totals).
// NVRTC-compatible.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device {

template <int BlockThreads, class T>
struct BlockScan {
  static_assert(BlockThreads % 32 == 0 && BlockThreads <= 1024, "a whole number of warps, at most 1024 threads");
  static constexpr int warps = BlockThreads / 32;

  struct TempStorage {
    T warp_totals[warps];
  };

  // Every thread of the block calls this; returns the sum of the values of lower threads, and the
  // block's total in `total`. The storage may be reused once it returns.
  __device__ static T exclusive_sum(T value, T& total, TempStorage& storage) {
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T inclusive = warp_inclusive_sum(value, lane);
    if (lane == 31) storage.warp_totals[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
      T total_of_warp = lane < warps ? storage.warp_totals[lane] : T(0);
      total_of_warp = warp_inclusive_sum(total_of_warp, lane);
      // With one warp the compiler may read slot 0 in every lane; the write must follow all reads.
      __syncwarp();
      if (lane < warps) storage.warp_totals[lane] = total_of_warp;
    }
    __syncthreads();
    const T before = warp > 0 ? storage.warp_totals[warp - 1] : T(0);
    total = storage.warp_totals[warps - 1];
    __syncthreads();
    return before + inclusive - value;
  }

 private:
  __device__ static T warp_inclusive_sum(T value, int lane) {
    for (int d = 1; d < 32; d <<= 1) {
      const T other = __shfl_up_sync(0xffffffffu, value, d);
      if (lane >= d) value += other;
    }
    return value;
  }
};

}  // namespace gql::device
