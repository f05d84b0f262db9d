// Products with a dense operand over a semiring S: matrix x matrix, graph x matrix, matrix x graph,
// matrix x vector and vector x matrix. As for graphs, C(i, j) = agg over k of con(A(i, k), B(k, j))
// for the k where both operands have an entry; a dense matrix has one everywhere, so a matrix result
// holds S's zero (agg's identity) where no k contributes, and a vector result has an entry at every
// position when the vector operand has any entry (none when it has none), as GraphBLAS defines it.
//
//   matrix x matrix   OpenBLAS gemm when S is plus_times over f32 or f64 (is_plus_times); otherwise
//                     the closure's register tiles (micro_tile), with cache blocks of B kept in L2
//                     while a thread's band of rows passes over them, bands in parallel.
//   graph x matrix    row i of C combines rows k of B, one per entry G(i, k); rows in parallel.
//   matrix x graph    row i of C scatters A(i, k) over row k of G; rows in parallel.
//   matrix x vector   w(i) combines row i of A with the vector's entries; rows in parallel.
//   vector x matrix   row k of A, scaled by v(k), combined into w for each entry of v; column blocks
//                     in parallel.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#if GQL_HAVE_BLAS
#include <cblas.h>
#endif

#include "gql/cpu/closure.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/semiring.hpp"

namespace gql::cpu {

namespace detail {

// Rows a thread takes at a time in the blocked GEMM: 16 register bands, so that a cache block of B
// serves them all before the next block is loaded.
inline constexpr int64_t gemm_row_block = 16 * micro_rows;

inline void check_inner_dimensions(int64_t left_cols, int64_t right_rows, const char* what) {
  if (left_cols != right_rows)
    throw Error(ErrorKind::usage, std::string(what) + ": the left operand has " + std::to_string(left_cols) +
                                      " columns, the right one " + std::to_string(right_rows) + " rows");
}

// C(m x q) ⊕= A(m x p) ⊗ B(p x q), row-major with leading dimensions p and q, for rows [i0, i1).
template <class S, class V, class TA, class TB>
void gemm_rows(V* c, const TA* a, const TB* b, int64_t i0, int64_t i1, int64_t p, int64_t q) {
  for (int64_t k0 = 0; k0 < p; k0 += cache_k) {
    const int64_t pk = std::min(cache_k, p - k0);
    for (int64_t j0 = 0; j0 < q; j0 += cache_j) {
      const int64_t j1 = std::min(q, j0 + cache_j);
      const int64_t j_tiled = j0 + (j1 - j0) / micro_cols * micro_cols;
      static_assert(micro_rows == 3, "the dispatch below names every smaller band");
      for (int64_t i = i0; i < i1; i += micro_rows) {
        const int64_t band = std::min<int64_t>(micro_rows, i1 - i);
        const TA* ak = a + i * p + k0;
        for (int64_t j = j0; j < j_tiled; j += micro_cols) {
          V* x = c + i * q + j;
          const TB* z = b + k0 * q + j;
          if (band == micro_rows) micro_tile<S>(x, q, ak, p, z, q, pk, i, k0, j);
          else if (band == 2) micro_tile<S, 2>(x, q, ak, p, z, q, pk, i, k0, j);
          else micro_tile<S, 1>(x, q, ak, p, z, q, pk, i, k0, j);
        }
        for (int64_t r = i; r < i + band; ++r)
          for (int64_t k = k0; k < k0 + pk; ++k)
            for (int64_t j = j_tiled; j < j1; ++j)
              c[r * q + j] = S::agg(c[r * q + j], S::con(a[r * p + k], b[k * q + j], r, k, j));
      }
    }
  }
}

#if GQL_HAVE_BLAS
// C = A B for row-major float or double matrices through OpenBLAS.
template <class V>
void blas_gemm(V* c, const V* a, const V* b, int64_t m, int64_t p, int64_t q) {
  const int M = static_cast<int>(m), P = static_cast<int>(p), Q = static_cast<int>(q);
  if constexpr (std::is_same_v<V, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, Q, P, 1.0f, a, std::max(P, 1), b, std::max(Q, 1), 0.0f,
                c, std::max(Q, 1));
  else
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, Q, P, 1.0, a, std::max(P, 1), b, std::max(Q, 1), 0.0,
                c, std::max(Q, 1));
}
#endif

}  // namespace detail

