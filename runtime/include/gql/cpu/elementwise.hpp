// Element-wise operations as GraphBLAS defines them: union (eWiseAdd: fn where both operands have
// an entry, the one entry elsewhere, cast to the result type), intersection (eWiseMult: fn where
// both have one), apply (fn on every entry), and reduce to a scalar. Each returns a
// fresh result; generated code writes it through the output's mask (ops.hpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gql/builtin_monoid.hpp"
#include "gql/cpu/vector_assign.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/scalar_ops.hpp"
#include "gql/semiring.hpp"
#include "gql/cpu/parallel.hpp"

namespace gql::cpu {

namespace detail {

inline void check_same_shape(int64_t ar, int64_t ac, int64_t br, int64_t bc, const char* op) {
  if (ar != br || ac != bc)
    throw Error(ErrorKind::usage, std::string(op) + ": operands are " + std::to_string(ar) + " x " +
                                      std::to_string(ac) + " and " + std::to_string(br) + " x " + std::to_string(bc));
}

// Merges row i of A and B in column order: emit(j, pa, pb) with -1 for a missing side.
template <class TA, class TB, class Emit>
void merge_row(const CsrView<TA>& A, const CsrView<TB>& B, int64_t i, Emit&& emit) {
  offset_t pa = A.begin(i), ea = A.end(i);
  offset_t pb = B.begin(i), eb = B.end(i);
  while (pa < ea || pb < eb) {
    const index_t ja = pa < ea ? A.column(pa) : INT32_MAX;
    const index_t jb = pb < eb ? B.column(pb) : INT32_MAX;
    const index_t j = std::min(ja, jb);
    emit(j, ja == j ? pa : offset_t{-1}, jb == j ? pb : offset_t{-1});
    if (ja == j) ++pa;
    if (jb == j) ++pb;
  }
}

// Builds a Csr<R> row by row (in parallel): count(i) entries, then fill(i, cols, vals).
template <class R, class Count, class Fill>
Csr<R> build_rows(int64_t n_rows, int64_t n_cols, Count&& count, Fill&& fill) {
  Array<offset_t> offsets(static_cast<size_t>(n_rows) + 1, 0);
#pragma omp parallel for schedule(dynamic, 512) if (worth_threads(n_rows))
  for (int64_t i = 0; i < n_rows; ++i) offsets[static_cast<size_t>(i) + 1] = count(i);
  for (int64_t i = 0; i < n_rows; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
  Array<index_t> cols(static_cast<size_t>(offsets.back()));  // fill writes every row whole
  Array<storage_t<R>> vals(stores_values<R> ? cols.size() : 0);
#pragma omp parallel for schedule(dynamic, 512) if (worth_threads(n_rows + offsets.back()))
  for (int64_t i = 0; i < n_rows; ++i) fill(i, cols.data() + offsets[i], vals.data() + (stores_values<R> ? offsets[i] : 0));
  return Csr<R>(n_rows, n_cols, std::move(offsets), std::move(cols), std::move(vals));
}

// A graph from `each(i, emit)`, which calls emit(j, value) for row i's entries in column order:
// once to count, once to fill.
template <class R, class Each>
Csr<R> build_from_entries(int64_t n_rows, int64_t n_cols, Each&& each) {
  return build_rows<R>(
      n_rows, n_cols,
      [&](int64_t i) {
        offset_t c = 0;
        each(i, [&](index_t, const storage_t<R>&) { ++c; });
        return c;
      },
      [&](int64_t i, index_t* cols, storage_t<R>* vals) {
        each(i, [&](index_t j, const storage_t<R>& v) {
          *cols++ = j;
          if constexpr (stores_values<R>) *vals++ = v;
        });
      });
}

template <class R, class T>
storage_t<R> cast_value(T x) {
  return static_cast<storage_t<R>>(convert_element<R>(x));
}

// Entries kept in a graph result: a graph<bool> is a pattern (it stores no values), so an entry whose
// value is false is left out, as the products do.
template <class R>
bool keeps(const storage_t<R>& v) {
  if constexpr (std::is_same_v<R, bool>) return v != 0;
  else return true;
}

}  // namespace detail

// The entries of A on and below (tril) or on and above (triu) the diagonal `k` (GraphBLAS's
// GrB_TRIL / GrB_TRIU): tril keeps j - i <= k, triu keeps j - i >= k. A row's kept entries are one
// run of its sorted columns, found by a binary search.
enum class Triangle { lower, upper };
template <class TA>
Csr<TA> triangle(const Csr<TA>& A, Triangle part, int64_t k) {
  k = std::clamp<int64_t>(k, -A.n_rows() - 1, A.n_cols() + 1);  // j - i lies within: the same entries, no overflow
  const auto kept = [&](int64_t i) {
    const auto begin = A.col_indices().begin() + A.row_offsets()[static_cast<size_t>(i)];
    const auto end = A.col_indices().begin() + A.row_offsets()[static_cast<size_t>(i) + 1];
    // The first column with j - i > k (tril) or j - i >= k (triu): a border within the row.
    const int64_t border_column = part == Triangle::lower ? i + k + 1 : i + k;
    const auto border = std::lower_bound(begin, end, border_column, [](index_t j, int64_t c) { return j < c; });
    return part == Triangle::lower ? std::pair{begin, border} : std::pair{border, end};
  };
  return detail::build_rows<TA>(
      A.n_rows(), A.n_cols(), [&](int64_t i) { return static_cast<offset_t>(kept(i).second - kept(i).first); },
      [&](int64_t i, index_t* cols, storage_t<TA>* vals) {
        const auto [first, last] = kept(i);
        std::copy(first, last, cols);
        if constexpr (stores_values<TA>)
          std::copy_n(A.values().begin() + (first - A.col_indices().begin()), last - first, vals);
      });
}

// union(A, B, fn) on graphs.
template <class R, class TA, class TB, class F>
Csr<R> ewise_union(const Csr<TA>& A, const Csr<TB>& B, F fn) {
  detail::check_same_shape(A.n_rows(), A.n_cols(), B.n_rows(), B.n_cols(), "union");
  const CsrView a(A);
  const CsrView b(B);
  auto each = [&](int64_t i, auto&& emit) {
    detail::merge_row(a, b, i, [&](index_t j, offset_t pa, offset_t pb) {
      const auto v = pa >= 0 && pb >= 0 ? detail::cast_value<R>(fn(A.value_at(pa), B.value_at(pb)))
                     : pa >= 0          ? detail::cast_value<R>(A.value_at(pa))
                                        : detail::cast_value<R>(B.value_at(pb));
      if (detail::keeps<R>(v)) emit(j, v);
    });
  };
  return detail::build_from_entries<R>(A.n_rows(), A.n_cols(), each);
}

// intersect(A, B, fn) on graphs.
template <class R, class TA, class TB, class F>
Csr<R> ewise_intersect(const Csr<TA>& A, const Csr<TB>& B, F fn) {
  detail::check_same_shape(A.n_rows(), A.n_cols(), B.n_rows(), B.n_cols(), "intersect");
  const CsrView a(A);
  const CsrView b(B);
  auto each = [&](int64_t i, auto&& emit) {
    detail::merge_row(a, b, i, [&](index_t j, offset_t pa, offset_t pb) {
      if (pa < 0 || pb < 0) return;
      const auto v = detail::cast_value<R>(fn(A.value_at(pa), B.value_at(pb)));
      if (detail::keeps<R>(v)) emit(j, v);
    });
  };
  return detail::build_from_entries<R>(A.n_rows(), A.n_cols(), each);
}

// apply(A, fn) on graphs.
template <class R, class T, class F>
Csr<R> apply(const Csr<T>& A, F fn) {
  const CsrView a(A);
  auto each = [&](int64_t i, auto&& emit) {
    for (offset_t p = a.begin(i); p < a.end(i); ++p) {
      const auto v = detail::cast_value<R>(fn(A.value_at(p)));
      if (detail::keeps<R>(v)) emit(a.column(p), v);
    }
  };
  return detail::build_from_entries<R>(A.n_rows(), A.n_cols(), each);
}

// Vectors. Where the result's entries are an operand's (apply; intersect with a dense side; union
// with a dense side, whose result is dense), the values are computed by position in that operand's
// storage; two sparse operands meet over slots. A vector<bool> stores its values, so unlike a pattern
// graph it keeps entries whose value is false (the structure is what masks read).
//
// Each operand is read through a reader: its stored value as its element type (ReadStored), or,
// where the compiler folded an `apply` into the op that reads its result (compiler/plan/
// fuse_elementwise.cpp), through that apply's function, cast to the type the apply would have stored
// (read_applied). The values are those of the two ops run one after the other, without the pass
// and the vector between them.
template <class T>
struct ReadStored {
  T operator()(const storage_t<T>& s) const { return T(s); }
};
template <class T, class Inner, class F>
struct ReadApplied {
  F f;
  Inner inner;
  template <class S>
  T operator()(const S& s) const {
    return T(detail::cast_value<T>(f(inner(s))));
  }
};
// Reads through `inner`, then f, stored as T (the folded apply's result type).
template <class T, class Inner, class F>
ReadApplied<T, Inner, F> read_applied(F f, Inner inner) {
  return {f, inner};
}

namespace detail {

// f(p) for p < count, by all threads when large; in chunks taken as threads come free, so a thread
// whose partner is descheduled (cores shared) takes over the rest rather than waiting at the barrier.
template <class R, class F>
Array<storage_t<R>> map_values(size_t count, F&& f) {
  Array<storage_t<R>> out(count);
#pragma omp parallel for schedule(dynamic, 16384) if (worth_threads(static_cast<int64_t>(count)))
  for (size_t p = 0; p < count; ++p) out[p] = f(p);
  return out;
}

// A vector of n entries holding `values` at the indices of `like` (dense storage when that has
// every index, as VectorSlots::to_vector stores a full result).
template <class R, class T>
Vector<R> like_structure(const Vector<T>& like, Array<storage_t<R>> values) {
  if (like.is_dense() || like.nvals() == like.size()) return Vector<R>::dense(like.size(), std::move(values));
  return Vector<R>::sparse(like.size(), Array<index_t>(like.indices().begin(), like.indices().end()), std::move(values));
}

// A dense result from a dense side and a sparse one: out[i] = dense_only(i), or both(p, i) where the
// sparse side's entry p sits at i. One pass by ranges of indices, each with its entries found by
// binary search, so a thread writes each of its slots once; ranges taken as threads come free.
template <class R, class T, class DenseOnly, class Both>
Array<storage_t<R>> merge_into_dense(const Vector<T>& sparse, DenseOnly&& dense_only, Both&& both) {
  constexpr int64_t range = 16384;
  const int64_t n = sparse.size();
  const auto idx = sparse.indices();
  Array<storage_t<R>> out(static_cast<size_t>(n));
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads(n))
  for (int64_t r = 0; r < (n + range - 1) / range; ++r) {
    const auto end = static_cast<index_t>(std::min(n, (r + 1) * range));
    auto p = static_cast<size_t>(std::lower_bound(idx.begin(), idx.end(), static_cast<index_t>(r * range)) - idx.begin());
    for (auto i = static_cast<index_t>(r * range); i < end; ++i) {
      if (p < idx.size() && idx[p] == i) out[static_cast<size_t>(i)] = both(p++, static_cast<size_t>(i));
      else out[static_cast<size_t>(i)] = dense_only(static_cast<size_t>(i));
    }
  }
  return out;
}

}  // namespace detail

template <class R, class TA, class TB, class F, class ReadA = ReadStored<TA>, class ReadB = ReadStored<TB>>
Vector<R> ewise_union(const Vector<TA>& a, const Vector<TB>& b, F fn, ReadA ra = {}, ReadB rb = {}) {
  check_same_size(a.size(), b.size(), "union");
  const auto av = a.values();
  const auto bv = b.values();
  if (a.is_dense() && b.is_dense())
    return Vector<R>::dense(a.size(), detail::map_values<R>(av.size(), [&](size_t i) {
                              return detail::cast_value<R>(fn(ra(av[i]), rb(bv[i])));
                            }));
  if (a.is_dense())
    return Vector<R>::dense(a.size(), detail::merge_into_dense<R>(
                                          b, [&](size_t i) { return detail::cast_value<R>(ra(av[i])); },
                                          [&](size_t p, size_t i) { return detail::cast_value<R>(fn(ra(av[i]), rb(bv[p]))); }));
  if (b.is_dense())
    return Vector<R>::dense(b.size(), detail::merge_into_dense<R>(
                                          a, [&](size_t i) { return detail::cast_value<R>(rb(bv[i])); },
                                          [&](size_t p, size_t i) { return detail::cast_value<R>(fn(ra(av[p]), rb(bv[i]))); }));
  const auto sa = VectorSlots<TA>::of(a);
  const auto sb = VectorSlots<TB>::of(b);
  VectorSlots<R> out(a.size());
  const int64_t n = a.size();
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<size_t>(k);
    if (sa.present[i] && sb.present[i]) out.values[i] = detail::cast_value<R>(fn(ra(sa.values[i]), rb(sb.values[i])));
    else if (sa.present[i]) out.values[i] = detail::cast_value<R>(ra(sa.values[i]));
    else if (sb.present[i]) out.values[i] = detail::cast_value<R>(rb(sb.values[i]));
    out.present[i] = sa.present[i] || sb.present[i];
  }
  return std::move(out).to_vector();
}

