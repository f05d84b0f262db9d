// closure(D) over a semiring S for a dense n x n matrix, in place: the Floyd-Warshall recurrence
// D(i, j) = agg(D(i, j), con(D(i, k), D(k, j))) over every intermediate k (min_plus: shortest
// paths; or_and: transitive closure; max_min: widest paths; max_times: most reliable paths).
// The answer is the closure whenever agg is idempotent (min, max, or, and, any); then all three
// variants give identical results for integers and for min/max over exact values (for floats only
// the rounding of the sums along a path can differ, as association changes).
//
//   tasks         tiled 3-stage blocked Floyd-Warshall (diagonal tile; its row and column; the
//                 rest), each tile update an OpenMP task ordered by depend clauses on the tiles.
//   parallel_for  the same stages, each a parallel loop over its tiles.
//   recursive     R-Kleene divide and conquer on 2 x 2 blocks down to a base size, the
//                 multiply-adds parallel over independent rows or columns.
//
// The tile update is X(i, j) = agg(X(i, j), con(Y(i, k), Z(k, j))) through a register-tiled
// micro-kernel (3 x 16 entries of X held over all k, the 16 columns vectorized), so builtin
// operators run at vector speed with few loads and stores.
//
// Optional predecessors (for paths): pred(i, j) = the vertex before j on the best path from i,
// -1 when there is none; it is updated whenever an entry strictly changes. With predecessors the
// variants may pick different paths among equally good ones (the distances stay identical).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gql/common/closure_predecessors.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/semiring.hpp"

namespace gql::cpu {

enum class ClosureVariant { tasks, parallel_for, recursive };

struct ClosureOptions {
  ClosureVariant variant = ClosureVariant::tasks;
  int64_t tile = 128;            // tile edge of the tiled variants
  int64_t recursive_base = 256;  // block size below which `recursive` runs plain Floyd-Warshall
};

namespace detail {

// A view of a square block of a row-major matrix with leading dimension ld, at global offset
// (row0, col0) so positional operators see global vertex ids.
template <class T>
struct Block {
  T* data;
  int64_t ld;
  int64_t row0;
  int64_t col0;
  T* row(int64_t i) const noexcept { return data + i * ld; }
};

// The register tile of multiply_add: micro_rows x micro_cols entries of X stay in registers while
// k runs over the whole inner dimension (as in BLAS micro-kernels), so each product costs a load of
// Z shared by micro_rows rows, and X is read and written once per tile instead of once per k.
// 3 x 16 fp32 fits the 16 vector registers of SSE/AVX machines with room for Z and the broadcast
// (4 x 16 spilled on a 128-bit-wide AVX2 core and ran 15 to 30% slower).
inline constexpr int micro_rows = 3;
inline constexpr int micro_cols = 16;
// multiply_add's cache block of Z: 128 x 256 entries (128 KiB of fp32) stay in a core's L2.
inline constexpr int64_t cache_k = 128;
inline constexpr int64_t cache_j = 256;

// X(0:micro_rows, 0:micro_cols) ⊕= Y(0:micro_rows, 0:p) ⊗ Z(0:p, 0:micro_cols); (gi, gk, gj) are the
// global ids of the tile's first row, intermediate and column. A closure's three matrices are one;
// a product's (gql/cpu/dense_products.hpp) may hold three element types.
template <class S, int rows = micro_rows, class T, class TY, class TZ>
inline void micro_tile(T* x, int64_t ldx, const TY* y, int64_t ldy, const TZ* z, int64_t ldz, int64_t p,
                       long long gi, long long gk, long long gj) {
  T acc[rows][micro_cols];
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < micro_cols; ++c) acc[r][c] = x[r * ldx + c];
  for (int64_t k = 0; k < p; ++k) {
    const TZ* zk = z + k * ldz;
#pragma GCC unroll 8
    for (int r = 0; r < rows; ++r) {
      const TY a = y[r * ldy + k];
      // The columns are independent: one vector operation per few of them.
#pragma omp simd
      for (int c = 0; c < micro_cols; ++c) acc[r][c] = S::agg(acc[r][c], S::con(a, zk[c], gi + r, gk + k, gj + c));
    }
  }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < micro_cols; ++c) x[r * ldx + c] = acc[r][c];
}

