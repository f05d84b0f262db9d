// Large rows of C = A * B over a semiring S: one row at a time over the whole GPU. Blocks take the
// row's first-hop edges (A's row), threads the second-hop edges (B's rows); every product is
// combined into a dense accumulator of n cells in global memory with an atomic agg. A cell's first
// touch is detected from the old value of an atomic exchange on its flag, staged in a per-block
// shared-memory list and flushed to the global list of touched columns with one global atomic per
// flush. The host sorts the touched columns; spgemm_gather_large_row then reads and resets exactly
// those cells, so no pass ever covers all n cells. NVRTC-compatible.
#pragma once

#include "gql/device/csr_view.cuh"
#include "gql/device/semiring_atomics.cuh"

namespace gql::device {

template <int Threads, int StageCapacity>
struct TouchStage {
  static_assert(StageCapacity >= 2 * Threads, "room for a round of first touches beyond the flush mark");
  index_t columns[StageCapacity];
  int count;
  unsigned long long base;

  // Moves the staged columns to touched[] (called by every thread; the stage ends empty).
  __device__ void flush(index_t* touched, unsigned long long* touched_count) {
    if (threadIdx.x == 0) base = count > 0 ? atomicAdd(touched_count, static_cast<unsigned long long>(count)) : 0ull;
    __syncthreads();
    for (int t = threadIdx.x; t < count; t += Threads) touched[base + t] = columns[t];
    __syncthreads();
    if (threadIdx.x == 0) count = 0;
    __syncthreads();
  }
};

template <class S, int Threads, int StageCapacity>
__global__ void __launch_bounds__(Threads)
spgemm_accumulate_large_row(CsrView<typename S::a_type> a, CsrView<typename S::b_type> b, long long row,
                            typename S::value_type* accumulator, unsigned* touched_flags, index_t* touched,
                            unsigned long long* touched_count) {
  __shared__ TouchStage<Threads, StageCapacity> stage;
  if (threadIdx.x == 0) stage.count = 0;
  __syncthreads();
  for (offset_t p = a.row_begin(row) + blockIdx.x; p < a.row_end(row); p += gridDim.x) {
    const index_t k = a.col_indices[p];
    const typename S::a_type a_value = a.value_at(p);
    const offset_t b_begin = b.row_begin(k);
    const offset_t degree = b.row_end(k) - b_begin;
    // Rounds of one product per thread, so the block can flush the stage between rounds.
    for (offset_t round = 0; round < degree; round += Threads) {
      const offset_t q = round + threadIdx.x;
      if (q < degree) {
        const index_t j = b.col_indices[b_begin + q];
        const typename S::value_type product = S::con(a_value, b.value_at(b_begin + q), row, k, j);
        if (touched_flags[j] == 0u && atomicExch(&touched_flags[j], 1u) == 0u) {
          stage.columns[atomicAdd(&stage.count, 1)] = j;
        }
        atomic_agg<S>(&accumulator[j], product);
      }
      __syncthreads();
      if (stage.count > StageCapacity - Threads) stage.flush(touched, touched_count);
    }
  }
  stage.flush(touched, touched_count);
}

// Reads the cells of the sorted touched columns into the row's values and resets them (value to
// S::zero(), flag to 0) for the next large row.
template <class S>
__global__ void spgemm_gather_large_row(const index_t* columns, long long count, typename S::value_type* accumulator,
                                        unsigned* touched_flags, typename S::value_type* values) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const index_t j = columns[t];
  values[t] = accumulator[j];
  accumulator[j] = S::zero();
  touched_flags[j] = 0u;
}

// Sets every accumulator cell to S::zero() (once, before the first large row).
template <class S>
__global__ void spgemm_fill_zero(typename S::value_type* accumulator, long long n) {
  const long long t = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (t < n) accumulator[t] = S::zero();
}

}  // namespace gql::device