template <class R, class TA, class TB, class F, class ReadA = ReadStored<TA>, class ReadB = ReadStored<TB>>
Vector<R> ewise_intersect(const Vector<TA>& a, const Vector<TB>& b, F fn, ReadA ra = {}, ReadB rb = {}) {
  check_same_size(a.size(), b.size(), "intersect");
  const auto av = a.values();
  const auto bv = b.values();
  if (a.is_dense() && b.is_dense())
    return Vector<R>::dense(a.size(), detail::map_values<R>(av.size(), [&](size_t i) {
                              return detail::cast_value<R>(fn(ra(av[i]), rb(bv[i])));
                            }));
  if (a.is_dense()) {
    const auto bi = b.indices();
    return detail::like_structure<R>(b, detail::map_values<R>(bv.size(), [&](size_t p) {
                                       return detail::cast_value<R>(fn(ra(av[static_cast<size_t>(bi[p])]), rb(bv[p])));
                                     }));
  }
  if (b.is_dense()) {
    const auto ai = a.indices();
    return detail::like_structure<R>(a, detail::map_values<R>(av.size(), [&](size_t p) {
                                       return detail::cast_value<R>(fn(ra(av[p]), rb(bv[static_cast<size_t>(ai[p])])));
                                     }));
  }
  const auto sa = VectorSlots<TA>::of(a);
  const auto sb = VectorSlots<TB>::of(b);
  VectorSlots<R> out(a.size());
  const int64_t n = a.size();
#pragma omp parallel for schedule(static) if (worth_threads(n))
  for (int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<size_t>(k);
    if (!sa.present[i] || !sb.present[i]) continue;
    out.values[i] = detail::cast_value<R>(fn(ra(sa.values[i]), rb(sb.values[i])));
    out.present[i] = 1;
  }
  return std::move(out).to_vector();
}

