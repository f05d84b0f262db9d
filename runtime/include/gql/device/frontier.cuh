// Frontier building blocks of the device traversals: bitmaps of 32-bit words (visited vertices, a
// pull step's frontier), queues of vertex ids (a push step's frontier) with warp-aggregated appends,
// the four ways a push step maps a queue's out-edges to threads (for_each_frontier_edge), and the
// few counters a step leaves for the host (its only read per step). NVRTC-compatible.
#pragma once

#include "gql/device/csr_view.cuh"
#include "gql/device/load_balance.cuh"
#include "gql/device/step_counters.cuh"

namespace gql::device {

__device__ __forceinline__ bool bit_is_set(const unsigned* bits, long long v) {
  return (bits[v >> 5] >> (v & 31)) & 1u;
}

// Sets v's bit; true for the one caller that set it (the caller has claimed v). A plain read first:
// most edges of a traversal meet vertices claimed long before, and those need no atomic.
__device__ __forceinline__ bool claim_bit(unsigned* bits, long long v) {
  const unsigned mask = 1u << (v & 31);
  if (bits[v >> 5] & mask) return false;
  return (atomicOr(bits + (v >> 5), mask) & mask) == 0;
}

template <class T>
__device__ __forceinline__ T warp_sum(T x) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

// The largest x of the warp, on every lane.
__device__ __forceinline__ long long warp_max(long long x) {
  for (int offset = 16; offset > 0; offset >>= 1) x = max_of(x, __shfl_xor_sync(0xffffffffu, x, offset));
  return x;
}

// Appends v to `queue` for each lane whose `take` is set: one atomic per warp. Every lane of the
// warp calls it together.
__device__ __forceinline__ void warp_append(bool take, index_t v, index_t* queue, unsigned long long* size) {
  const unsigned takers = __ballot_sync(0xffffffffu, take);
  if (takers == 0) return;
  const int lane = static_cast<int>(threadIdx.x & 31);
  const int leader = __ffs(takers) - 1;
  unsigned long long base = 0;
  if (lane == leader) base = atomicAdd(size, static_cast<unsigned long long>(__popc(takers)));
  base = __shfl_sync(0xffffffffu, base, leader);
  if (take) queue[base + static_cast<unsigned long long>(__popc(takers & ((1u << lane) - 1u)))] = v;
}

// Adds each thread's counts to `counters` with one atomic per counter and block (a step's counts
// are summed in registers over its whole grid-stride loop). Every thread of the block calls it.
__device__ __forceinline__ void add_block_counts(StepCounters* counters, unsigned long long size,
                                                 unsigned long long out_edges, unsigned long long in_edges,
                                                 unsigned long long examined) {
  __shared__ unsigned long long partial[traversal_block / 32][4];
  const int lane = static_cast<int>(threadIdx.x & 31), warp = static_cast<int>(threadIdx.x >> 5);
  size = warp_sum(size);
  out_edges = warp_sum(out_edges);
  in_edges = warp_sum(in_edges);
  examined = warp_sum(examined);
  if (lane == 0) {
    partial[warp][0] = size;
    partial[warp][1] = out_edges;
    partial[warp][2] = in_edges;
    partial[warp][3] = examined;
  }
  __syncthreads();
  if (threadIdx.x < 4) {
    unsigned long long total = 0;
    for (int w = 0; w < traversal_block / 32; ++w) total += partial[w][threadIdx.x];
    unsigned long long* cells[4] = {&counters->next_size, &counters->next_out_edges, &counters->next_in_edges,
                                    &counters->examined};
    if (total != 0) atomicAdd(cells[threadIdx.x], total);
  }
}

// The queue position whose adjacency list holds the frontier's e-th edge: the last i in [lo, hi]
// with scan[i] <= e (scan: exclusive prefix sums of the queue's degrees; empty lists share their
// successor's start, so the last such i is the list that holds e).
__device__ __forceinline__ long long edge_owner(const long long* scan, long long lo, long long hi, long long e) {
  while (lo < hi) {
    const long long mid = (lo + hi + 1) >> 1;
    if (scan[mid] <= e) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// The block's share of a tile of the frontier's edges: [begin, end) and the queue positions that
// hold them, found once by one thread and shared. Every thread of the block calls it.
struct EdgeTile {
  long long begin, end, first, last;
};

__device__ __forceinline__ EdgeTile edge_tile(const long long* scan, long long queue_size, long long total_edges,
                                              long long tile) {
  __shared__ long long owners[2];
  EdgeTile t;
  t.begin = tile * traversal_tile;
  t.end = min_of(total_edges, t.begin + traversal_tile);
  if (threadIdx.x == 0) {
    owners[0] = edge_owner(scan, 0, queue_size - 1, t.begin);
    owners[1] = edge_owner(scan, owners[0], queue_size - 1, t.end - 1);
  }
  __syncthreads();
  t.first = owners[0];
  t.last = owners[1];
  return t;
}

// Calls visit(active, i, p) for the out-edge p of queued vertex queue[i], for every out-edge of
// every queued vertex, the threads mapped to edges as B says. Every lane of a warp calls visit
// equally often (lanes without an edge with active = false and i, p meaningless), so visit may use
// warp collectives (warp_append); every thread of the block calls this function. scan and
// total_edges serve LoadBalance::edge only (exclusive sums of the queue's degrees, their total).
template <int Threads, LoadBalance B, class Visit>
__device__ __forceinline__ void for_each_frontier_edge(const offset_t* offsets, const index_t* queue,
                                                       long long queue_size, const long long* scan,
                                                       long long total_edges, Visit&& visit) {
  if constexpr (B == LoadBalance::edge) {
    const long long tiles = ceil_div(total_edges, traversal_tile);
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const EdgeTile t = edge_tile(scan, queue_size, total_edges, tile);
      for (int item = 0; item < tile_items; ++item) {
        const long long e = t.begin + static_cast<long long>(item) * Threads + threadIdx.x;
        if (e < t.end) {
          const long long i = edge_owner(scan, t.first, t.last, e);
          visit(true, i, offsets[queue[i]] + (e - scan[i]));
        } else {
          visit(false, 0LL, offset_t{0});
        }
      }
      __syncthreads();  // the tile's shared owners are read before the next tile writes them
    }
  } else if constexpr (B == LoadBalance::block) {
    for (long long i = blockIdx.x; i < queue_size; i += gridDim.x) {
      const index_t u = queue[i];
      const offset_t begin = offsets[u], end = offsets[u + 1];
      for (offset_t base = begin; base < end; base += Threads) {
        const offset_t p = base + threadIdx.x;
        visit(p < end, i, p);
      }
    }
  } else if constexpr (B == LoadBalance::warp) {
    const long long warps = static_cast<long long>(gridDim.x) * (Threads / 32);
    const int lane = static_cast<int>(threadIdx.x & 31);
    for (long long i = (blockIdx.x * static_cast<long long>(Threads) + threadIdx.x) / 32; i < queue_size; i += warps) {
      const index_t u = queue[i];
      const offset_t begin = offsets[u], end = offsets[u + 1];
      for (offset_t base = begin; base < end; base += 32) {
        const offset_t p = base + lane;
        visit(p < end, i, p);
      }
    }
  } else {
    // A thread per vertex; the warp steps as long as its longest list (whole warps enter the loop).
    const long long stride = static_cast<long long>(gridDim.x) * Threads;
    const long long whole_warps = ceil_div(queue_size, 32LL) * 32;
    for (long long i = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; i < whole_warps; i += stride) {
      offset_t begin = 0, end = 0;
      if (i < queue_size) {
        const index_t u = queue[i];
        begin = offsets[u];
        end = offsets[u + 1];
      }
      const long long longest = warp_max(static_cast<long long>(end - begin));
      for (long long k = 0; k < longest; ++k) visit(begin + k < end, i, begin + k);
    }
  }
}

// degrees[i] = the length of row queue[i].
template <int Threads>
__global__ void __launch_bounds__(Threads)
    queue_degrees(const offset_t* row_offsets, const index_t* queue, long long queue_size, long long* degrees) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < queue_size;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const index_t v = queue[i];
    degrees[i] = row_offsets[v + 1] - row_offsets[v];
  }
}

// Sets the bit of every queued vertex (the bitmap starts cleared).
template <int Threads>
__global__ void __launch_bounds__(Threads)
    queue_to_bitmap(const index_t* queue, long long queue_size, unsigned* bits) {
  for (long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x; i < queue_size;
       i += static_cast<long long>(gridDim.x) * blockDim.x) {
    const index_t v = queue[i];
    atomicOr(bits + (v >> 5), 1u << (v & 31));
  }
}

// Queues every vertex whose bit is set (in no particular order); `size` counts them.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    bitmap_to_queue(const unsigned* bits, long long n, index_t* queue, unsigned long long* size) {
  const long long words = ceil_div(n, 32LL);
  const long long warps = static_cast<long long>(gridDim.x) * (blockDim.x / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  for (long long w = (blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x) / 32; w < words; w += warps) {
    const unsigned word = bits[w];
    if (word == 0) continue;  // the same for the whole warp
    warp_append((word >> lane) & 1u, static_cast<index_t>(w * 32 + lane), queue, size);
  }
}

}  // namespace gql::device