// Row i of X, columns [j0, q): x ⊕= y(0:p) ⊗ Z(0:p, j0:q), four k at a time (one load and store of x
// per four products; agg is associative).
template <class S, class T>
inline void row_update(Block<T> X, Block<T> Y, Block<T> Z, int64_t i, int64_t p, int64_t j0, int64_t q) {
  T* x = X.row(i);
  const T* y = Y.row(i);
  const long long gi = X.row0 + i;
  int64_t k = 0;
  for (; k + 4 <= p; k += 4) {
    const T a0 = y[k], a1 = y[k + 1], a2 = y[k + 2], a3 = y[k + 3];
    const T *z0 = Z.row(k), *z1 = Z.row(k + 1), *z2 = Z.row(k + 2), *z3 = Z.row(k + 3);
    const long long gk = Y.col0 + k;
    for (int64_t j = j0; j < q; ++j) {
      const long long gj = X.col0 + j;
      const T c01 = S::agg(S::con(a0, z0[j], gi, gk, gj), S::con(a1, z1[j], gi, gk + 1, gj));
      const T c23 = S::agg(S::con(a2, z2[j], gi, gk + 2, gj), S::con(a3, z3[j], gi, gk + 3, gj));
      x[j] = S::agg(x[j], S::agg(c01, c23));
    }
  }
  for (; k < p; ++k) {
    const T a = y[k];
    const T* z = Z.row(k);
    const long long gk = Y.col0 + k;
    for (int64_t j = j0; j < q; ++j) x[j] = S::agg(x[j], S::con(a, z[j], gi, gk, X.col0 + j));
  }
}

// X ⊕= Y ⊗ Z for an m x q block X, m x p block Y and p x q block Z (any loop order is correct
// for idempotent agg, even when X is Y or Z: reading an updated value only adds valid paths, and
// a value read before its update is still between the old and the new one).
template <class S, class T>
inline void multiply_add(Block<T> X, Block<T> Y, Block<T> Z, int64_t m, int64_t p, int64_t q,
                         Block<int32_t>* px = nullptr, const Block<int32_t>* pz = nullptr) {
  if (!px) {
    // Cache blocks of Z (cache_k x cache_j) stay in L2 while every row of X passes over them.
    for (int64_t k0 = 0; k0 < p; k0 += cache_k) {
      const int64_t pk = std::min(cache_k, p - k0);
      const Block<T> Yk{Y.data + k0, Y.ld, Y.row0, Y.col0 + k0};
      const Block<T> Zk{Z.data + k0 * Z.ld, Z.ld, Z.row0 + k0, Z.col0};
      for (int64_t j0 = 0; j0 < q; j0 += cache_j) {
        const int64_t j1 = std::min(q, j0 + cache_j);
        const int64_t j_tiled = j0 + (j1 - j0) / micro_cols * micro_cols;
        // Rows in groups of micro_rows, the last group smaller (1 or 2 rows).
        static_assert(micro_rows == 3, "the dispatch below names every smaller group");
        for (int64_t i = 0; i < m; i += micro_rows) {
          const int64_t group = std::min<int64_t>(micro_rows, m - i);
          for (int64_t j = j0; j < j_tiled; j += micro_cols) {
            T* x = X.row(i) + j;
            const T* z = Zk.data + j;
            const long long gi = X.row0 + i, gj = X.col0 + j;
            if (group == micro_rows) micro_tile<S>(x, X.ld, Yk.row(i), Yk.ld, z, Zk.ld, pk, gi, Yk.col0, gj);
            else if (group == 2) micro_tile<S, 2>(x, X.ld, Yk.row(i), Yk.ld, z, Zk.ld, pk, gi, Yk.col0, gj);
            else micro_tile<S, 1>(x, X.ld, Yk.row(i), Yk.ld, z, Zk.ld, pk, gi, Yk.col0, gj);
          }
          for (int64_t r = i; r < i + group; ++r) row_update<S>(X, Yk, Zk, r, pk, j_tiled, j1);
        }
      }
    }
    return;
  }
  // With predecessors: one k at a time, recording the predecessor wherever an entry changes.
  for (int64_t i = 0; i < m; ++i) {
    T* x = X.row(i);
    const T* y = Y.row(i);
    int32_t* pxr = px->row(i);
    const long long gi = X.row0 + i;
    for (int64_t k = 0; k < p; ++k) {
      const T a = y[k];
      const T* z = Z.row(k);
      const int32_t* pzr = pz->row(k);
      const long long gk = Y.col0 + k;
      for (int64_t j = 0; j < q; ++j) {
        const T v = S::agg(x[j], S::con(a, z[j], gi, gk, X.col0 + j));
        if (v != x[j]) {
          x[j] = v;
          pxr[j] = pzr[j];
        }
      }
    }
  }
}

// Plain Floyd-Warshall on a square diagonal block of size b (k outermost).
template <class S, class T>
inline void floyd_warshall_block(Block<T> D, int64_t b, Block<int32_t>* pd = nullptr) {
  for (int64_t k = 0; k < b; ++k) {
    Block<T> Dk{D.data + k, D.ld, D.row0, D.col0 + k};     // column k
    Block<T> Rk{D.data + k * D.ld, D.ld, D.row0 + k, D.col0};  // row k
    if (pd) {
      Block<int32_t> Pk{pd->data + k * pd->ld, pd->ld, pd->row0 + k, pd->col0};
      multiply_add<S>(D, Dk, Rk, b, 1, b, pd, &Pk);
    } else {
      multiply_add<S>(D, Dk, Rk, b, 1, b);
    }
  }
}

