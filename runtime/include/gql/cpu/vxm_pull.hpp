// The pull side of w<mask> = v * G: every open column j folds con over its in-edges (row j of G's
// transpose) whose source k is in the frontier v, in order of k, stopping early once the entry is
// settled (any / terminal).
//
// The presence test per in-edge is skipped when the frontier covers its edges: every source of an
// edge holds an entry (a dense v, or PageRank's shares, present wherever a vertex has out-edges). Then
// every in-edge's source is present and j has an entry exactly when it has in-edges. The fold starts
// from its first product instead of carrying a "found" flag, so the results are those of the same
// products and aggs in the same order either way. Without a mask such a result's entries are the
// columns with in-edges, so each block of columns writes them at a place known beforehand.
//
// A pull may gather a range of columns only (ColumnRange): the distributed ops give each rank one
// (gql/dist/vxm.hpp) and join the ranges' entries, which are the whole pull's, in order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gql/cpu/accumulator_bitmap.hpp"
#include "gql/cpu/accumulator_policy.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/cpu/sparse_parts.hpp"
#include "gql/graph.hpp"

namespace gql::cpu::detail {

// For each block of column_block rows of G, how many rows with entries come before it (and, last, in
// all): counted once per graph contents (gql/derived.hpp).
template <class TG>
const std::vector<int64_t>& row_block_starts(const Csr<TG>& G) {
  return G.derived().template get<std::vector<int64_t>>("rows with entries before each block", [&] {
    const int64_t n = G.n_rows();
    const int64_t blocks = (n + column_block - 1) / column_block;
    std::vector<int64_t> starts(static_cast<size_t>(blocks) + 1, 0);
    const CsrView gv(G);
#pragma omp parallel for schedule(static) if (worth_threads(n))
    for (int64_t b = 0; b < blocks; ++b) {
      int64_t count = 0;  // in a register: the blocks' counts share cache lines
      for (int64_t k = b * column_block; k < std::min(n, (b + 1) * column_block); ++k) count += gv.degree(k) > 0;
      starts[static_cast<size_t>(b) + 1] = count;
    }
    for (size_t b = 0; b < static_cast<size_t>(blocks); ++b) starts[b + 1] += starts[b];
    return starts;
  });
}

// Columns [begin, end) of a pull; `all` of n columns by default.
struct ColumnRange {
  int64_t begin = 0, end = 0;
  static ColumnRange all(int64_t n) noexcept { return {0, n}; }
  int64_t size() const noexcept { return end - begin; }
  // The blocks of column_block columns that hold the range's columns, and block b's share of them.
  int64_t first_block() const noexcept { return begin / column_block; }
  int64_t last_block() const noexcept { return (end + column_block - 1) / column_block; }
  int64_t block_begin(int64_t b) const noexcept { return std::max(begin, b * column_block); }
  int64_t block_end(int64_t b) const noexcept { return std::min(end, (b + 1) * column_block); }
};

// How many rows of G with entries come before row j.
template <class TG>
int64_t rows_with_entries_before(const Csr<TG>& G, int64_t j) {
  const int64_t b = j / column_block;
  int64_t count = row_block_starts(G)[static_cast<size_t>(b)];
  const CsrView gv(G);
  for (int64_t k = b * column_block; k < j; ++k) count += gv.degree(k) > 0;
  return count;
}

// The frontier as the pull reads it: a value per index (a dense vector's own storage, else its
// entries spread over n slots, of which only the present are written and read) and, unless it covers
// its edges, a bit per index saying which are present.
template <class TV>
class PullFrontier {
 public:
  // `out_edges` (G's rows, may be null) tells which sources have edges; without it only a dense v
  // is known to cover them.
  template <class TG>
  PullFrontier(const Vector<TV>& v, const Csr<TG>* out_edges) : n_(v.size()) {
    if (v.is_dense()) {
      values_ = v.values();
      covers_ = true;
      edges_ = out_edges ? out_edges->nvals() : -1;
      return;
    }
    const auto idx = v.indices();
    const auto val = v.values();
    const auto entries = static_cast<int64_t>(idx.size());
    slots_.resize(static_cast<size_t>(n_));
    int64_t sources = 0, edges = 0;  // entries whose row of G has edges, and those edges
    const std::optional<CsrView<TG>> gv = out_edges ? std::optional<CsrView<TG>>(*out_edges) : std::nullopt;
    // Chunks taken as threads come free, as for the element-wise ops (elementwise.hpp).
#pragma omp parallel for reduction(+ : sources, edges) schedule(dynamic, 16384) if (worth_threads(entries))
    for (int64_t p = 0; p < entries; ++p) {
      const index_t k = idx[static_cast<size_t>(p)];
      slots_[static_cast<size_t>(k)] = val[static_cast<size_t>(p)];
      if (gv) {
        const int64_t degree = gv->degree(k);
        sources += degree > 0;
        edges += degree;
      }
    }
    values_ = slots_;
    edges_ = out_edges ? edges : -1;
    covers_ = out_edges && sources == row_block_starts(*out_edges).back();  // distinct indices: counts suffice
    if (!covers_) mark_present(idx);
  }

