// Frontier building blocks of the device traversals: bitmaps of 32-bit words (visited vertices, a
// pull step's frontier), queues of vertex ids (a push step's frontier) with warp- and
// block-aggregated appends, the four ways a push step maps a queue's out-edges to threads
// (for_each_frontier_edge), and the few counters a step leaves for the host (its only read per step). NVRTC-compatible.
#pragma once

#include "gql/device/block_scan.cuh"
#include "gql/device/csr_view.cuh"
#include "gql/device/traversal/load_balance.cuh"
#include "gql/device/traversal/step_counters.cuh"

namespace gql::device::traversal {

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

// Appends v to `queue` for each thread whose `take` is set: one atomic per block, for the steps whose
// threads call it together (edge- and block-balanced push steps: a warp's atomic each would
// serialize on `size` when a large frontier claims vertices all over the grid). Every thread of the
// block calls it.
template <int Threads>
__device__ __forceinline__ void block_append(bool take, index_t v, index_t* queue, unsigned long long* size) {
  constexpr int warps = Threads / 32;
  __shared__ unsigned long long warp_base[warps];
  const int lane = static_cast<int>(threadIdx.x & 31), warp = static_cast<int>(threadIdx.x >> 5);
  const unsigned takers = __ballot_sync(0xffffffffu, take);
  if (lane == 0) warp_base[warp] = __popc(takers);
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
    for (int w = 0; w < warps; ++w) {
      const unsigned long long count = warp_base[w];
      warp_base[w] = total;
      total += count;
    }
    const unsigned long long base = total > 0 ? atomicAdd(size, total) : 0;
    for (int w = 0; w < warps; ++w) warp_base[w] += base;
  }
  __syncthreads();
  if (take) queue[warp_base[warp] + static_cast<unsigned long long>(__popc(takers & ((1u << lane) - 1u)))] = v;
  __syncthreads();  // the bases are read before the next call writes them
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

// The exclusive prefix sums of the degrees of a queue of at most shared_scan_queue vertices, made
// by the calling block in `out` (shared memory): an edge-balanced step over a short queue needs no
// scan launched before it. Every thread of the block calls it.
template <int Threads>
__device__ __forceinline__ const long long* scan_short_queue(const offset_t* offsets, const index_t* queue,
                                                             long long queue_size, long long* out) {
  constexpr int per_thread = static_cast<int>(shared_scan_queue / Threads);
  static_assert(per_thread * Threads == shared_scan_queue, "the short queue splits evenly over the block");
  using Scan = BlockScan<Threads, long long>;
  __shared__ typename Scan::TempStorage storage;
  const long long first = static_cast<long long>(threadIdx.x) * per_thread;
  long long degrees[per_thread];
  long long sum = 0;
  for (int k = 0; k < per_thread; ++k) {
    const long long i = first + k;
    degrees[k] = i < queue_size ? static_cast<long long>(offsets[queue[i] + 1] - offsets[queue[i]]) : 0;
    sum += degrees[k];
  }
  long long total = 0;
  long long before = Scan::exclusive_sum(sum, total, storage);
  for (int k = 0; k < per_thread; ++k) {
    out[first + k] = before;
    before += degrees[k];
  }
  __syncthreads();
  return out;
}

// Calls visit(active, i, p) for the out-edge p of queued vertex queue[i], for every out-edge of
// every queued vertex, the threads mapped to edges as B says. Every lane of a warp calls visit
// equally often (lanes without an edge with active = false and i, p meaningless), so visit may use
// warp collectives (warp_append); under LoadBalance::edge and ::block the whole block calls visit
// together, from one call site, so visit may also hold block barriers (block_append). Every thread
// of the block calls this function. scan and
// total_edges serve LoadBalance::edge only (exclusive sums of the queue's degrees, their total; a
// null scan for a queue of at most shared_scan_queue vertices, which each block scans itself).
template <int Threads, LoadBalance B, class Visit>
__device__ __forceinline__ void for_each_frontier_edge(const offset_t* offsets, const index_t* queue,
                                                       long long queue_size, const long long* scan,
                                                       long long total_edges, Visit&& visit) {
  if constexpr (B == LoadBalance::edge) {
    __shared__ long long short_scan[shared_scan_queue];
    if (scan == nullptr) scan = scan_short_queue<Threads>(offsets, queue, queue_size, short_scan);
    const long long tiles = ceil_div(total_edges, traversal_tile);
    for (long long tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      const EdgeTile t = edge_tile(scan, queue_size, total_edges, tile);
      for (int item = 0; item < tile_items; ++item) {
        const long long e = t.begin + static_cast<long long>(item) * Threads + threadIdx.x;
        const bool active = e < t.end;
        long long i = 0;
        offset_t p = 0;
        if (active) {
          i = edge_owner(scan, t.first, t.last, e);
          p = offsets[queue[i]] + (e - scan[i]);
        }
        visit(active, i, p);  // one call site: visit may hold block barriers (block_append)
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

// Queues every vertex whose bit is set; `size` counts them. A warp reads 32 consecutive words (a
// word per lane) and reserves room for all of their vertices with one atomic: one per bitmap word
// would serialize on `size` when the frontier is spread thinly over many words.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    bitmap_to_queue(const unsigned* bits, long long n, index_t* queue, unsigned long long* size) {
  const long long words = ceil_div(n, 32LL);
  const long long warps = static_cast<long long>(gridDim.x) * (Threads / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  for (long long span = (blockIdx.x * static_cast<long long>(Threads) + threadIdx.x) / 32; span * 32 < words;
       span += warps) {
    const long long w = span * 32 + lane;
    unsigned word = w < words ? bits[w] : 0u;
    const unsigned count = static_cast<unsigned>(__popc(word));
    unsigned before = count;  // inclusive, then exclusive sum of the lanes' counts
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned other = __shfl_up_sync(0xffffffffu, before, d);
      if (lane >= d) before += other;
    }
    const unsigned total = __shfl_sync(0xffffffffu, before, 31);
    if (total == 0) continue;  // the same for the whole warp
    before -= count;
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(size, static_cast<unsigned long long>(total));
    base = __shfl_sync(0xffffffffu, base, 0) + before;
    for (; word != 0; word &= word - 1) queue[base++] = static_cast<index_t>(w * 32 + (__ffs(word) - 1));
  }
}

}  // namespace gql::device::traversal
