// The relaxation step of device single-source paths (Bellman-Ford with a frontier): the out-edges
// of the vertices whose value improved last round, mapped to threads as a BFS push step's, each
// candidate S::con(value[u], w(u,v), source, u, v) combined into value[v] with an atomic that says
// whether it improved; improved vertices are queued once per round (a round stamp per vertex).
// NVRTC-compatible.
#pragma once

#include "gql/device/traversal/frontier.cuh"
#include "gql/device/semiring_atomics.cuh"

namespace gql::device::traversal {

template <int Bytes>
struct signed_word;
template <>
struct signed_word<4> { using type = int; };
template <>
struct signed_word<8> { using type = long long; };

// value = agg(value, candidate) atomically; true when that changed the stored bits.
template <class S>
__device__ __forceinline__ bool atomic_agg_improves(typename S::value_type* cell, typename S::value_type candidate) {
  using V = typename S::value_type;
  if constexpr ((S::monoid == Monoid::min || S::monoid == Monoid::max) && native_minmax<V>::value) {
    if constexpr (S::monoid == Monoid::min) return candidate < atomicMin(cell, candidate);
    else return atomicMax(cell, candidate) < candidate;
  } else if constexpr ((S::monoid == Monoid::min || S::monoid == Monoid::max) &&
                       (is_same<V, float>::value || is_same<V, double>::value)) {
    // A floating-point value whose sign bit is clear orders as its bits read as a signed integer,
    // against any stored value (negative ones read as negative integers): a native atomic then.
    using Int = typename signed_word<sizeof(V)>::type;
    const Int bits = bit_cast_to<Int>(candidate);
    if (bits >= 0) {
      Int* word = reinterpret_cast<Int*>(cell);
      if constexpr (S::monoid == Monoid::min) return bits < atomicMin(word, bits);
      else return atomicMax(word, bits) < bits;
    }
  }
  if constexpr (sizeof(V) == 4 || sizeof(V) == 8) {
    using Word = typename select_word<sizeof(V)>::type;
    Word* word = reinterpret_cast<Word*>(cell);
    Word old = *reinterpret_cast<volatile Word*>(word);
    for (;;) {
      const Word better = bit_cast_to<Word>(S::agg(bit_cast_to<V>(old), candidate));
      if (better == old) return false;
      const Word seen = atomicCAS(word, old, better);
      if (seen == old) return true;
      old = seen;
    }
  } else {
    static_assert(sizeof(V) == 1 || sizeof(V) == 2, "values of 1, 2, 4 or 8 bytes");
    using Small = typename select_word<sizeof(V)>::type;
    const unsigned long long address = reinterpret_cast<unsigned long long>(cell);
    unsigned* word = reinterpret_cast<unsigned*>(address & ~3ull);
    const unsigned shift = static_cast<unsigned>(address & 3ull) * 8u;
    const unsigned mask = (sizeof(V) == 1 ? 0xffu : 0xffffu) << shift;
    unsigned old = *reinterpret_cast<volatile unsigned*>(word);
    for (;;) {
      const V current = bit_cast_to<V>(static_cast<Small>((old & mask) >> shift));
      const unsigned bits = static_cast<unsigned>(bit_cast_to<Small>(S::agg(current, candidate)));
      const unsigned updated = (old & ~mask) | ((bits << shift) & mask);
      if (updated == old) return false;
      const unsigned seen = atomicCAS(word, old, updated);
      if (seen == old) return true;
      old = seen;
    }
  }
}

// Fills value with S::zero() (agg's identity: an unreached vertex needs no special case) and
// stamps with -1 (queued in no round).
template <int Threads, class S>
__global__ void __launch_bounds__(Threads)
    paths_init(typename S::value_type* value, int* stamp, unsigned char* reached, long long n) {
  for (long long v = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; v < n;
       v += static_cast<long long>(gridDim.x) * Threads) {
    value[v] = S::zero();
    stamp[v] = -1;
    reached[v] = 0;
  }
}

template <class V>
__global__ void paths_start(long long source, V source_value, const offset_t* g_offsets, V* value,
                            unsigned char* reached, index_t* queue, StepCounters* counters) {
  value[source] = source_value;
  reached[source] = 1;
  queue[0] = static_cast<index_t>(source);
  counters->next_size = 1;
  counters->next_out_edges = static_cast<unsigned long long>(g_offsets[source + 1] - g_offsets[source]);
  counters->next_in_edges = 0;
  counters->examined = 0;
}

struct RelaxedEdge {
  bool queued = false;  // v's value improved and v joined the next queue in this round
  index_t v = 0;
};

// Relaxes edge p out of u: v's value takes con(value[u], weight) where that improves it. The thread
// that first improves v in this round queues it (its stamp) and adds v's out-degree to out_edges.
// Values of the graph convert to S::b_type as the language converts elements (a pattern entry reads
// as 1, a number to bool is != 0).
template <class S, class TG>
__device__ RelaxedEdge relax_edge(const CsrView<TG>& g, long long source, index_t u, offset_t p,
                                  typename S::value_type* value, unsigned char* reached, int* stamp, int round,
                                  unsigned long long& out_edges) {
  using W = typename S::b_type;
  const index_t v = g.col_indices[p];
  W w{};
  if constexpr (S::reads_values) {
    if constexpr (is_same<W, bool>::value) w = g.value_at(p) != TG{};
    else w = static_cast<W>(g.value_at(p));
  }
  if (!atomic_agg_improves<S>(value + v, S::con(value[u], w, source, u, v))) return {false, v};
  reached[v] = 1;
  if (atomicExch(stamp + v, round) == round) return {false, v};
  out_edges += static_cast<unsigned long long>(g.row_offsets[v + 1] - g.row_offsets[v]);
  return {true, v};
}

// One round: the queue's out-edges mapped to threads as B says (scan and total_edges as for
// bfs_push).
template <int Threads, LoadBalance B, class S, class TG>
__global__ void __launch_bounds__(Threads)
    paths_relax(CsrView<TG> g, long long source, const index_t* queue, const long long* scan, long long queue_size,
                long long total_edges, typename S::value_type* value, unsigned char* reached, int* stamp, int round,
                index_t* next_queue, StepCounters* counters) {
  unsigned long long out_edges = 0;
  for_each_frontier_edge<Threads, B>(
      g.row_offsets, queue, queue_size, scan, total_edges, [&](bool active, long long i, offset_t p) {
        const auto [queued, v] =
            active ? relax_edge<S>(g, source, queue[i], p, value, reached, stamp, round, out_edges) : RelaxedEdge{};
        warp_append(queued, v, next_queue, &counters->next_size);
      });
  add_block_counts(counters, 0, out_edges, 0, 0);
}

// One round of a device-driven batch, a thread per queued vertex: the queue's size and edges come
// from the round before (`previous`, in device memory), so the host queues several rounds and
// reads their counters once. A round whose frontier has more than `edge_limit` edges (a thread per
// vertex would serialize a hub's list) does not run: it and every later round of the batch set
// `stopped`, and the host goes on from the last round that ran with edge-balanced rounds.
template <int Threads, class S, class TG>
__global__ void __launch_bounds__(Threads)
    paths_relax_batched(CsrView<TG> g, long long source, const index_t* queue, const StepCounters* previous,
                        unsigned long long edge_limit, typename S::value_type* value, unsigned char* reached,
                        int* stamp, int round, index_t* next_queue, StepCounters* counters) {
  if (previous->stopped != 0 || previous->next_out_edges > edge_limit) {
    if (blockIdx.x == 0 && threadIdx.x == 0) counters->stopped = 1;
    return;  // the whole grid returns: the condition is the same for every thread
  }
  const long long queue_size = static_cast<long long>(previous->next_size);
  unsigned long long out_edges = 0, examined = 0;
  for (long long i = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; i < queue_size;
       i += static_cast<long long>(gridDim.x) * Threads) {
    const index_t u = queue[i];
    const offset_t end = g.row_offsets[u + 1];
    for (offset_t p = g.row_offsets[u]; p < end; ++p) {
      ++examined;
      const auto [queued, v] = relax_edge<S>(g, source, u, p, value, reached, stamp, round, out_edges);
      if (queued) next_queue[atomicAdd(&counters->next_size, 1ull)] = v;
    }
  }
  add_block_counts(counters, 0, out_edges, 0, examined);
}

// Each vertex of `list` whose value is below `threshold` goes to the near queue, its out-edges
// counted into near_counters for the next step, after on_near(v); every other one goes to
// not_near(v).
template <int Threads, class V, class OnNear, class NotNear>
__device__ void split_near(const offset_t* g_offsets, const index_t* list, long long size, const V* value, V threshold,
                           index_t* near, StepCounters* near_counters, OnNear on_near, NotNear not_near) {
  unsigned long long out_edges = 0;
  const long long stride = static_cast<long long>(gridDim.x) * Threads;
  const long long whole_warps = ceil_div(size, 32LL) * 32;  // warp_append needs every lane
  for (long long i = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; i < whole_warps; i += stride) {
    bool is_near = false;
    index_t v = 0;
    if (i < size) {
      v = list[i];
      is_near = value[v] < threshold;
      if (is_near) {
        on_near(v);
        out_edges += static_cast<unsigned long long>(g_offsets[v + 1] - g_offsets[v]);
      } else {
        not_near(v);
      }
    }
    warp_append(is_near, v, near, &near_counters->next_size);
  }
  add_block_counts(near_counters, 0, out_edges, 0, 0);
}

// Delta-stepping's near-far split (Davidson et al.): a round's queue splits into the near queue
// (value below `threshold`: relaxed next) and the far pile, which holds a vertex at most once (its
// `in_far` flag; a queue holds a vertex once, so plain writes decide) and refills near when near runs
// dry. near_counters: the near queue's size and out-edges.
template <int Threads, class V>
__global__ void __launch_bounds__(Threads)
    paths_split_near_far(const offset_t* g_offsets, const index_t* queue, long long queue_size, const V* value,
                         V threshold, index_t* near, StepCounters* near_counters, index_t* far,
                         unsigned long long* far_size, unsigned char* in_far) {
  split_near<Threads>(
      g_offsets, queue, queue_size, value, threshold, near, near_counters, [](index_t) {},
      [&](index_t v) {
        if (in_far[v] != 0) return;
        in_far[v] = 1;
        far[atomicAdd(far_size, 1ull)] = v;
      });
}

// The far pile's vertices below the raised threshold move to the near queue; the others go to
// far_out (the next far pile).
template <int Threads, class V>
__global__ void __launch_bounds__(Threads)
    paths_refill_near(const offset_t* g_offsets, const index_t* far, long long far_size, const V* value, V threshold,
                      index_t* near, StepCounters* near_counters, index_t* far_out, unsigned long long* far_out_size,
                      unsigned char* in_far) {
  split_near<Threads>(
      g_offsets, far, far_size, value, threshold, near, near_counters, [&](index_t v) { in_far[v] = 0; },
      [&](index_t v) { far_out[atomicAdd(far_out_size, 1ull)] = v; });
}

// The least value in the far pile (S's agg is min), into *least (S::zero() before).
template <int Threads, class S>
__global__ void __launch_bounds__(Threads)
    paths_far_least(const index_t* far, long long far_size, const typename S::value_type* value,
                    typename S::value_type* least) {
  for (long long i = blockIdx.x * static_cast<long long>(Threads) + threadIdx.x; i < far_size;
       i += static_cast<long long>(gridDim.x) * Threads)
    atomic_agg<S>(least, value[far[i]]);
}

}  // namespace gql::device::traversal
