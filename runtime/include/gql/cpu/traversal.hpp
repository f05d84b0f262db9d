// Specialized traversal loops for generated code: BFS levels and Bellman-Ford style single-source
// paths with a frontier. Both keep a frontier as a list (push) or a bitmap (pull) and switch
// direction by Beamer's rule (BFS) as DirectionOptions say.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <omp.h>

#include "gql/common/traversal_stats.hpp"
#include "gql/cpu/direction.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/semiring.hpp"

namespace gql::cpu {

using common::TraversalStats;

namespace detail {

using common::check_source;

// The frontier as a bit per vertex, for pull steps: set from and cleared through the frontier's list,
// or set one vertex at a time as a pull step discovers it (several threads may share a word).
class FrontierBits {
 public:
  explicit FrontierBits(int64_t n) : words_(static_cast<size_t>((n + 63) / 64)) { clear_all(); }
  bool test(index_t v) const noexcept { return words_[static_cast<size_t>(v) >> 6] >> (v & 63) & 1; }
  void set_one(index_t v) { word(v).fetch_or(uint64_t{1} << (v & 63), std::memory_order_relaxed); }
  // Sets v's bit where no other thread writes v's word meanwhile: a pull step's threads take the
  // vertices in chunks of whole words (pull_chunk), so the bit needs no locked instruction.
  void set_in_own_word(index_t v) noexcept { words_[static_cast<size_t>(v) >> 6] |= uint64_t{1} << (v & 63); }
  template <class List>
  void set(const List& vertices) {
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(vertices.size())))
    for (size_t f = 0; f < vertices.size(); ++f) set_one(vertices[f]);
  }
  template <class List>
  void clear(const List& vertices) {
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(vertices.size())))
    for (size_t f = 0; f < vertices.size(); ++f) word(vertices[f]).store(0, std::memory_order_relaxed);
  }
  void clear_all() {
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(words_.size())))
    for (size_t w = 0; w < words_.size(); ++w) words_[w] = 0;
  }

 private:
  std::atomic_ref<uint64_t> word(index_t v) { return std::atomic_ref<uint64_t>(words_[static_cast<size_t>(v) >> 6]); }
  Array<uint64_t> words_;
};

// The vertices a pull step's thread takes at a time: whole words of FrontierBits (set_in_own_word).
inline constexpr int64_t pull_chunk = 1024;
static_assert(pull_chunk % 64 == 0, "a pull step's chunk must cover whole words of the frontier's bits");

// n copies of x, first touched by all threads.
template <class T>
Array<T> filled(int64_t n, T x) {
  Array<T> a(static_cast<size_t>(n));
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t i = 0; i < n; ++i) a[static_cast<size_t>(i)] = x;
  return a;
}

// The vertices v of [0, n) with keep(v), in order, found by all threads: a count per block of
// vertices, then resize(count) and put(p, v) for the p-th of them, each block from its offset.
template <class Keep, class Resize, class Put>
void select_vertices(int64_t n, Keep&& keep, Resize&& resize, Put&& put) {
  constexpr int64_t block = int64_t{1} << 16;
  const int64_t blocks = (n + block - 1) / block;
  std::vector<int64_t> start(static_cast<size_t>(blocks) + 1, 0);
#pragma omp parallel for schedule(static) if (blocks > 1)
  for (int64_t b = 0; b < blocks; ++b) {
    // Counted in a register: the blocks' counts share cache lines, and a store per vertex into them
    // (which the compiler must make when keep reads bytes, as they may alias) bounces the lines
    // between the threads (0.8 ms of a 4 ms search on 16 cores at kron:20).
    int64_t count = 0;
    for (int64_t v = b * block; v < std::min(n, (b + 1) * block); ++v) count += keep(v);
    start[static_cast<size_t>(b) + 1] = count;
  }
  for (int64_t b = 0; b < blocks; ++b) start[static_cast<size_t>(b) + 1] += start[static_cast<size_t>(b)];
  resize(static_cast<size_t>(start.back()));
#pragma omp parallel for schedule(static) if (blocks > 1)
  for (int64_t b = 0; b < blocks; ++b) {
    auto p = static_cast<size_t>(start[static_cast<size_t>(b)]);
    const auto end = static_cast<size_t>(start[static_cast<size_t>(b) + 1]);
    const int64_t first = b * block, last = std::min(n, (b + 1) * block);
    if (static_cast<int64_t>(end - p) * 16 < last - first) {  // few kept: a branch on keep mostly predicted
      for (int64_t v = first; v < last; ++v)
        if (keep(v)) put(p++, v);
    } else {
      // Every vertex is put at p, which moves on past kept ones only (the next vertex overwrites one
      // not kept), until the block's slots are full: no branch on keep, which a BFS's result (about
      // 60% of kron's vertices reached) would mispredict every few vertices.
      for (int64_t v = first; v < last && p < end; ++v) {
        put(p, v);
        p += keep(v) ? 1 : 0;
      }
    }
  }
}

// The vertices whose level is `at`, in order.
template <class L>
void vertices_at_level(const Array<L>& level, L at, Array<index_t>& out) {
  select_vertices(
      static_cast<int64_t>(level.size()), [&](int64_t v) { return level[static_cast<size_t>(v)] == at; },
      [&](size_t count) { out.resize(count); },  // uninitialized: every slot is written
      [&](size_t p, int64_t v) { out[p] = static_cast<index_t>(v); });
}

// The threads' parts of the next frontier, joined into `frontier` by all threads.
inline void join_parts(const std::vector<ThreadPart<std::vector<index_t>>>& parts, Array<index_t>& frontier) {
  std::vector<size_t> start(parts.size() + 1, 0);
  for (size_t t = 0; t < parts.size(); ++t) start[t + 1] = start[t] + parts[t].value.size();
  frontier.resize(start.back());  // uninitialized: every slot is copied below
#pragma omp parallel for schedule(static, 1) if (worth_threads(static_cast<int64_t>(start.back())))
  for (size_t t = 0; t < parts.size(); ++t)
    std::copy(parts[t].value.begin(), parts[t].value.end(), frontier.begin() + static_cast<std::ptrdiff_t>(start[t]));
}

// BFS with levels stored as L (uint8_t while depth fits, else int32_t); `unseen` marks open vertices.
// Returns false when a level would not fit in L (the caller retries with a wider type). Every array
// of n entries is first touched by the threads that use it.
template <class L, class TG>
bool bfs_levels_as(const Csr<TG>& G, const Csr<TG>& GT, int64_t source, const DirectionOptions& options,
                   Array<L>& level, TraversalStats& stats) {
  constexpr L unseen = std::numeric_limits<L>::max();
  const int64_t n = G.n_rows();
  level = Array<L>(static_cast<size_t>(n));
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t v = 0; v < n; ++v) level[static_cast<size_t>(v)] = unseen;
  level[static_cast<size_t>(source)] = 0;
  // The frontier is a list after a push step (and at the start), bits after a pull step: a pull
  // discovers into the next step's bits, so consecutive pulls build no list.
  Array<index_t> frontier(1, static_cast<index_t>(source));
  bool as_list = true;
  int64_t frontier_size = 1;
  FrontierBits current(n), next(n);
  DirectionChooser chooser(options);
  int64_t open_edges = G.nvals();
  const CsrView gv(G), gt(GT);
  // The frontier's out-edges, summed as its vertices are discovered (no pass of its own per level); its
  // in-edges leave the open edges. A symmetric graph reads one degree for both.
  int64_t frontier_edges = gv.degree(source);
  const bool one_degree = &G == &GT;
  const auto discovered = [&](index_t v, int64_t& in_edges, int64_t& out_edges) {
    const int64_t in = gt.degree(v);
    in_edges += in;
    out_edges += one_degree ? in : gv.degree(v);
  };
  stats = {};
  const int n_threads = omp_get_max_threads();
  std::vector<ThreadPart<std::vector<index_t>>> next_parts(static_cast<size_t>(n_threads));
  for (int64_t depth = 1; frontier_size > 0; ++depth) {
    if (depth >= static_cast<int64_t>(unseen)) return false;
    const L d = static_cast<L>(depth);
    const bool pull = chooser.pull(frontier_edges, open_edges, frontier_size, n);
    stats.searched_edges += frontier_edges;  // every reached vertex is in one frontier: halved by the caller
    int64_t examined = 0, discovered_edges = 0, next_frontier_edges = 0;
    if (pull) {
      if (as_list) current.set(frontier);
      int64_t found = 0;
#pragma omp parallel for schedule(dynamic, pull_chunk) \
    reduction(+ : examined, discovered_edges, next_frontier_edges, found)
      for (int64_t v = 0; v < n; ++v) {
        if (level[static_cast<size_t>(v)] != unseen) continue;
        // The in-edges up to the first from the frontier: a load and a bit test each, counted after.
        const offset_t first = gt.begin(v), last = gt.end(v);
        offset_t p = first;
        while (p < last && !current.test(gt.column(p))) ++p;
        examined += (p < last ? p + 1 : last) - first;
        if (p == last) continue;
        level[static_cast<size_t>(v)] = d;  // only this thread writes v
        next.set_in_own_word(static_cast<index_t>(v));
        ++found;
        discovered(static_cast<index_t>(v), discovered_edges, next_frontier_edges);
      }
      if (as_list) current.clear(frontier);
      else current.clear_all();
      std::swap(current, next);
      as_list = false;
      frontier_size = found;
      ++stats.pull_steps;
    } else {
      if (!as_list) {  // after a pull: the frontier's list from the levels
        vertices_at_level(level, static_cast<L>(depth - 1), frontier);
        current.clear_all();
        as_list = true;
      }
#pragma omp parallel num_threads(n_threads) reduction(+ : examined, discovered_edges, next_frontier_edges)
      {
        auto& mine = next_parts[static_cast<size_t>(omp_get_thread_num())].value;
        mine.clear();
#pragma omp for schedule(dynamic, 64)
        for (size_t f = 0; f < frontier.size(); ++f) {
          const index_t u = frontier[f];
          examined += gv.end(u) - gv.begin(u);
          for (offset_t p = gv.begin(u); p < gv.end(u); ++p) {
            const index_t v = gv.column(p);
            std::atomic_ref<L> slot(level[static_cast<size_t>(v)]);
            if (slot.load(std::memory_order_relaxed) != unseen) continue;
            L expected = unseen;
            if (slot.compare_exchange_strong(expected, d, std::memory_order_relaxed)) {
              mine.push_back(v);
              discovered(v, discovered_edges, next_frontier_edges);
            }
          }
        }
      }
      join_parts(next_parts, frontier);
      frontier_size = static_cast<int64_t>(frontier.size());
    }
    open_edges -= discovered_edges;
    frontier_edges = next_frontier_edges;
    stats.edges_examined += examined;
    ++stats.levels;
  }
  return true;
}