  PullFrontier(const PullFrontier&) = delete;  // values_ may point into slots_
  PullFrontier& operator=(const PullFrontier&) = delete;

  bool covers() const noexcept { return covers_; }
  // The out-edges of the entries (-1 without G's rows).
  int64_t edges() const noexcept { return edges_; }
  bool present(index_t k) const noexcept { return bits_->test(k); }  // only when !covers()
  storage_t<TV> value(index_t k) const noexcept { return values_[static_cast<size_t>(k)]; }

 private:
  // The entries' bits, set by ranges of words: each range's entries found by binary search in the
  // sorted indices, so no two threads write one word.
  void mark_present(std::span<const index_t> idx) {
    bits_.emplace(n_);
    uint64_t* words = bits_->words();
    constexpr int64_t words_per_range = 1024;
    const auto n_words = static_cast<int64_t>(bits_->word_count());
    const int64_t ranges = (n_words + words_per_range - 1) / words_per_range;
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(idx.size())))
    for (int64_t r = 0; r < ranges; ++r) {
      const auto first = static_cast<index_t>(r * words_per_range * 64);
      const auto last = static_cast<index_t>(std::min(n_, (r + 1) * words_per_range * 64));
      for (auto it = std::lower_bound(idx.begin(), idx.end(), first); it != idx.end() && *it < last; ++it)
        words[static_cast<size_t>(*it) >> 6] |= uint64_t{1} << (*it & 63);
    }
  }

  int64_t n_;
  int64_t edges_ = -1;
  bool covers_ = false;
  Array<storage_t<TV>> slots_;
  std::span<const storage_t<TV>> values_;
  std::optional<ColumnBitmap> bits_;
};

// Column j's entry of v * G into acc, folded over its in-edges (row j of GT) from the frontier;
// false when no in-edge comes from it. Covers: every in-edge's source is in the frontier.
template <class S, bool Covers, class TV, class TG>
bool fold_column(const PullFrontier<TV>& frontier, const CsrView<TG>& GT, int64_t j, typename S::value_type& acc) {
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  const offset_t* offsets = GT.offsets;
  const index_t* sources = GT.columns;
  const auto con_at = [&](offset_t p) {
    const index_t k = sources[p];
    a_type a{};
    b_type g{};
    if constexpr (S::reads_values) {
      a = convert_element<a_type>(static_cast<TV>(frontier.value(k)));
      g = convert_element<b_type>(GT.value_at(p));
    }
    return S::con(a, g, 0, k, j);
  };
  offset_t p = offsets[j];
  const offset_t end = offsets[j + 1];
  if constexpr (!Covers)
    while (p < end && !frontier.present(sources[p])) ++p;
  if (p == end) return false;
  acc = con_at(p);
  for (++p; p < end; ++p) {
    if constexpr (can_settle<S>) {
      if (settled<S>(acc)) break;
    }
    if constexpr (!Covers) {
      if (!frontier.present(sources[p])) continue;
    }
    acc = S::agg(acc, con_at(p));
  }
  return true;
}