template <class R, class T, class F, class Read = ReadStored<T>>
Vector<R> apply(const Vector<T>& a, F fn, Read read = {}) {
  const auto av = a.values();
  return detail::like_structure<R>(a, detail::map_values<R>(av.size(), [&](size_t p) {
                                     return detail::cast_value<R>(fn(read(av[p])));
                                   }));
}

// Dense matrices: apply entry by entry.
template <class R, class T, class F>
Matrix<R> apply(const Matrix<T>& a, F fn) {
  Matrix<R> out(a.n_rows(), a.n_cols());
  const auto in = a.data();
  auto dst = out.data();
#pragma omp parallel for schedule(static) if (worth_threads(static_cast<int64_t>(in.size())))
  for (size_t p = 0; p < in.size(); ++p) dst[p] = detail::cast_value<R>(fn(T(in[p])));
  return out;
}

// ---- reduce --------------------------------------------------------------------------------------

using gql::BuiltinMonoid;

namespace detail {
template <Monoid M, class R, class Span>
R reduce_values(const Span& values, int64_t count) {
  using Mo = BuiltinMonoid<M, R>;
  R total = Mo::identity();
  if (count == 0) return total;
  if constexpr (M == Monoid::any) {
    return cast_value<R>(values[0]);
  } else {
#pragma omp parallel if (worth_threads(count))
    {
      R mine = Mo::identity();
#pragma omp for schedule(static) nowait
      for (int64_t p = 0; p < count; ++p) mine = Mo::combine(mine, R(values[static_cast<size_t>(p)]));
#pragma omp critical(gql_reduce)
      total = Mo::combine(total, mine);
    }
    return total;
  }
}
}  // namespace detail

// reduce(x, monoid) of `nvals` entries that are all true (1), those of a pattern graph: a sum counts
// them; every other monoid gives its value of one entry (or its identity for none).
template <Monoid M, class R>
R reduce_pattern(int64_t nvals) {
  if constexpr (M == Monoid::sum) {
    return R(nvals);
  } else {
    const std::vector<uint8_t> ones(static_cast<size_t>(std::min<int64_t>(nvals, 1)), 1);
    return detail::reduce_values<M, R>(ones, static_cast<int64_t>(ones.size()));
  }
}

// reduce(x, monoid) of every stored entry (an empty container gives the monoid's identity).
// Floating-point sums combine per-thread partial sums, so the last bits may vary with threads.
template <Monoid M, class R, class T>
R reduce(const Csr<T>& A) {
  if constexpr (!stores_values<T>) {
    return reduce_pattern<M, R>(A.nvals());
  } else {
    return detail::reduce_values<M, R>(A.values(), A.nvals());
  }
}
template <Monoid M, class R, class T>
R reduce(const Vector<T>& v) {
  return detail::reduce_values<M, R>(v.values(), static_cast<int64_t>(v.values().size()));
}
template <Monoid M, class R, class T>
R reduce(const Matrix<T>& m) {
  return detail::reduce_values<M, R>(m.data(), static_cast<int64_t>(m.data().size()));
}

}  // namespace gql::cpu