// The reached vertices' levels as a sparse vector, gathered by all threads.
template <class L>
Vector<int32_t> reached_levels(const Array<L>& level) {
  constexpr L unseen = std::numeric_limits<L>::max();
  Array<index_t> idx;
  Array<int32_t> val;
  select_vertices(
      static_cast<int64_t>(level.size()), [&](int64_t v) { return level[static_cast<size_t>(v)] != unseen; },
      [&](size_t count) { idx.resize(count), val.resize(count); },
      [&](size_t p, int64_t v) {
        idx[p] = static_cast<index_t>(v);
        val[p] = static_cast<int32_t>(level[static_cast<size_t>(v)]);
      });
  return Vector<int32_t>::sparse(static_cast<int64_t>(level.size()), std::move(idx), std::move(val));
}

// Combines `candidate` into `slot` by agg, with a compare-and-swap retried while agg still changes
// what another thread wrote meanwhile; returns whether the value changed, and the slot's value (the
// one written, or the one that agg kept) in `now`.
template <class S, class V>
bool improve(V& slot, V candidate, V& now) {
  std::atomic_ref<V> at(slot);
  V old = at.load(std::memory_order_relaxed);
  for (V better = S::agg(old, candidate); better != old; better = S::agg(old, candidate))
    if (at.compare_exchange_weak(old, better, std::memory_order_relaxed)) {
      now = better;
      return true;
    }
  now = old;
  return false;
}

// Relaxes u's out-edges from its value du: each edge's candidate combined into its head's value
// (improve); improved(v, now) for every head whose value changed, kept(v, now) for the others.
// Returns the number of edges read.
template <class S, class TG, class V, class Improved, class Kept>
int64_t relax_out_edges(const CsrView<TG> G, int64_t source, index_t u, V du, Array<V>& value, Improved&& improved,
                        Kept&& kept) {
  // The arrays taken into locals: the atomic updates and improved()'s writes would otherwise make
  // the compiler reload them on every edge.
  V* const values = value.data();
  const offset_t first = G.begin(u), last = G.end(u);
  for (offset_t p = first; p < last; ++p) {
    const index_t v = G.column(p);
    typename S::b_type w{};
    if constexpr (S::reads_values) w = convert_element<typename S::b_type>(G.value_at(p));
    V now{};
    if (improve<S>(values[static_cast<size_t>(v)], S::con(du, w, source, u, v), now)) improved(v, now);
    else kept(v, now);
  }
  return last - first;
}

// Single-source paths by delta-stepping (Meyer and Sanders; the layout of gapbs's sssp.cc) for a
// semiring whose agg is min and whose weights are all >= 0: vertices wait in buckets of width `delta`
// by their value, and the lowest non-empty bucket is relaxed next, each thread first relaxing what
// it put back into that bucket itself while that is small. A vertex waits with the value it was
// queued with and is relaxed only while that is still its value (each improvement queues it again
// with the lower value, and values only fall, so each queued value is relaxed at most once), and
// whatever con does (a candidate below the current bucket goes into it) the search ends at the fixed
// point of the relaxations, as the Bellman-Ford rounds do. One team runs the whole search, meeting
// twice per step: after relaxing (each thread names its lowest non-empty bucket and its size) and
// after copying its part of the next bucket into the shared frontier at its own offset. Returns
// whether every out-neighbour of a reached vertex was reached (as paths_are_exact checks; here from the
// relaxations: every reached vertex is relaxed with its last value, and a head that an edge left at
// zero() is looked at again in the end). Throws as the rounds do when one bucket takes more than n
// steps (values that keep improving).
template <class S, class TG>
bool delta_stepping(const Csr<TG>& G, int64_t source, typename S::value_type source_value, double delta,
                    Array<typename S::value_type>& value, TraversalStats& local) {
  const CsrView view(G);  // the relaxations read its arrays
  using V = typename S::value_type;
  struct Queued {
    index_t vertex;
    V value;  // the vertex's value when it was queued: stale once the value fell since
  };
  struct Bins {
    std::vector<std::vector<Queued>> bucket;  // this thread's queued vertices, by bucket
    std::vector<Queued> taken;                 // the bucket being relaxed by this thread alone
    std::vector<index_t> open;                 // heads an edge left at zero(): reached later, or not closed
    size_t lowest = 0;                         // after a step: its lowest non-empty bucket, or none
    size_t lowest_size = 0;
  };
  constexpr size_t none = std::numeric_limits<size_t>::max();
  const int64_t n = G.n_rows();
  constexpr size_t max_ahead = size_t{1} << 16;  // a farther bucket is taken as this one (relaxed early)
  constexpr size_t local_limit = 1000;            // a thread's own bucket smaller than this: relaxed at once
  const double per_width = 1 / delta;
  value[static_cast<size_t>(source)] = source_value;
  const int n_threads = omp_get_max_threads();
  std::vector<ThreadPart<Bins>> bins(static_cast<size_t>(n_threads));
  // The current bucket's vertices and the next one's, alternating; a buffer only grows (the first
  // `size` entries are the frontier's).
  Array<Queued> frontier[2] = {Array<Queued>(1, Queued{static_cast<index_t>(source), source_value}), Array<Queued>()};
  int64_t examined = 0, steps = 0;
  bool keeps_improving = false;
#pragma omp parallel num_threads(n_threads) reduction(+ : examined)
  {
    Bins& mine = bins[static_cast<size_t>(omp_get_thread_num())].value;
    // Every thread holds the same: the bucket, the frontier's size and the buffers' sizes (read here,
    // not from the buffers, which one thread may be replacing meanwhile).
    size_t current = 0, size = 1, held[2] = {1, 0}, step = 0;
    int64_t steps_in_bucket = 0;
    bool improving = false;
    const auto bucket_of = [&](V v) {
      const double at = (static_cast<double>(v) - static_cast<double>(source_value)) * per_width;
      if (!(at >= static_cast<double>(current))) return current;  // below (or NaN): this bucket
      return at >= static_cast<double>(current + max_ahead) ? current + max_ahead : static_cast<size_t>(at);
    };
    const auto relax = [&](const Queued& q) {
      const V du = std::atomic_ref<V>(value[static_cast<size_t>(q.vertex)]).load(std::memory_order_relaxed);
      if (!(du == q.value)) return;  // improved since: queued again with the lower value
      examined += relax_out_edges<S>(
          view, source, q.vertex, du, value,
          [&](index_t v, V now) {
            const size_t b = bucket_of(now);
            if (b >= mine.bucket.size()) mine.bucket.resize(b + 1);
            mine.bucket[b].push_back(Queued{v, now});
          },
          [&](index_t v, V now) {
            if (now == S::zero()) mine.open.push_back(v);
          });
    };
    for (;; ++step) {
      const Queued* now = frontier[step & 1].data();
#pragma omp for schedule(dynamic, 64) nowait
      for (size_t f = 0; f < size; ++f) relax(now[f]);
      while (current < mine.bucket.size() && !mine.bucket[current].empty() &&
             mine.bucket[current].size() < local_limit) {
        mine.taken.swap(mine.bucket[current]);
        for (const Queued& q : mine.taken) relax(q);
        mine.taken.clear();
      }
      mine.lowest = none;
      for (size_t b = current; b < mine.bucket.size(); ++b)
        if (!mine.bucket[b].empty()) {
          mine.lowest = b, mine.lowest_size = mine.bucket[b].size();
          break;
        }
#pragma omp barrier
      size_t next = none, offset = 0, next_size = 0;
      for (const auto& part : bins) next = std::min(next, part.value.lowest);
      if (next == none) break;
      if (next != current) steps_in_bucket = 0;
      if (++steps_in_bucket > n) {
        improving = true;  // every thread sees it and leaves
        break;
      }
      for (int t = 0; t < n_threads; ++t) {
        const Bins& part = bins[static_cast<size_t>(t)].value;
        if (part.lowest != next) continue;
        if (t < omp_get_thread_num()) offset += part.lowest_size;
        next_size += part.lowest_size;
      }
      Array<Queued>& upcoming = frontier[(step + 1) & 1];  // no thread reads it since the last meeting
      if (size_t& capacity = held[(step + 1) & 1]; capacity < next_size) {
        capacity = std::max(next_size, 2 * capacity);
#pragma omp single
        Array<Queued>(capacity).swap(upcoming);  // uninitialized: each thread copies its part
      }
      if (mine.lowest == next) {
        std::copy(mine.bucket[next].begin(), mine.bucket[next].end(), upcoming.begin() + static_cast<std::ptrdiff_t>(offset));
        mine.bucket[next].clear();
      }
      current = next, size = next_size;
#pragma omp barrier
    }
#pragma omp master
    steps = static_cast<int64_t>(step) + 1, keeps_improving = improving;
  }
  local.levels += steps;
  local.edges_examined += examined;
  if (keeps_improving)
    throw Error(ErrorKind::usage, "single_source_paths: values keep improving after n rounds (a cycle improves "
                                  "every path through it)");
  for (const auto& part : bins)
    for (const index_t v : part.value.open)
      if (v != source && value[static_cast<size_t>(v)] == S::zero()) return false;
  return true;
}