template <class T>
Block<T> block_at(T* base, int64_t n, int64_t r, int64_t c) {
  return {base + r * n + c, n, r, c};
}

template <class S, class T>
void closure_tiled(T* d, int64_t n, int64_t tile, bool use_tasks, int32_t* pred) {
  const int64_t nt = (n + tile - 1) / tile;
  const auto extent = [&](int64_t t) { return std::min(tile, n - t * tile); };
  // X(tile xr, xc) ⊕= Y(tile yr, yc) ⊗ Z(tile zr, zc), with predecessors when asked.
  const auto update = [&](int64_t xr, int64_t xc, int64_t kt) {
    auto X = block_at(d, n, xr * tile, xc * tile);
    auto Y = block_at(d, n, xr * tile, kt * tile);
    auto Z = block_at(d, n, kt * tile, xc * tile);
    if (pred) {
      auto PX = block_at(pred, n, xr * tile, xc * tile);
      auto PZ = block_at(pred, n, kt * tile, xc * tile);
      multiply_add<S>(X, Y, Z, extent(xr), extent(kt), extent(xc), &PX, &PZ);
    } else {
      multiply_add<S>(X, Y, Z, extent(xr), extent(kt), extent(xc));
    }
  };
  const auto diagonal = [&](int64_t kt) {
    auto D = block_at(d, n, kt * tile, kt * tile);
    if (pred) {
      auto P = block_at(pred, n, kt * tile, kt * tile);
      floyd_warshall_block<S>(D, extent(kt), &P);
    } else {
      floyd_warshall_block<S>(D, extent(kt));
    }
  };

  if (use_tasks) {
    // One dependence token per tile; a tile's tasks run in program order through them.
    std::vector<char> token(static_cast<size_t>(nt * nt));
    char* tk = token.data();
#pragma omp parallel
#pragma omp single
    for (int64_t kt = 0; kt < nt; ++kt) {
#pragma omp task depend(inout : tk[kt * nt + kt]) firstprivate(kt)
      diagonal(kt);
      for (int64_t t = 0; t < nt; ++t) {
        if (t == kt) continue;
#pragma omp task depend(in : tk[kt * nt + kt]) depend(inout : tk[kt * nt + t]) firstprivate(kt, t)
        update(kt, t, kt);
#pragma omp task depend(in : tk[kt * nt + kt]) depend(inout : tk[t * nt + kt]) firstprivate(kt, t)
        update(t, kt, kt);
      }
      for (int64_t r = 0; r < nt; ++r) {
        if (r == kt) continue;
        for (int64_t c = 0; c < nt; ++c) {
          if (c == kt) continue;
#pragma omp task depend(in : tk[r * nt + kt], tk[kt * nt + c]) depend(inout : tk[r * nt + c]) \
    firstprivate(kt, r, c)
          update(r, c, kt);
        }
      }
    }
    return;
  }
  for (int64_t kt = 0; kt < nt; ++kt) {
    diagonal(kt);
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t t = 0; t < 2 * nt; ++t) {
      const int64_t other = t / 2;
      if (other == kt) continue;
      if (t % 2 == 0) update(kt, other, kt);
      else update(other, kt, kt);
    }
#pragma omp parallel for collapse(2) schedule(dynamic, 1)
    for (int64_t r = 0; r < nt; ++r)
      for (int64_t c = 0; c < nt; ++c)
        if (r != kt && c != kt) update(r, c, kt);
  }
}

