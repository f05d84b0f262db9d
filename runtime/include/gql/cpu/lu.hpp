// lu(A): LU factorization with partial pivoting, tiled right-looking (as LAPACK's getrf):
// for each panel of `tile` columns, factor the panel with row pivoting, apply its swaps to the
// other columns, solve for the panel's block row of U, then update the trailing matrix
// A22 -= L21 * U12: through BLAS trsm and gemm (OpenBLAS) for float and double, through tiled
// loops parallel over tiles otherwise.
//
// Result: L and U packed in one matrix (L's unit diagonal implied) and the pivots as LAPACK
// writes them: row i was swapped with row pivots[i] (0-based), in order, so P A = L U.
// A singular matrix (an exactly zero pivot) throws gql::Error (kind requirement) naming the column.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#if GQL_HAVE_BLAS
#include <cblas.h>
#endif

#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::cpu {

template <class T>
struct LuFactors {
  Matrix<T> lu;                 // L below the diagonal (unit diagonal implied), U on and above it
  std::vector<int32_t> pivots;  // row i was swapped with row pivots[i], for i = 0, 1, ...
};

namespace detail {

// C(m x n) -= A(m x k) * B(k x n), row-major with leading dimension ld.
template <class T>
void gemm_subtract(int64_t m, int64_t n, int64_t k, const T* a, const T* b, T* c, int64_t ld, int64_t tile) {
#if GQL_HAVE_BLAS
  if constexpr (std::is_same_v<T, float>) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), -1.0f, a, static_cast<int>(ld), b, static_cast<int>(ld), 1.0f, c,
                static_cast<int>(ld));
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, static_cast<int>(m), static_cast<int>(n),
                static_cast<int>(k), -1.0, a, static_cast<int>(ld), b, static_cast<int>(ld), 1.0, c,
                static_cast<int>(ld));
  } else
#endif
  {
    const int64_t rt = (m + tile - 1) / tile, ct = (n + tile - 1) / tile;
#pragma omp parallel for collapse(2) schedule(dynamic, 1)
    for (int64_t r = 0; r < rt; ++r)
      for (int64_t t = 0; t < ct; ++t)
        for (int64_t i = r * tile; i < std::min(m, (r + 1) * tile); ++i)
          for (int64_t p = 0; p < k; ++p) {
            const T x = a[i * ld + p];
            for (int64_t j = t * tile; j < std::min(n, (t + 1) * tile); ++j) c[i * ld + j] -= x * b[p * ld + j];
          }
  }
}

// B(m x n) = L^-1 B for L(m x m) unit lower triangular, row-major with leading dimension ld. The
// loop form walks rows of B (contiguous), parallel over column chunks.
template <class T>
void unit_lower_solve(int64_t m, int64_t n, const T* l, T* b, int64_t ld) {
#if GQL_HAVE_BLAS
  if constexpr (std::is_same_v<T, float>) {
    cblas_strsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, static_cast<int>(m),
                static_cast<int>(n), 1.0f, l, static_cast<int>(ld), b, static_cast<int>(ld));
    return;
  } else if constexpr (std::is_same_v<T, double>) {
    cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasUnit, static_cast<int>(m),
                static_cast<int>(n), 1.0, l, static_cast<int>(ld), b, static_cast<int>(ld));
    return;
  }
#endif
  constexpr int64_t chunk = 256;
#pragma omp parallel for schedule(static)
  for (int64_t c0 = 0; c0 < n; c0 += chunk) {
    const int64_t c1 = std::min(n, c0 + chunk);
    for (int64_t i = 1; i < m; ++i)
      for (int64_t k = 0; k < i; ++k) {
        const T x = l[i * ld + k];
        for (int64_t j = c0; j < c1; ++j) b[i * ld + j] -= x * b[k * ld + j];
      }
  }
}