// The bucket width for delta_stepping, or 0 when it does not apply: agg must be min, and every weight
// a number >= 0, and the source's value finite. The width is the mean weight over 32 (1 when every
// weight is 0 or the graph has none): on kron:20 with weights 1..255 (width 4) that relaxes each edge
// about once in some 130 steps; gapbs runs such graphs with a width of 2.
template <class S, class TG>
double delta_stepping_width(const Csr<TG>& G, typename S::value_type source_value) {
  using V = typename S::value_type;
  if constexpr (S::monoid != Monoid::min || !std::is_arithmetic_v<V> || std::is_same_v<V, bool>) {
    return 0;
  } else {
    if (!(static_cast<double>(source_value) == static_cast<double>(source_value)) ||
        std::abs(static_cast<double>(source_value)) == std::numeric_limits<double>::infinity())
      return 0;
    if (G.nvals() == 0) return 1;
    if constexpr (!S::reads_values) {
      return 1;
    } else {
      const auto& values = G.values();
      if (values.empty()) return 1;  // a graph without values: every weight is 1
      // The weights' sum and count of bad ones (negative, NaN, inf), kept with the graph's contents:
      // every source of a run reads the same.
      using B = typename S::b_type;
      struct WeightTotals {
        double sum = 0;
        int64_t bad = 0;
      };
      const auto [sum, bad] = G.derived().template get<WeightTotals>("delta-stepping weights", [&] {
        double total = 0;
        int64_t wrong = 0;
#pragma omp parallel for reduction(+ : total, wrong) schedule(static)
        for (size_t p = 0; p < values.size(); ++p) {
          const double w = static_cast<double>(convert_element<B>(G.value_at(static_cast<offset_t>(p))));
          if (!(w >= 0) || w == std::numeric_limits<double>::infinity()) ++wrong;
          else total += w;
        }
        return WeightTotals{total, wrong};
      });
      if (bad) return 0;
      const double width = sum / static_cast<double>(values.size()) / 32;
      return width > 0 ? width : 1;
    }
  }
}