// X ⊕= Y ⊗ Z in parallel: over rows of X unless X is Z (then row k of Z is read while row k of X
// is written), in which case over columns, which X ⊕= Y ⊗ X keeps independent.
template <class S, class T>
void parallel_multiply_add(Block<T> X, Block<T> Y, Block<T> Z, int64_t m, int64_t p, int64_t q,
                           Block<int32_t>* px, const Block<int32_t>* pz, int64_t grain) {
  const bool by_columns = X.data == Z.data;
  const int64_t extent = by_columns ? q : m;
  const int64_t parts = (extent + grain - 1) / grain;
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t part = 0; part < parts; ++part) {
    const int64_t lo = part * grain, len = std::min(grain, extent - lo);
    if (by_columns) {
      Block<T> Xs{X.data + lo, X.ld, X.row0, X.col0 + lo};
      Block<T> Zs{Z.data + lo, Z.ld, Z.row0, Z.col0 + lo};
      if (px) {
        Block<int32_t> Ps{px->data + lo, px->ld, px->row0, px->col0 + lo};
        Block<int32_t> Qs{pz->data + lo, pz->ld, pz->row0, pz->col0 + lo};
        multiply_add<S>(Xs, Y, Zs, m, p, len, &Ps, &Qs);
      } else {
        multiply_add<S>(Xs, Y, Zs, m, p, len);
      }
    } else {
      Block<T> Xs{X.data + lo * X.ld, X.ld, X.row0 + lo, X.col0};
      Block<T> Ys{Y.data + lo * Y.ld, Y.ld, Y.row0 + lo, Y.col0};
      if (px) {
        Block<int32_t> Ps{px->data + lo * px->ld, px->ld, px->row0 + lo, px->col0};
        multiply_add<S>(Xs, Ys, Z, len, p, q, &Ps, pz);
      } else {
        multiply_add<S>(Xs, Ys, Z, len, p, q);
      }
    }
  }
}

// R-Kleene on the square block at (r0, r0) of size b.
template <class S, class T>
void closure_recursive(T* d, int32_t* pred, int64_t n, int64_t r0, int64_t b, int64_t base, int64_t grain) {
  const auto P = [&](int64_t r, int64_t c) { return block_at(pred, n, r, c); };
  if (b <= base) {
    auto D = block_at(d, n, r0, r0);
    if (pred) {
      auto PD = P(r0, r0);
      floyd_warshall_block<S>(D, b, &PD);
    } else {
      floyd_warshall_block<S>(D, b);
    }
    return;
  }
  const int64_t h = b / 2, r1 = r0 + h, h2 = b - h;
  const auto mul = [&](int64_t xr, int64_t xc, int64_t yc, int64_t m, int64_t p, int64_t q) {
    // X = (xr, xc), Y = (xr, yc), Z = (yc, xc): X ⊕= Y ⊗ Z.
    auto X = block_at(d, n, xr, xc), Y = block_at(d, n, xr, yc), Z = block_at(d, n, yc, xc);
    if (pred) {
      auto PX = P(xr, xc), PZ = P(yc, xc);
      parallel_multiply_add<S>(X, Y, Z, m, p, q, &PX, &PZ, grain);
    } else {
      parallel_multiply_add<S>(X, Y, Z, m, p, q, nullptr, nullptr, grain);
    }
  };
  closure_recursive<S>(d, pred, n, r0, h, base, grain);  // A = A*
  mul(r0, r1, r0, h, h, h2);                             // B ⊕= A B
  mul(r1, r0, r0, h2, h, h);                             // C ⊕= C A
  mul(r1, r1, r0, h2, h, h2);                            // D ⊕= C B
  closure_recursive<S>(d, pred, n, r1, h2, base, grain); // D = D*
  mul(r0, r1, r1, h, h2, h2);                            // B ⊕= B D
  mul(r1, r0, r1, h2, h2, h);                            // C ⊕= D C
  mul(r0, r0, r1, h, h2, h);                             // A ⊕= B C
}

}  // namespace detail

// Initial predecessors for closure() (gql/common/closure_predecessors.hpp).
using common::initial_predecessors;

// closure(D) in place; pred (from initial_predecessors) is updated along when given.
template <class S, class T>
void closure(Matrix<T>& D, const ClosureOptions& options = {}, Matrix<int32_t>* pred = nullptr) {
  static_assert(std::is_same_v<storage_t<T>, typename S::value_type> ||
                    std::is_same_v<T, typename S::value_type>,
                "closure: the matrix holds the semiring's values");
  const int64_t n = D.n_rows();
  if (D.n_cols() != n)
    throw Error(ErrorKind::usage, "closure: the matrix is " + std::to_string(n) + " x " +
                                      std::to_string(D.n_cols()) + ", not square");
  if (pred && (pred->n_rows() != n || pred->n_cols() != n))
    throw Error(ErrorKind::usage, "closure: the predecessor matrix's shape differs from the matrix's");
  if (options.tile < 1 || options.recursive_base < 1)
    throw Error(ErrorKind::usage, "closure: tile and base must be positive");
  if (n == 0) return;
  auto* d = D.data().data();
  int32_t* p = pred ? pred->data().data() : nullptr;
  switch (options.variant) {
    case ClosureVariant::tasks: detail::closure_tiled<S>(d, n, options.tile, true, p); break;
    case ClosureVariant::parallel_for: detail::closure_tiled<S>(d, n, options.tile, false, p); break;
    case ClosureVariant::recursive:
      detail::closure_recursive<S>(d, p, n, 0, n, options.recursive_base, std::max<int64_t>(options.tile / 2, 16));
      break;
  }
}

}  // namespace gql::cpu
