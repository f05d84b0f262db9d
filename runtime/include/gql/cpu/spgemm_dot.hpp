// C<M> = A * B over S driven by the mask (GraphBLAS's "dot3" method): each entry (i, j) of a plain
// structural mask M is the join of A's row i with B's column j, read as row j of B's transpose Bt
// (B itself when B is known to be symmetric; else Bt is made once and kept with B). Only the mask's
// entries are ever formed, so the work is the joins, not the products of the rows, which pays when
// the mask is much sparser than the product.
//
// A join costs about the shorter side's length: A's row i is marked in a bitmap once for the row,
// so a column of B no longer than it is scanned against that bitmap; a longer column that is one of
// Bt's long rows (held as bitmaps, as spgemm.hpp holds B's) has A's row scanned against it instead;
// two other lists are merged, or the shorter one's entries searched in the longer one.
//
// `choose_masked_method` compares the two methods' work from the operands' degrees (one pass over
// the mask) and picks one; `masked dot` / `masked saxpy` in a schedule force one. A complemented
// mask, or none, cannot be walked: the row-by-row method runs.
//
// Entries follow GraphBLAS: (i, j) is present when the mask holds it and at least one k joins; its
// value is agg over those k, in increasing k as the row-by-row method folds them, of
// con(A_ik, B_kj, i, k, j). A bool (pattern) result keeps only true entries, as spgemm does.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include <omp.h>

#include "gql/common/masked_method.hpp"
#include "gql/cpu/accumulator_policy.hpp"
#include "gql/cpu/huge_pages.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/work_partition.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

using common::MaskedMethod;  // gql/common/masked_method.hpp

// The steps of joining sorted lists of `na` and `nb` entries: a merge walks both; a search of the
// shorter list's entries in the longer costs about log2 of the longer per entry.
inline int64_t join_steps(int64_t na, int64_t nb) noexcept {
  const int64_t shorter = std::min(na, nb), longer = std::max(na, nb);
  if (shorter == 0) return 1;
  const int64_t search = shorter * (1 + std::bit_width(static_cast<uint64_t>(longer)));
  return std::min(na + nb, search);
}

// The steps of one mask entry, with A's row (na entries) marked in a bitmap: a B column (nb
// entries) no longer than it is tested against the bitmap; a longer one held as a bitmap has A's row
// tested against it; two other lists are joined.
inline int64_t entry_steps(int64_t na, int64_t nb, bool b_has_bitmap) noexcept {
  if (nb <= na) return std::max<int64_t>(nb, 1);
  if (b_has_bitmap) return std::max<int64_t>(na, 1);
  return join_steps(na, nb);
}

// The degrees of B's columns (the rows of B's transpose), kept with B until B is written.
template <class TB>
const std::vector<int64_t>& column_degrees(const Csr<TB>& B) {
  return B.derived().template get<std::vector<int64_t>>("column degrees", [&] {
    std::vector<int64_t> degrees(static_cast<size_t>(B.n_cols()), 0);
    if (B.derived().symmetric()) {
      for (int64_t k = 0; k < B.n_rows(); ++k) degrees[static_cast<size_t>(k)] = B.row_degree(k);
    } else {
      for (index_t j : B.col_indices()) ++degrees[static_cast<size_t>(j)];
    }
    return degrees;
  });
}

// The method chosen for one masked product, and the work estimates it was chosen by.
struct MaskedChoice {
  MaskedMethod method = MaskedMethod::saxpy;
  std::string reason;           // for --explain
  int64_t saxpy_products = -1;  // products of the rows the mask keeps (-1: not estimated)
  int64_t dot_steps = -1;       // join steps over the mask's entries (-1: not estimated)
  std::vector<int64_t> row_steps;  // when estimated: dot_steps_by_row, the dot method's work partition
};