// The reached vertices (those with reached(v)) and their values as a sparse vector, selected by all threads.
template <class V, class Reached>
Vector<V> collect_paths(int64_t n, const Array<V>& value, Reached&& reached, const TraversalStats& local,
                        TraversalStats* stats) {
  Array<index_t> idx;
  Array<storage_t<V>> val;
  select_vertices(
      n, reached,
      [&](size_t count) { idx.resize(count), val.resize(count); },
      [&](size_t p, int64_t v) {
        idx[p] = static_cast<index_t>(v);
        val[p] = value[static_cast<size_t>(v)];
      });
  if (stats) *stats = local;
  return Vector<V>::sparse(n, std::move(idx), std::move(val));
}

}  // namespace detail

// BFS levels from `source`: a sparse vector with the level (0 at the source) of every reached
// vertex. GT is the transpose of G (G itself for a symmetric graph), read by pull steps. Levels are
// kept as bytes while the depth stays below 255 and as int32 beyond (the search reruns then).
template <class TG>
Vector<int32_t> bfs_levels(const Csr<TG>& G, const Csr<TG>& GT, int64_t source, const DirectionOptions& options = {},
                           TraversalStats* stats = nullptr) {
  if (G.n_rows() != G.n_cols() || GT.n_rows() != G.n_rows() || GT.n_cols() != G.n_cols() || GT.nvals() != G.nvals())
    throw Error(ErrorKind::usage, "bfs: the graph must be square and GT its transpose");
  detail::check_source(G.n_rows(), source, "bfs");
  TraversalStats local;
  Vector<int32_t> levels;
  Array<uint8_t> narrow;
  if (detail::bfs_levels_as(G, GT, source, options, narrow, local)) {
    levels = detail::reached_levels(narrow);
  } else {
    narrow = {};
    Array<int32_t> wide;
    detail::bfs_levels_as(G, GT, source, options, wide, local);
    levels = detail::reached_levels(wide);
  }
  if (G.derived().symmetric()) local.searched_edges /= 2;
  if (stats) *stats = local;
  return levels;
}