// Whether matrix x matrix over S runs as OpenBLAS gemm here (plus_times over f32 or f64).
template <class S, class TA, class TB>
constexpr bool gemm_by_blas() {
  using V = typename S::value_type;
#if GQL_HAVE_BLAS
  return is_plus_times<S>() && (std::is_same_v<V, float> || std::is_same_v<V, double>) && std::is_same_v<TA, V> &&
         std::is_same_v<TB, V>;
#else
  return false;
#endif
}

// A * B over S for dense A (m x p) and B (p x q).
template <class S, class TA, class TB>
Matrix<typename S::value_type> dense_mxm(const Matrix<TA>& A, const Matrix<TB>& B) {
  using V = typename S::value_type;
  detail::check_inner_dimensions(A.n_cols(), B.n_rows(), "mxm");
  const int64_t m = A.n_rows(), p = A.n_cols(), q = B.n_cols();
  Matrix<V> C(m, q, S::zero());
  if (m == 0 || q == 0 || p == 0) return C;
  auto* c = C.data().data();
  const auto* a = A.data().data();
  const auto* b = B.data().data();
#if GQL_HAVE_BLAS
  if constexpr (gemm_by_blas<S, TA, TB>()) {
    detail::blas_gemm(c, a, b, m, p, q);
    return C;
  }
#endif
  const int64_t blocks = (m + detail::gemm_row_block - 1) / detail::gemm_row_block;
#pragma omp parallel for schedule(dynamic, 1) if (worth_threads(m * p * q))
  for (int64_t block = 0; block < blocks; ++block) {
    const int64_t i0 = block * detail::gemm_row_block;
    detail::gemm_rows<S>(c, a, b, i0, std::min(m, i0 + detail::gemm_row_block), p, q);
  }
  return C;
}

// G * B over S for a sparse G (m x p) and dense B (p x q).
template <class S, class TG, class TB>
Matrix<typename S::value_type> dense_mxm(const Csr<TG>& G, const Matrix<TB>& B) {
  using V = typename S::value_type;
  detail::check_inner_dimensions(G.n_cols(), B.n_rows(), "mxm");
  const int64_t m = G.n_rows(), q = B.n_cols();
  Matrix<V> C(m, q, S::zero());
  auto* c = C.data().data();
  const auto* b = B.data().data();
  const CsrView gv(G);
#pragma omp parallel for schedule(dynamic, 16) if (worth_threads(G.nvals() * q))
  for (int64_t i = 0; i < m; ++i) {
    auto* row = c + i * q;
    for (offset_t e = gv.begin(i); e < gv.end(i); ++e) {
      const int64_t k = gv.column(e);
      const TG g = G.value_at(e);
      const auto* bk = b + k * q;
      for (int64_t j = 0; j < q; ++j) row[j] = S::agg(row[j], S::con(g, bk[j], i, k, j));
    }
  }
  return C;
}

// A * G over S for a dense A (m x p) and sparse G (p x q).
template <class S, class TA, class TG>
Matrix<typename S::value_type> dense_mxm(const Matrix<TA>& A, const Csr<TG>& G) {
  using V = typename S::value_type;
  detail::check_inner_dimensions(A.n_cols(), G.n_rows(), "mxm");
  const int64_t m = A.n_rows(), p = A.n_cols(), q = G.n_cols();
  Matrix<V> C(m, q, S::zero());
  auto* c = C.data().data();
  const auto* a = A.data().data();
  const CsrView gv(G);
#pragma omp parallel for schedule(dynamic, 16) if (worth_threads(m * G.nvals()))
  for (int64_t i = 0; i < m; ++i) {
    auto* row = c + i * q;
    for (int64_t k = 0; k < p; ++k) {
      const auto x = a[i * p + k];
      for (offset_t e = gv.begin(k); e < gv.end(k); ++e) {
        const int64_t j = gv.column(e);
        row[j] = S::agg(row[j], S::con(x, G.value_at(e), i, k, j));
      }
    }
  }
  return C;
}