// The steps of each mask row (prefix sums: row i's are prefix[i + 1] - prefix[i]): marking A's row
// and clearing it, then the entries' joins.
template <class TA, class TB>
std::vector<int64_t> dot_steps_by_row(const Csr<TA>& A, const Csr<TB>& B, const MatrixMask& mask) {
  const int64_t n = A.n_rows();
  const std::vector<int64_t>& bt_degree = column_degrees(B);
  const int64_t bitmap_degree = dense_row_degree(A.n_cols());
  std::vector<int64_t> prefix(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t da = A.row_degree(i);
    int64_t steps = 0;
    if (da > 0 && !mask.row(i).empty()) {
      steps = 2 * da;
      for (index_t j : mask.row(i)) {
        const int64_t db = bt_degree[static_cast<size_t>(j)];
        steps += entry_steps(da, db, db >= bitmap_degree);
      }
    }
    prefix[static_cast<size_t>(i) + 1] = steps;
  }
  for (int64_t i = 0; i < n; ++i) prefix[static_cast<size_t>(i) + 1] += prefix[static_cast<size_t>(i)];
  return prefix;
}

// Picks the method for C<mask> = A * B. `forced` is the schedule's choice (automatic: by the work).
template <class TA, class TB>
MaskedChoice choose_masked_method(const Csr<TA>& A, const Csr<TB>& B, const MatrixMask& mask, MaskedMethod forced) {
  MaskedChoice c;
  if (mask.mode() != MaskMode::allow) {
    c.reason = mask.mode() == MaskMode::none ? "no mask" : "a complemented mask cannot be walked";
    return c;
  }
  if (forced != MaskedMethod::automatic) {
    c.method = forced;
    c.reason = "by the schedule";
    return c;
  }
  // The rows' products, counted only where the mask keeps a row.
  const auto b_off = B.row_offsets();
  const CsrView a(A);
  int64_t products = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : products)
  for (int64_t i = 0; i < A.n_rows(); ++i) {
    if (mask.row(i).empty()) continue;
    for (offset_t p = a.begin(i); p < a.end(i); ++p) {
      const auto k = static_cast<size_t>(a.column(p));
      products += b_off[k + 1] - b_off[k];
    }
  }
  c.saxpy_products = products;
  // Every mask entry costs a join of at least one step: no estimate needed when the products are fewer.
  if (static_cast<int64_t>(mask.col_indices.size()) >= products) {
    c.reason = "the mask has as many entries as the rows have products";
    return c;
  }
  c.row_steps = dot_steps_by_row(A, B, mask);
  c.dot_steps = c.row_steps.back();
  // Making B's transpose walks B once more.
  const int64_t transpose_steps = B.derived().symmetric() ? 0 : B.nvals();
  if (c.dot_steps + transpose_steps < products) {
    c.method = MaskedMethod::dot;
    c.reason = "the mask's joins take fewer steps than the rows' products";
  } else {
    c.reason = "the rows' products are fewer than the mask's join steps";
  }
  return c;
}