// Whether no weight of G is negative or NaN, checked on every thread and kept with the graph's contents.
template <class TG>
bool weights_non_negative(const Csr<TG>& G) {
  struct WeightsNonNegative {
    bool holds = false;
  };
  return G.derived()
      .template get<WeightsNonNegative>("weights non-negative",
                                        [&] {
                                          using W = storage_t<TG>;
                                          const auto values = G.values();
                                          bool holds = true;
                                          if constexpr (!std::is_unsigned_v<W> && !std::is_same_v<W, bool>) {
#pragma omp parallel for reduction(&& : holds) schedule(static) if (worth_threads(static_cast<int64_t>(values.size())))
                                            for (size_t p = 0; p < values.size(); ++p)
                                              holds = holds && values[p] >= W{0};  // NaN fails too
                                          }
                                          return WeightsNonNegative{holds};
                                        })
      .holds;
}

// Whether single_source_paths's result is the relaxation loop's it stands for (a recognized
// Bellman-Ford loop, docs/language.md): with no weight negative or NaN the loop reaches the same fixed
// point, and it keeps every reachable vertex, so every out-neighbour of a reached vertex must be
// reached (the traversal leaves out a vertex whose every path sums to infinity). Both checks run on
// every thread.
template <class TG, class V>
bool paths_are_exact(const Csr<TG>& G, const Vector<V>& paths) {
  if (!weights_non_negative(G)) return false;
  const int64_t n = G.n_rows();
  Array<uint8_t> reached(static_cast<size_t>(n));
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t v = 0; v < n; ++v) reached[static_cast<size_t>(v)] = 0;
  const auto at = paths.indices();
  const auto count = static_cast<int64_t>(paths.is_dense() ? n : static_cast<int64_t>(at.size()));
  const auto vertex = [&](int64_t p) { return paths.is_dense() ? p : static_cast<int64_t>(at[static_cast<size_t>(p)]); };
#pragma omp parallel for schedule(static) if (worth_threads(count))
  for (int64_t p = 0; p < count; ++p) reached[static_cast<size_t>(vertex(p))] = 1;
  bool closed = true;
  const CsrView gv(G);
#pragma omp parallel for reduction(&& : closed) schedule(dynamic, 1024) if (worth_threads(G.nvals()))
  for (int64_t p = 0; p < count; ++p) {
    const auto u = vertex(p);
    for (offset_t q = gv.begin(u); closed && q < gv.end(u); ++q)
      closed = reached[static_cast<size_t>(gv.column(q))] != 0;
  }
  return closed;
}

// Single-source paths over a selective semiring S (agg picks one of its operands: min_plus,
// max_min, max_times...): by delta-stepping when agg is min and no weight is negative (above), else
// Bellman-Ford style: each round relaxes the out-edges of the vertices whose value changed in the
// previous round, with an atomic compare-and-swap per improvement. Both reach the same fixed point.
// Returns the reached vertices and their values (the source holds `source_value`), and in `exact`,
// when given, paths_are_exact's answer (delta-stepping finds its part of it as it relaxes, without a
// pass over the graph). Throws when more than n rounds run (a cycle that keeps improving, e.g. a
// negative cycle under min_plus).
template <class S, class TG>
Vector<typename S::value_type> single_source_paths(const Csr<TG>& G, int64_t source,
                                                   typename S::value_type source_value,
                                                   TraversalStats* stats = nullptr, bool* exact = nullptr) {
  const CsrView view(G);  // the relaxations read its arrays
  using V = typename S::value_type;
  static_assert(!std::is_same_v<V, bool>, "single_source_paths: use bfs_levels for reachability");
  const int64_t n = G.n_rows();
  if (G.n_cols() != n) throw Error(ErrorKind::usage, "single_source_paths: the graph must be square");
  detail::check_source(n, source, "single_source_paths");
  Array<V> value = detail::filled<V>(n, S::zero());
  TraversalStats local;
  if (const double delta = detail::delta_stepping_width<S>(G, source_value); delta > 0) {
    const bool closed = detail::delta_stepping<S>(G, source, source_value, delta, value, local);
    if (exact) *exact = closed && weights_non_negative(G);
    // agg is min: a value changes only downwards, so a vertex was reached when its value left zero().
    return detail::collect_paths<V>(
        n, value, [&](int64_t v) { return v == source || !(value[static_cast<size_t>(v)] == S::zero()); }, local, stats);
  }
  Array<uint8_t> reached = detail::filled<uint8_t>(n, 0), queued = detail::filled<uint8_t>(n, 0);
  value[static_cast<size_t>(source)] = source_value;
  reached[static_cast<size_t>(source)] = 1;
  std::vector<index_t> frontier{static_cast<index_t>(source)};
  const int n_threads = omp_get_max_threads();
  std::vector<ThreadPart<std::vector<index_t>>> next_parts(static_cast<size_t>(n_threads));
  while (!frontier.empty()) {
    if (local.levels++ > n)
      throw Error(ErrorKind::usage, "single_source_paths: values keep improving after n rounds (a cycle improves "
                                    "every path through it)");
    int64_t examined = 0;
#pragma omp parallel num_threads(n_threads) reduction(+ : examined)
    {
      auto& mine = next_parts[static_cast<size_t>(omp_get_thread_num())].value;
      mine.clear();
#pragma omp for schedule(dynamic, 64)
      for (size_t f = 0; f < frontier.size(); ++f) {
        const index_t u = frontier[f];
        const V du = std::atomic_ref<V>(value[static_cast<size_t>(u)]).load(std::memory_order_relaxed);
        // zero() is agg's identity, so an unreached vertex needs no special case.
        examined += detail::relax_out_edges<S>(
            view, source, u, du, value,
            [&](index_t v, V) {
              std::atomic_ref<uint8_t>(reached[static_cast<size_t>(v)]).store(1, std::memory_order_relaxed);
              std::atomic_ref<uint8_t> q(queued[static_cast<size_t>(v)]);
              uint8_t no = 0;
              if (q.compare_exchange_strong(no, 1)) mine.push_back(v);
            },
            [](index_t, V) {});
      }
    }
    local.edges_examined += examined;
    frontier.clear();
    for (auto& part : next_parts) frontier.insert(frontier.end(), part.value.begin(), part.value.end());
    for (index_t v : frontier) queued[static_cast<size_t>(v)] = 0;
  }
  auto paths = detail::collect_paths<V>(
      n, value, [&](int64_t v) { return reached[static_cast<size_t>(v)] != 0; }, local, stats);
  if (exact) *exact = paths_are_exact(G, paths);
  return paths;
}

}  // namespace gql::cpu