namespace detail {

// The vector's entries as (index, value) pairs, whether it is stored dense or sparse.
template <class T>
std::pair<Array<index_t>, Array<storage_t<T>>> vector_entries(const Vector<T>& v) {
  if (!v.is_dense()) return {Array<index_t>(v.indices().begin(), v.indices().end()),
                             Array<storage_t<T>>(v.values().begin(), v.values().end())};
  Array<index_t> indices(static_cast<size_t>(v.size()));
  for (int64_t k = 0; k < v.size(); ++k) indices[static_cast<size_t>(k)] = static_cast<index_t>(k);
  return {std::move(indices), Array<storage_t<T>>(v.values().begin(), v.values().end())};
}

}  // namespace detail

// A * v over S for a dense A (m x p): w(i) = agg over the entries v(k) of con(A(i, k), v(k)).
template <class S, class TA, class TV>
Vector<typename S::value_type> dense_mxv(const Matrix<TA>& A, const Vector<TV>& v) {
  using V = typename S::value_type;
  detail::check_inner_dimensions(A.n_cols(), v.size(), "mxv");
  const int64_t m = A.n_rows(), p = A.n_cols();
  if (v.nvals() == 0) return Vector<V>(m);
  const auto entries = detail::vector_entries(v);  // named members: OpenMP regions cannot capture bindings
  const auto& indices = entries.first;
  const auto& values = entries.second;
  Array<storage_t<V>> w(static_cast<size_t>(m));
  const auto* a = A.data().data();
#pragma omp parallel for schedule(static) if (worth_threads(m * v.nvals()))
  for (int64_t i = 0; i < m; ++i) {
    V acc = S::zero();
    for (size_t e = 0; e < indices.size(); ++e) {
      const int64_t k = indices[e];
      acc = S::agg(acc, S::con(a[i * p + k], values[e], i, k, 0));
    }
    w[static_cast<size_t>(i)] = acc;
  }
  return Vector<V>::dense(m, std::move(w));
}

// v * A over S for a dense A (p x q): w(j) = agg over the entries v(k) of con(v(k), A(k, j)).
template <class S, class TV, class TA>
Vector<typename S::value_type> dense_vxm(const Vector<TV>& v, const Matrix<TA>& A) {
  using V = typename S::value_type;
  detail::check_inner_dimensions(v.size(), A.n_rows(), "vxm");
  const int64_t q = A.n_cols();
  if (v.nvals() == 0) return Vector<V>(q);
  const auto entries = detail::vector_entries(v);  // named members: OpenMP regions cannot capture bindings
  const auto& indices = entries.first;
  const auto& values = entries.second;
  Array<storage_t<V>> w(static_cast<size_t>(q), S::zero());
  const auto* a = A.data().data();
  constexpr int64_t columns = 1024;  // a thread's block of w, combined over every entry of v
#pragma omp parallel for schedule(static) if (worth_threads(q * v.nvals()))
  for (int64_t j0 = 0; j0 < q; j0 += columns) {
    const int64_t j1 = std::min(q, j0 + columns);
    for (size_t e = 0; e < indices.size(); ++e) {
      const int64_t k = indices[e];
      const auto x = values[e];
      for (int64_t j = j0; j < j1; ++j)
        w[static_cast<size_t>(j)] = S::agg(w[static_cast<size_t>(j)], S::con(x, a[k * q + j], 0, k, j));
    }
  }
  return Vector<V>::dense(q, std::move(w));
}

// How many con applications a product with a dense operand makes (the work --stats counts).
template <class TA, class TB>
int64_t dense_products_count(const Matrix<TA>& A, const Matrix<TB>& B) {
  return A.n_rows() * A.n_cols() * B.n_cols();
}
template <class TG, class TB>
int64_t dense_products_count(const Csr<TG>& G, const Matrix<TB>& B) {
  return G.nvals() * B.n_cols();
}
template <class TA, class TG>
int64_t dense_products_count(const Matrix<TA>& A, const Csr<TG>& G) {
  return A.n_rows() * G.nvals();
}

namespace detail {
template <class T>
constexpr bool is_dense_matrix = false;
template <class T>
constexpr bool is_dense_matrix<Matrix<T>> = true;
}  // namespace detail

// Which kernel dense_mxm runs, as --explain says it.
template <class S, class L, class R>
const char* dense_mxm_method(const L&, const R&) {
  if constexpr (!detail::is_dense_matrix<L> || !detail::is_dense_matrix<R>) return "rows in parallel";
  else if constexpr (gemm_by_blas<S, typename L::value_type, typename R::value_type>()) return "OpenBLAS gemm";
  else return "register-tiled GEMM";
}

}  // namespace gql::cpu
