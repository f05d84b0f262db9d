// The steps of a device BFS. A vertex is claimed by setting its bit in the `visited` bitmap (one
// atomicOr decides, so levels are written once and need no atomics); levels are stored as L
// (unsigned char while the depth fits, int beyond). Three steps:
//   push:         the queue's out-edges, mapped to threads by a LoadBalance (edge-balanced tiles by
//                 default), claimed vertices appended to the next queue or set in the next bitmap;
//   pull:         every open vertex scans its in-edges (rows of GT) for a frontier bit, stopping at
//                 the first; one warp owns 32 vertices = one bitmap word, so the next frontier's
//                 word and the visited word are written without atomics (or the found vertices
//                 are appended to a queue);
//   edge-centric: every edge of the graph each step, as the seed did (a schedule for comparison).
// NVRTC-compatible.
#pragma once

#include "gql/device/traversal/frontier.cuh"

namespace gql::device::traversal {

// Sets the bit of every vertex without in-edges (and of the ids past n in the last word): no
// search reaches them, so a search starts with them visited and pull steps skip their words.
template <int Threads>
__global__ void __launch_bounds__(Threads) unreachable_vertices(const offset_t* gt_offsets, long long n, unsigned* bits) {
  const long long words = ceil_div(n, 32LL);
  const long long warps = static_cast<long long>(gridDim.x) * (Threads / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  for (long long w = (blockIdx.x * static_cast<long long>(Threads) + threadIdx.x) / 32; w < words; w += warps) {
    const long long v = w * 32 + lane;
    const unsigned word = __ballot_sync(0xffffffffu, v >= n || gt_offsets[v + 1] == gt_offsets[v]);
    if (lane == 0) bits[w] = word;
  }
}

// The same bits from G's column indices, for a search that holds no transpose (GT is G): every
// bit starts set (all_set) and each entry's target clears its own.
template <int Threads>
__global__ void __launch_bounds__(Threads) clear_targets(const index_t* col_indices, long long nvals, unsigned* bits) {
  for (long long p = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * Threads) {
    const index_t v = col_indices[p];
    const unsigned mask = 1u << (v & 31);
    if (bits[v >> 5] & mask) atomicAnd(bits + (v >> 5), ~mask);
  }
}

// Starts a search from `source` in one launch: visited = the bits of the vertices no search reaches
// and the source's, every level unseen (0xff) but the source's (0), the queue holding the source;
// the counters describe that frontier.
template <int Threads>
__global__ void __launch_bounds__(Threads)
    bfs_start(long long source, long long n, const offset_t* g_offsets, const unsigned* unreachable, unsigned* visited,
              unsigned char* level, index_t* queue, StepCounters* counters) {
  const long long words = ceil_div(n, 32LL);
  const long long stride = static_cast<long long>(gridDim.x) * Threads;
  for (long long i = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; i < n; i += stride) {
    if (i < words) visited[i] = unreachable[i] | (i == (source >> 5) ? 1u << (source & 31) : 0u);
    level[i] = i == source ? 0 : 0xff;
  }
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    queue[0] = static_cast<index_t>(source);
    counters->next_size = 1;
    counters->next_out_edges = static_cast<unsigned long long>(g_offsets[source + 1] - g_offsets[source]);
    counters->next_in_edges = 0;
    counters->examined = 0;
  }
}

// A push step from the queue, its edges mapped to threads as B says (scan: exclusive prefix sums of
// the queue's out-degrees and total_edges their sum, read by LoadBalance::edge). Claimed vertices
// go to next_queue, or with ToBitmap to next_front (cleared before the step).
struct ClaimedTarget {
  bool claimed;
  index_t v;
};

// A push step's visit of edge p (when active): claims its target in `visited`; the claiming thread
// sets the target's level and adds its out- and in-degree to the step's edge counts (the direction
// chooser's inputs).
template <class L>
__device__ ClaimedTarget claim_edge_target(bool active, offset_t p, const CsrView<bool>& g, const offset_t* gt_offsets,
                                           unsigned* visited, L* level, L depth, unsigned long long& out_edges,
                                           unsigned long long& in_edges) {
  if (!active) return {false, 0};
  const index_t v = g.col_indices[p];
  if (!claim_bit(visited, v)) return {false, v};
  level[v] = depth;
  out_edges += static_cast<unsigned long long>(g.row_offsets[v + 1] - g.row_offsets[v]);
  in_edges += static_cast<unsigned long long>(gt_offsets[v + 1] - gt_offsets[v]);
  return {true, v};
}

template <int Threads, LoadBalance B, bool ToBitmap, class L>
__global__ void __launch_bounds__(Threads)
    bfs_push(CsrView<bool> g, const offset_t* gt_offsets, const index_t* queue, const long long* scan,
             long long queue_size, long long total_edges, unsigned* visited, L* level, L depth, index_t* next_queue,
             unsigned* next_front, StepCounters* counters) {
  unsigned long long size = 0, out_edges = 0, in_edges = 0;
  for_each_frontier_edge<Threads, B>(g.row_offsets, queue, queue_size, scan, total_edges,
                                     [&](bool active, long long, offset_t p) {
                                       const auto [claimed, v] = claim_edge_target(
                                           active, p, g, gt_offsets, visited, level, depth, out_edges, in_edges);
                                       if constexpr (ToBitmap) {
                                         if (claimed) {
                                           atomicOr(next_front + (v >> 5), 1u << (v & 31));
                                           ++size;
                                         }
                                       } else if constexpr (B == LoadBalance::edge || B == LoadBalance::block) {
                                         block_append<Threads>(claimed, v, next_queue, &counters->next_size);
                                       } else {
                                         warp_append(claimed, v, next_queue, &counters->next_size);
                                       }
                                     });
  add_block_counts(counters, size, out_edges, in_edges, 0);
}

// One push step of a device-driven batch (deep searches: road graphs take thousands of small
// steps), a warp per queued vertex (a thread per vertex would walk a hub's list serially, one
// memory latency per edge): the queue's size and edges come from the step before
// (batch[step - 1], in device memory), so the host queues several steps and reads their counters
// once. The step does not run, and sets `stopped` for itself and every later step of the batch,
// when the one before stopped, when its frontier has more than `edge_limit` edges, or (alpha > 0,
// Beamer's rule as common::DirectionChooser applies it while pushing) when the frontier's edges exceed
// the open edges over alpha: open_edges at the batch's start less the in-edges claimed since.
template <int Threads, class L>
__global__ void __launch_bounds__(Threads)
    bfs_push_batched(CsrView<bool> g, const offset_t* gt_offsets, const index_t* queue, StepCounters* batch,
                     int step, unsigned long long edge_limit, long long open_edges, double alpha, unsigned* visited,
                     L* level, L depth, index_t* next_queue) {
  const StepCounters& previous = batch[step - 1];
  StepCounters* counters = batch + step;
  unsigned long long claimed_in_edges = 0;
  for (int k = 1; k < step; ++k) claimed_in_edges += batch[k].next_in_edges;
  const long long open = open_edges - static_cast<long long>(claimed_in_edges);
  const bool pull_next = alpha > 0 && static_cast<double>(previous.next_out_edges) > static_cast<double>(open) / alpha;
  if (previous.stopped != 0 || previous.next_out_edges > edge_limit || pull_next) {
    if (blockIdx.x == 0 && threadIdx.x == 0) counters->stopped = 1;
    return;  // the whole grid returns: the condition is the same for every thread
  }
  const long long queue_size = static_cast<long long>(previous.next_size);
  unsigned long long out_edges = 0, in_edges = 0;
  for_each_frontier_edge<Threads, LoadBalance::warp>(g.row_offsets, queue, queue_size, nullptr, 0,
                                                      [&](bool active, long long, offset_t p) {
                                                        const auto [claimed, v] =
                                                            claim_edge_target(active, p, g, gt_offsets, visited,
                                                                              level, depth, out_edges, in_edges);
                                                        warp_append(claimed, v, next_queue, &counters->next_size);
                                                      });
  add_block_counts(counters, 0, out_edges, in_edges, 0);
}

// front: the frontier's bitmap. The vertices found go to next_front (every word written), or with
// ToQueue to next_queue.
template <int Threads, bool ToQueue, class L>
__global__ void __launch_bounds__(Threads)
    bfs_pull(CsrView<bool> gt, const offset_t* g_offsets, const unsigned* front, unsigned* next_front,
             index_t* next_queue, unsigned* visited, L* level, L depth, StepCounters* counters) {
  const long long n = gt.n_rows;
  const long long words = ceil_div(n, 32LL);
  const long long warps = static_cast<long long>(gridDim.x) * (Threads / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  unsigned long long size = 0, out_edges = 0, in_edges = 0, examined = 0;
  for (long long w = (blockIdx.x * static_cast<long long>(Threads) + threadIdx.x) / 32; w < words; w += warps) {
    const unsigned seen = visited[w];
    bool found = false;
    const long long v = w * 32 + lane;
    if (seen != 0xffffffffu && v < n && !((seen >> lane) & 1u)) {
      const offset_t end = gt.row_offsets[v + 1];
      for (offset_t p = gt.row_offsets[v]; p < end; ++p) {
        ++examined;
        if (bit_is_set(front, gt.col_indices[p])) {
          found = true;
          break;
        }
      }
      if (found) {
        level[v] = depth;
        if (!ToQueue) ++size;  // a queue counts its own appends
        out_edges += static_cast<unsigned long long>(g_offsets[v + 1] - g_offsets[v]);
        in_edges += static_cast<unsigned long long>(end - gt.row_offsets[v]);
      }
    }
    const unsigned joined = __ballot_sync(0xffffffffu, found);
    if constexpr (ToQueue) warp_append(found, static_cast<index_t>(v), next_queue, &counters->next_size);
    if (lane == 0) {
      if (!ToQueue) next_front[w] = joined;
      if (joined != 0) visited[w] = seen | joined;
    }
  }
  add_block_counts(counters, size, out_edges, in_edges, examined);
}

// sources[p]: the row of the p-th stored entry (the edge list the edge-centric step reads).
template <int Threads>
__global__ void __launch_bounds__(Threads) entry_rows(const offset_t* row_offsets, long long n_rows, index_t* sources) {
  const long long warps = static_cast<long long>(gridDim.x) * (Threads / 32);
  const int lane = static_cast<int>(threadIdx.x & 31);
  for (long long r = (blockIdx.x * static_cast<long long>(Threads) + threadIdx.x) / 32; r < n_rows; r += warps)
    for (offset_t p = row_offsets[r] + lane; p < row_offsets[r + 1]; p += 32) sources[p] = static_cast<index_t>(r);
}

// The seed's edge-centric step: every edge whose source sits at depth - 1 claims its target.
template <int Threads, class L>
__global__ void __launch_bounds__(Threads)
    bfs_edge_centric(const index_t* sources, CsrView<bool> g, const offset_t* gt_offsets, long long nvals,
                     unsigned* visited, L* level, L depth, StepCounters* counters) {
  unsigned long long size = 0, out_edges = 0, in_edges = 0;
  const L previous = static_cast<L>(depth - 1);
  for (long long p = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; p < nvals;
       p += static_cast<long long>(gridDim.x) * Threads) {
    if (level[sources[p]] != previous) continue;
    const index_t v = g.col_indices[p];
    if (claim_bit(visited, v)) {
      level[v] = depth;
      ++size;
      out_edges += static_cast<unsigned long long>(g.row_offsets[v + 1] - g.row_offsets[v]);
      in_edges += static_cast<unsigned long long>(gt_offsets[v + 1] - gt_offsets[v]);
    }
  }
  add_block_counts(counters, size, out_edges, in_edges, static_cast<unsigned long long>(0));
}

// Byte levels to int levels when the depth outgrows a byte (255, the unseen mark, becomes `unseen`).
template <int Threads>
__global__ void __launch_bounds__(Threads) widen_levels(const unsigned char* narrow, long long n, int* wide, int unseen) {
  for (long long v = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * Threads)
    wide[v] = narrow[v] == 0xff ? unseen : static_cast<int>(narrow[v]);
}

}  // namespace gql::device::traversal