// Factors the panel's columns [c0, c1) over rows [c0, n) with partial pivoting, recursively (as
// LAPACK's getrf2): the left half, then the right half's U rows by a triangular solve and its
// trailing rows by gemm, then the right half. A unit of few columns runs the plain loop. Row swaps
// span the whole panel [p0, p1), so both halves see them. Work is O(n * width^2) and mostly in gemm,
// instead of width sweeps over the panel's n rows.
template <class T>
void factor_panel(T* a, int64_t n, int64_t p0, int64_t p1, int64_t c0, int64_t c1, std::vector<int32_t>& pivots,
                  int64_t tile) {
  const auto at = [&](int64_t i, int64_t j) -> T& { return a[i * n + j]; };
  constexpr int64_t unit = 8;
  if (c1 - c0 <= unit) {
    for (int64_t k = c0; k < c1; ++k) {
      int64_t p = k;
      for (int64_t i = k + 1; i < n; ++i)
        if (std::abs(at(i, k)) > std::abs(at(p, k))) p = i;
      if (at(p, k) == T{0})
        throw Error(ErrorKind::requirement,
                    "lu: the matrix is singular (no nonzero pivot in column " + std::to_string(k) + ")");
      pivots[static_cast<size_t>(k)] = static_cast<int32_t>(p);
      if (p != k)
        for (int64_t j = p0; j < p1; ++j) std::swap(at(k, j), at(p, j));
      const T inv = T{1} / at(k, k);
      for (int64_t i = k + 1; i < n; ++i) {
        at(i, k) *= inv;
        const T l = at(i, k);
        for (int64_t j = k + 1; j < c1; ++j) at(i, j) -= l * at(k, j);
      }
    }
    return;
  }
  const int64_t mid = c0 + (c1 - c0) / 2;
  factor_panel(a, n, p0, p1, c0, mid, pivots, tile);
  unit_lower_solve(mid - c0, c1 - mid, &at(c0, c0), &at(c0, mid), n);
  gemm_subtract(n - mid, c1 - mid, mid - c0, &at(mid, c0), &at(c0, mid), &at(mid, mid), n, tile);
  factor_panel(a, n, p0, p1, mid, c1, pivots, tile);
}

// Error(usage) unless the matrix is square and the panel width positive.
inline void check_lu_arguments(int64_t n_rows, int64_t n_cols, int64_t tile) {
  if (n_cols != n_rows)
    throw Error(ErrorKind::usage,
                "lu: the matrix is " + std::to_string(n_rows) + " x " + std::to_string(n_cols) + ", not square");
  if (tile < 1) throw Error(ErrorKind::usage, "lu: tile must be positive");
}
}  // namespace detail

template <class T>
LuFactors<T> lu(const Matrix<T>& A, int64_t tile = 128) {
  static_assert(std::is_floating_point_v<T>, "lu: the element type must be floating point");
  const int64_t n = A.n_rows();
  detail::check_lu_arguments(n, A.n_cols(), tile);
  LuFactors<T> out{A.clone(), std::vector<int32_t>(static_cast<size_t>(n))};
  T* a = out.lu.data().data();
  const auto at = [&](int64_t i, int64_t j) -> T& { return a[i * n + j]; };
  const auto swap_rows = [&](int64_t r, int64_t s, int64_t c0, int64_t c1) {
    if (r == s) return;
    for (int64_t j = c0; j < c1; ++j) std::swap(at(r, j), at(s, j));
  };

  for (int64_t k0 = 0; k0 < n; k0 += tile) {
    const int64_t k1 = std::min(n, k0 + tile);
    detail::factor_panel(a, n, k0, k1, k0, k1, out.pivots, tile);
    // The panel's swaps, applied to the columns left and right of it.
    for (int64_t k = k0; k < k1; ++k) {
      const int64_t p = out.pivots[static_cast<size_t>(k)];
      swap_rows(k, p, 0, k0);
      swap_rows(k, p, k1, n);
    }
    if (k1 == n) break;
    // U12 = L11^-1 A12 (unit lower triangular solve).
    detail::unit_lower_solve(k1 - k0, n - k1, &at(k0, k0), &at(k0, k1), n);
    // A22 -= L21 U12.
    detail::gemm_subtract(n - k1, n - k1, k1 - k0, &at(k1, k0), &at(k0, k1), &at(k1, k1), n, tile);
  }
  return out;
}

}  // namespace gql::cpu