namespace detail {

inline bool test_bit(const uint64_t* words, index_t k) noexcept { return (words[k >> 6] >> (k & 63)) & 1; }

// The entry of a sorted row holding column k (which the row is known to hold).
inline offset_t position_of(std::span<const index_t> row, offset_t first, index_t k) noexcept {
  return first + static_cast<offset_t>(std::lower_bound(row.begin(), row.end(), k) - row.begin());
}

// A sorted row of A or Bt: its columns and where its entries start.
struct RowView {
  std::span<const index_t> cols;
  offset_t first = 0;
};

// Joins two sorted rows, calling visit(p, q, k) for each common column k in increasing order (p, q:
// the entries' positions) until it returns true: a merge when the rows are alike in length, else a
// search of the shorter one's columns in what is left of the longer one.
template <class Visit>
inline void join_rows(RowView a, RowView b, Visit&& visit) {
  const bool a_shorter = a.cols.size() <= b.cols.size();
  const RowView shorter = a_shorter ? a : b, longer = a_shorter ? b : a;
  if (shorter.cols.empty()) return;
  if (join_steps(static_cast<int64_t>(a.cols.size()), static_cast<int64_t>(b.cols.size())) <
      static_cast<int64_t>(a.cols.size() + b.cols.size())) {
    auto from = longer.cols.begin();
    for (size_t s = 0; s < shorter.cols.size(); ++s) {
      const index_t k = shorter.cols[s];
      from = std::lower_bound(from, longer.cols.end(), k);
      if (from == longer.cols.end()) return;
      if (*from != k) continue;
      const offset_t ps = shorter.first + static_cast<offset_t>(s);
      const offset_t pl = longer.first + static_cast<offset_t>(from - longer.cols.begin());
      if (a_shorter ? visit(ps, pl, k) : visit(pl, ps, k)) return;
    }
    return;
  }
  size_t x = 0, y = 0;
  while (x < a.cols.size() && y < b.cols.size()) {
    const index_t ka = a.cols[x], kb = b.cols[y];
    if (ka == kb) {
      if (visit(a.first + static_cast<offset_t>(x), b.first + static_cast<offset_t>(y), ka)) return;
      ++x;
      ++y;
    } else {
      x += ka < kb;
      y += kb < ka;
    }
  }
}

// Joins A's row a, whose columns are set in a_bits, with Bt's row b (b_bits: its bitmap, or null),
// by the cheapest of the ways entry_steps counts. `positions`: whether visit reads p and q (operand
// values); without, p and q are not looked up.
template <bool positions, class Visit>
inline void join_entry(RowView a, const uint64_t* a_bits, RowView b, const uint64_t* b_bits, Visit&& visit) {
  if (b.cols.size() <= a.cols.size()) {
    for (size_t y = 0; y < b.cols.size(); ++y) {
      const index_t k = b.cols[y];
      if (!test_bit(a_bits, k)) continue;
      const offset_t p = positions ? position_of(a.cols, a.first, k) : 0;
      if (visit(p, b.first + static_cast<offset_t>(y), k)) return;
    }
  } else if (b_bits != nullptr) {
    for (size_t x = 0; x < a.cols.size(); ++x) {
      const index_t k = a.cols[x];
      if (!test_bit(b_bits, k)) continue;
      const offset_t q = positions ? position_of(b.cols, b.first, k) : 0;
      if (visit(a.first + static_cast<offset_t>(x), q, k)) return;
    }
  } else {
    join_rows(a, b, visit);
  }
}

// How many columns two rows share, joined as join_entry does; the bitmap tests are counted without
// a branch (a value-free con needs only the count).
inline int64_t count_common(RowView a, const uint64_t* a_bits, RowView b, const uint64_t* b_bits) {
  int64_t count = 0;
  if (b.cols.size() <= a.cols.size()) {
    for (index_t k : b.cols) count += static_cast<int64_t>(test_bit(a_bits, k));
  } else if (b_bits != nullptr) {
    for (index_t k : a.cols) count += static_cast<int64_t>(test_bit(b_bits, k));
  } else {
    join_rows(a, b, [&](offset_t, offset_t, index_t) { return ++count, false; });
  }
  return count;
}

}  // namespace detail

// C<mask> = A * B over S by the mask's entries; Bt is B's transpose (B itself when symmetric) and
// row_steps the prefix sums of dot_steps_by_row (the work partition), empty to compute them here.
template <class S, class TA, class TB>
Csr<typename S::value_type> masked_dot_product(const Csr<TA>& A, const Csr<TB>& B, const Csr<TB>& Bt,
                                               const MatrixMask& mask, std::vector<int64_t> row_steps = {},
                                               SpgemmStats* stats = nullptr) {
  using V = typename S::value_type;
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  const int64_t n = A.n_rows(), m = B.n_cols();
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  check_mask_shape(mask, n, m, "mxm");
  if (mask.mode() != MaskMode::allow)
    throw Error(ErrorKind::internal, "mxm by the mask needs a plain (not complemented) mask");

  if (row_steps.empty()) row_steps = dot_steps_by_row(A, B, mask);
  const int n_threads = omp_get_max_threads();
  const auto borders = partition_by_work(row_steps, int64_t{n_threads} * 64);
  const int64_t n_chunks = static_cast<int64_t>(borders.size()) - 1;

  // Each row first written where the mask's row starts (the mask bounds the row), then packed.
  const auto mask_start = [&](int64_t i) { return static_cast<size_t>(mask.row_offsets[static_cast<size_t>(i)]); };
  const size_t bound = mask.col_indices.size();
  Array<index_t> wide_cols;
  Array<storage_t<V>> wide_values;
  reserve_on_huge_pages(wide_cols, bound);
  wide_cols.resize(bound);
  if constexpr (stores_values<V>) {
    reserve_on_huge_pages(wide_values, bound);
    wide_values.resize(bound);
  }
  Array<offset_t> offsets(static_cast<size_t>(n) + 1, 0);  // row sizes first, then offsets
  const auto a_off = A.row_offsets();
  const auto a_col = A.col_indices();
  const auto t_off = Bt.row_offsets();
  const auto t_col = Bt.col_indices();
  const auto row_of = [](std::span<const offset_t> off, std::span<const index_t> col, int64_t r) {
    const offset_t first = off[static_cast<size_t>(r)];
    return detail::RowView{col.subspan(static_cast<size_t>(first), static_cast<size_t>(off[static_cast<size_t>(r) + 1] - first)),
                           first};
  };
  const DenseRows long_rows = dense_rows_of(Bt);  // Bt's long rows as bitmaps
  constexpr ConstantCon kind = constant_con<S>;
  const size_t words = static_cast<size_t>((A.n_cols() + 63) / 64);
  int64_t matched = 0;
  std::exception_ptr failure;
#pragma omp parallel reduction(+ : matched)
  {
    std::vector<uint64_t> a_bits;  // A's row being joined; all clear between rows
#pragma omp for schedule(dynamic, 1)
    for (int64_t c = 0; c < n_chunks; ++c) {
      try {
        if (a_bits.empty()) a_bits.assign(words, 0);
        for (int64_t i = borders[static_cast<size_t>(c)]; i < borders[static_cast<size_t>(c) + 1]; ++i) {
          const detail::RowView a = row_of(a_off, a_col, i);
          if (a.cols.empty()) continue;
          for (index_t k : a.cols) a_bits[static_cast<size_t>(k) >> 6] |= uint64_t{1} << (k & 63);
          size_t out = mask_start(i);
          for (index_t j : mask.row(i)) {
            const int32_t slot = long_rows.slot[static_cast<size_t>(j)];
            const detail::RowView b = row_of(t_off, t_col, j);
            const uint64_t* b_bits = slot >= 0 ? long_rows.bits(slot) : nullptr;
            V value{};
            bool found = false;
            if constexpr (kind != ConstantCon::no) {
              // con is a constant: the entry is it folded once per common column (spgemm.hpp).
              const int64_t count = detail::count_common(a, a_bits.data(), b, b_bits);
              matched += count;
              found = count > 0;
              value = folded_constant<S>(static_cast<uint64_t>(count));
            } else {
              detail::join_entry<S::reads_values>(a, a_bits.data(), b, b_bits, [&](offset_t p, offset_t q, index_t k) {
                const V x = S::con(operand<S, a_type>(A, p), operand<S, b_type>(Bt, q), i, k, j);
                value = found ? S::agg(value, x) : x;
                found = true;
                ++matched;
                if constexpr (can_settle<S>) return settled<S>(value);
                else return false;
              });
            }
            if (!found) continue;
            if constexpr (stores_values<V>) {
              wide_cols[out] = j;
              wide_values[out++] = value;
            } else if (value) {
              wide_cols[out++] = j;
            }
          }
          for (index_t k : a.cols) a_bits[static_cast<size_t>(k) >> 6] = 0;
          offsets[static_cast<size_t>(i) + 1] = static_cast<offset_t>(out - mask_start(i));
        }
      } catch (...) {
#pragma omp critical(gql_masked_dot_failure)
        if (!failure) failure = std::current_exception();
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
  const auto total = static_cast<size_t>(offsets[static_cast<size_t>(n)]);

  Array<index_t> cols;
  Array<storage_t<V>> values;
  if (total == bound) {  // every masked entry joined: the rows already sit where they belong
    cols = std::move(wide_cols);
    values = std::move(wide_values);
  } else {
    reserve_on_huge_pages(cols, total);
    cols.resize(total);
    if constexpr (stores_values<V>) {
      reserve_on_huge_pages(values, total);
      values.resize(total);
    }
#pragma omp parallel for schedule(dynamic, 1024)
    for (int64_t i = 0; i < n; ++i) {
      const auto from = mask_start(i), to = static_cast<size_t>(offsets[static_cast<size_t>(i)]);
      const auto count = static_cast<size_t>(offsets[static_cast<size_t>(i) + 1]) - to;
      std::copy_n(wide_cols.data() + from, count, cols.data() + to);
      if constexpr (stores_values<V>) std::copy_n(wide_values.data() + from, count, values.data() + to);
    }
  }
  if (stats) {
    *stats = {};
    stats->products = matched;
    stats->nvals = static_cast<int64_t>(total);
  }
  return Csr<V>(n, m, std::move(offsets), std::move(cols), std::move(values));
}

}  // namespace gql::cpu