// w<mask> = v * G by pull over GT (the rows of G's transpose) from v's frontier: the entries of the
// columns in `range`.
template <class S, class TV, class TG>
Vector<typename S::value_type> pull_product(const PullFrontier<TV>& frontier, const Csr<TG>& GT,
                                            const VectorMask& mask, ColumnRange range) {
  using V = typename S::value_type;
  const int64_t n = GT.n_rows();
  const int64_t first = range.first_block(), blocks = range.last_block() - first;
  const CsrView gt(GT);
  const auto fold = [&]<bool Covers>(int64_t j, V& acc) { return fold_column<S, Covers>(frontier, gt, j, acc); };

  if (frontier.covers() && !mask.active()) {
    // Every column with in-edges has an entry, so each block's entries start at a place counted
    // beforehand (once per graph) and are written there: nothing to join. A block first lists its
    // columns with in-edges, without a branch on each, then folds them: which columns have none
    // follows no pattern (a third of kron's), and where the first term settles an entry (G * every
    // over own_id, std/components.gql's start) a mispredicted branch cost more than the fold.
    const auto& starts = row_block_starts(GT);
    const int64_t before = rows_with_entries_before(GT, range.begin);
    const auto place = [&](int64_t b) {  // where block b's entries start in the result
      return static_cast<size_t>((b == first ? before : starts[static_cast<size_t>(b)]) - before);
    };
    Array<index_t> idx(static_cast<size_t>(rows_with_entries_before(GT, range.end) - before));
    Array<storage_t<V>> val(idx.size());
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads(GT.nvals()))
    for (int64_t b = first; b < first + blocks; ++b) {
      const size_t begin = place(b), end = b + 1 == first + blocks ? idx.size() : place(b + 1);
      // While at < end a column with in-edges is still ahead in the block, so j stays in it and
      // nothing is written past the block's entries (the next block's, another thread's).
      auto j = static_cast<index_t>(range.block_begin(b));
      for (size_t at = begin; at < end; ++j) {
        idx[at] = j;
        at += gt.degree(j) > 0;
      }
      for (size_t at = begin; at < end; ++at) {
        V acc{};  // set: the column has in-edges
        fold.template operator()<true>(idx[at], acc);
        val[at] = acc;
      }
    }
    return Vector<V>::sparse(n, std::move(idx), std::move(val));
  }

  SparseParts<V> parts(blocks);
  const auto gather = [&]<bool Covers>() {
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads(GT.nvals()))
    for (int64_t b = first; b < first + blocks; ++b) {
      const auto part = static_cast<size_t>(b - first);
      for (int64_t j = range.block_begin(b); j < range.block_end(b); ++j) {
        V acc;
        if (!mask.allows(j) || !fold.template operator()<Covers>(j, acc)) continue;
        parts.indices[part].push_back(static_cast<index_t>(j));
        parts.values[part].push_back(acc);
      }
    }
  };
  if (frontier.covers()) gather.template operator()<true>();
  else gather.template operator()<false>();
  return parts.concatenate(n);
}

// The pull merged into a dense result at once (a union with a dense vector that only read the
// product, fused by the compiler): out[j - range.begin] = both(j, acc) where column j of `range`
// gathers an entry, only(j) elsewhere. No mask: the fused product has none.
template <class S, class R, class TV, class TG, class Both, class Only>
Array<storage_t<R>> pull_into_dense(const PullFrontier<TV>& frontier, const Csr<TG>& GT, ColumnRange range,
                                    Both&& both, Only&& only) {
  using V = typename S::value_type;
  Array<storage_t<R>> out(static_cast<size_t>(range.size()));
  const CsrView gt(GT);
  const auto fill = [&]<bool Covers>() {
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads(GT.nvals()))
    for (int64_t b = range.first_block(); b < range.last_block(); ++b) {
      for (int64_t j = range.block_begin(b); j < range.block_end(b); ++j) {
        V acc;
        out[static_cast<size_t>(j - range.begin)] = fold_column<S, Covers>(frontier, gt, j, acc)
                                                        ? both(static_cast<size_t>(j), acc)
                                                        : only(static_cast<size_t>(j));
      }
    }
  };
  if (frontier.covers()) fill.template operator()<true>();
  else fill.template operator()<false>();
  return out;
}

}  // namespace gql::cpu::detail
