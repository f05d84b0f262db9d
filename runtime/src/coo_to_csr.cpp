// EdgeList -> Csr: a parallel counting scatter by row, then per-row sorts by (column, file order), then
// one combining pass per row. Ordering by file position (not by arrival in the scatter) is what makes
// `first` and floating-point `sum` give the same bits for any thread count.
#include <algorithm>
#include <atomic>
#include <limits>
#include <numeric>
#include <optional>
#include <type_traits>

#include "build_pattern.hpp"
#include "element_types.hpp"
#include "gql/edge_list.hpp"
#include "gql/host_memory.hpp"

namespace gql {
namespace {

// An entry in its row's bucket. The value travels with it, so combining reads the buckets in order
// instead of gathering values from the whole edge list.
template <class T, bool = stores_values<T>>
struct Slot {
  index_t col;
  storage_t<T> value;
  uint64_t pos;  // position in the edge list
};
template <class T>
struct Slot<T, false> {
  index_t col;
  uint64_t pos;
};

// The first error of a parallel pass, by row, so the message does not depend on scheduling.
struct FirstError {
  int64_t row = std::numeric_limits<int64_t>::max();
  std::optional<Error> error;
  void offer(int64_t r, Error e) {
#pragma omp critical(gql_build_csr_error)
    if (r < row) {
      row = r;
      error.emplace(std::move(e));
    }
  }
};

template <class T>
bool add_checked(T a, T b, T& out) {
  if constexpr (std::is_integral_v<T>) {
    return !__builtin_add_overflow(a, b, &out);
  } else {
    out = a + b;
    return true;
  }
}

template <class T>
struct BuildResult {
  Csr<T> csr;
  std::vector<uint64_t> first_key;  // per output entry, the order key of its first source entry
};

// One scatter-sort-combine pass. `order` (optional) gives each entry's order key; by default its position.
// `agree` is the symmetrize pass of Duplicates::error: equal values may meet, different ones may not.
template <class T>
BuildResult<T> build_pass(const EdgeList<T>& in, const std::vector<uint64_t>& order, bool drop_loops,
                          Duplicates policy, bool agree, bool want_keys, const std::string& source) {
  const int64_t n = in.n_rows;
  const int64_t m = static_cast<int64_t>(in.rows.size());
  const auto key = [&](uint64_t pos) { return order.empty() ? pos : order[pos]; };

  std::vector<offset_t> offsets(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    if (drop_loops && in.rows[e] == in.cols[e]) continue;
    std::atomic_ref<offset_t>(offsets[in.rows[e] + 1]).fetch_add(1, std::memory_order_relaxed);
  }
  std::inclusive_scan(offsets.begin(), offsets.end(), offsets.begin());

  std::vector<offset_t> cursor(offsets.begin(), offsets.end() - 1);
  std::vector<Slot<T>> slots(static_cast<size_t>(offsets.back()));
#pragma omp parallel for schedule(static)
  for (int64_t e = 0; e < m; ++e) {
    if (drop_loops && in.rows[e] == in.cols[e]) continue;
    const offset_t p = std::atomic_ref<offset_t>(cursor[in.rows[e]]).fetch_add(1, std::memory_order_relaxed);
    if constexpr (stores_values<T>) slots[p] = {in.cols[e], in.values[e], static_cast<uint64_t>(e)};
    else slots[p] = {in.cols[e], static_cast<uint64_t>(e)};
  }
  cursor = {};

  Array<offset_t> out_offsets(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 512)
  for (int64_t r = 0; r < n; ++r) {
    auto* b = slots.data() + offsets[r];
    auto* e = slots.data() + offsets[r + 1];
    std::sort(b, e, [&](const Slot<T>& x, const Slot<T>& y) {
      return x.col != y.col ? x.col < y.col : key(x.pos) < key(y.pos);
    });
    offset_t unique = 0;
    for (auto* s = b; s != e; ++s) unique += (s == b || s->col != (s - 1)->col);
    out_offsets[r + 1] = unique;
  }
  std::inclusive_scan(out_offsets.begin(), out_offsets.end(), out_offsets.begin());

  const auto total = static_cast<size_t>(out_offsets.back());
  Array<index_t> out_cols(total);  // every entry written below
  Array<storage_t<T>> out_values(stores_values<T> ? total : 0);
  std::vector<uint64_t> first_key(want_keys ? total : 0);
  FirstError failure;
  const auto line_of = [&](uint64_t pos) { return in.lines.empty() ? int64_t{0} : in.lines[pos]; };
  const auto pair_text = [&](int64_t r, index_t c) {
    return "(" + std::to_string(r + in.index_base) + ", " + std::to_string(int64_t{c} + in.index_base) + ")";
  };

#pragma omp parallel for schedule(dynamic, 512)
  for (int64_t r = 0; r < n; ++r) {
    offset_t q = out_offsets[r];
    for (offset_t g = offsets[r]; g < offsets[r + 1]; ++q) {
      offset_t g_end = g + 1;
      while (g_end < offsets[r + 1] && slots[g_end].col == slots[g].col) ++g_end;
      const Slot<T>& head = slots[g];
      out_cols[q] = head.col;
      if (want_keys) first_key[q] = key(head.pos);
      if (g_end - g > 1 && policy == Duplicates::error && !agree) {
        const Slot<T>& second = slots[g + 1];
        std::string reason = "duplicate entry " + pair_text(r, head.col);
        if (line_of(head.pos) > 0) reason += " (first on line " + std::to_string(line_of(head.pos)) + ")";
        failure.offer(r, Error(ErrorKind::io, reason, {source, line_of(second.pos)}));
      }
      if constexpr (stores_values<T>) {
        T v = head.value;
        for (offset_t s = g + 1; s < g_end; ++s) {
          const T x = slots[s].value;
          switch (policy) {
            case Duplicates::first: break;
            case Duplicates::min: v = std::min(v, x); break;
            case Duplicates::max: v = std::max(v, x); break;
            case Duplicates::sum:
              if (!add_checked(v, x, v))
                failure.offer(r, Error(ErrorKind::io,
                                       "sum of duplicate entries " + pair_text(r, head.col) +
                                           " does not fit the element type",
                                       {source, line_of(slots[s].pos)}));
              break;
            case Duplicates::error:
              if (agree && !(x == v))
                failure.offer(r, Error(ErrorKind::io,
                                       "symmetrize: entries " + pair_text(r, head.col) + " and " +
                                           pair_text(head.col, static_cast<index_t>(r)) + " have different values",
                                       {source, line_of(slots[s].pos)}));
              break;
          }
        }
        out_values[q] = v;
      }
      g = g_end;
    }
  }
  if (failure.error) throw *failure.error;
  return {Csr<T>(n, in.n_cols, std::move(out_offsets), std::move(out_cols), std::move(out_values)),
          std::move(first_key)};
}

}  // namespace

template <class T>
Csr<T> build_csr(EdgeList<T>&& edges, const ReadOptions& options, const std::string& source) {
  // A header may declare 2^31 vertices over a body of a few bytes: their row offsets alone are 16 GiB,
  // and a pass holds two arrays of them at once (the symmetric pass three, with the first result).
  check_host_allocation(bytes_for(static_cast<uint64_t>(edges.n_rows) + 1, sizeof(offset_t) * (options.symmetrize ? 3 : 2)),
                        "a graph of " + std::to_string(edges.n_rows) + " rows", source);
  const bool drop_loops = options.self_loops == SelfLoops::drop;
  if constexpr (!stores_values<T>) {
    if (options.duplicates != Duplicates::error && (!options.symmetrize || edges.n_rows == edges.n_cols)) {
      detail::PatternCsr built = detail::build_pattern(edges.n_rows, edges.n_cols, std::move(edges.rows),
                                                       std::move(edges.cols), drop_loops, options.symmetrize);
      Csr<T> pattern(edges.n_rows, edges.n_cols, std::move(built.row_offsets), std::move(built.col_indices));
      edges = {};
      if (options.symmetrize) pattern.derived().mark_symmetric();  // pull steps over it need no transpose
      return pattern;
    }
  }
  if (!options.symmetrize)
    return build_pass<T>(edges, {}, drop_loops, options.duplicates, false, false, source).csr;
  if (edges.n_rows != edges.n_cols)
    throw Error(ErrorKind::io,
                "symmetrize needs a square matrix, not " + std::to_string(edges.n_rows) + " x " +
                    std::to_string(edges.n_cols),
                {source});

  // Combine the stored entries first; then add the mirror of every off-diagonal entry, keeping its
  // file order, and combine again so that a pair stored both ways gets one value in both directions.
  BuildResult<T> once = build_pass<T>(edges, {}, drop_loops, options.duplicates, false, true, source);
  const Csr<T>& a = once.csr;
  EdgeList<T> both;
  both.n_rows = both.n_cols = edges.n_rows;
  both.index_base = edges.index_base;
  std::vector<uint64_t> order;
  const size_t reserve = static_cast<size_t>(2 * a.nvals());
  both.rows.reserve(reserve);
  both.cols.reserve(reserve);
  order.reserve(reserve);
  if constexpr (stores_values<T>) both.values.reserve(reserve);
  const bool with_lines = !edges.lines.empty();
  for (int64_t r = 0; r < a.n_rows(); ++r) {
    for (offset_t p = a.row_offsets()[r]; p < a.row_offsets()[r + 1]; ++p) {
      const index_t c = a.col_indices()[p];
      const uint64_t key = once.first_key[p];
      const int copies = c == r ? 1 : 2;
      for (int k = 0; k < copies; ++k) {
        both.rows.push_back(k == 0 ? static_cast<index_t>(r) : c);
        both.cols.push_back(k == 0 ? c : static_cast<index_t>(r));
        order.push_back(key);
        if constexpr (stores_values<T>) both.values.push_back(a.values()[p]);
        if (with_lines) both.lines.push_back(edges.lines[key]);
      }
    }
  }
  edges = {};
  Csr<T> symmetric = build_pass<T>(both, order, false, options.duplicates, true, false, source).csr;
  symmetric.derived().mark_symmetric();  // pull steps over it need no transpose
  return symmetric;
}

#define GQL_INSTANTIATE(T) template Csr<T> build_csr<T>(EdgeList<T>&&, const ReadOptions&, const std::string&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql
