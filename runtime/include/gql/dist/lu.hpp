// lu(A) over the ranks: LU with partial pivoting, right-looking by panels of `tile` columns as the
// one-process LU (gql/cpu/lu.hpp), the panels dealt to the ranks in turn (panel p to rank p mod R,
// ScaLAPACK's 1-D block-cyclic columns: every rank keeps trailing columns to update until the last
// panels, where row blocks would leave the first ranks idle). For each panel, its rank factors it
// with the one-process panel factorization and broadcasts it (its rows from the diagonal down) with
// its pivots; then every rank applies the pivots' swaps to its own panels, left and right, and
// updates its own trailing panels: U's block row by the triangular solve, then A22 -= L21 U12, by the
// one-process BLAS calls on its panels' columns. BLAS computes each entry of a solve or a product
// from its own row and column in an order that does not depend on how many columns a call takes, so
// every entry goes through the one-process LU's operations in its order: the factors and pivots are
// the one-process op's, bit for bit. At the end the ranks' panels are joined on every rank.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gql/cpu/lu.hpp"
#include "gql/cpu/lu_options.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/dist/cyclic_panels.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist {
namespace detail {

// Rows [r0, n) of columns [c0, c1) of the row-major n x n matrix `a`, copied to or from `packed`
// (row after row).
template <class T>
void pack_columns(const T* a, int64_t n, int64_t r0, int64_t c0, int64_t c1, T* packed) {
  const int64_t w = c1 - c0;
#pragma omp parallel for schedule(static) if (cpu::worth_threads((n - r0) * w))
  for (int64_t i = r0; i < n; ++i) std::copy(a + i * n + c0, a + i * n + c1, packed + (i - r0) * w);
}
template <class T>
void unpack_columns(const T* packed, int64_t n, int64_t r0, int64_t c0, int64_t c1, T* a) {
  const int64_t w = c1 - c0;
#pragma omp parallel for schedule(static) if (cpu::worth_threads((n - r0) * w))
  for (int64_t i = r0; i < n; ++i) std::copy(packed + (i - r0) * w, packed + (i - r0 + 1) * w, a + i * n + c0);
}

// Every rank's panels, whole columns, joined on every rank's copy of `a`.
template <class T>
void join_panels(const World& world, const CyclicPanels& panels, T* a) {
  const int64_t n = panels.n;
  std::vector<int64_t> sizes(static_cast<size_t>(world.size()), 0);
  for (int r = 0; r < world.size(); ++r)
    panels.each_of(r, [&](int64_t c0, int64_t c1) { sizes[static_cast<size_t>(r)] += n * (c1 - c0) * sizeof(T); });
  std::vector<T> mine(static_cast<size_t>(sizes[static_cast<size_t>(world.rank())] / sizeof(T)));
  int64_t at = 0;
  panels.each_of(world.rank(), [&](int64_t c0, int64_t c1) {
    pack_columns(a, n, 0, c0, c1, mine.data() + at);
    at += n * (c1 - c0);
  });
  int64_t total = 0;
  for (int64_t s : sizes) total += s;
  std::vector<T> joined(static_cast<size_t>(total / sizeof(T)));
  world.join_parts(std::as_bytes(std::span<const T>(mine)), sizes, std::as_writable_bytes(std::span<T>(joined)));
  at = 0;
  for (int r = 0; r < world.size(); ++r)
    panels.each_of(r, [&](int64_t c0, int64_t c1) {
      if (r != world.rank()) unpack_columns(joined.data() + at, n, 0, c0, c1, a);
      at += n * (c1 - c0);
    });
}

}  // namespace detail

// The factors of A, on every rank (A on every rank).
template <class T>
cpu::LuFactors<T> lu(const World& world, const Matrix<T>& A, int64_t tile = 128) {
  static_assert(std::is_floating_point_v<T>, "lu: the element type must be floating point");
  const int64_t n = A.n_rows();
  cpu::detail::check_lu_arguments(n, A.n_cols(), tile);
  cpu::LuFactors<T> out{A.clone(), std::vector<int32_t>(static_cast<size_t>(n))};
  T* a = out.lu.data().data();
  const CyclicPanels panels{n, tile, world.size()};
  const int me = world.rank();
  std::vector<T> panel(static_cast<size_t>(n * std::min(n, tile)));
  for (int64_t k0 = 0; k0 < n; k0 += tile) {
    const int64_t k1 = std::min(n, k0 + tile), w = k1 - k0;
    const int holder = panels.owner(k0);
    // A singular panel is its rank's error, thrown on every rank alike.
    world.on_every_rank([&] {
      if (holder != me) return;
      cpu::detail::factor_panel(a, n, k0, k1, k0, k1, out.pivots, tile);
      detail::pack_columns(a, n, k0, k0, k1, panel.data());
    });
    const std::span<T> sent(panel.data(), static_cast<size_t>((n - k0) * w));
    world.broadcast(std::as_writable_bytes(sent), holder);
    world.broadcast(std::as_writable_bytes(std::span<int32_t>(out.pivots).subspan(static_cast<size_t>(k0),
                                                                                  static_cast<size_t>(w))),
                    holder);
    if (holder != me) detail::unpack_columns(panel.data(), n, k0, k0, k1, a);
    // The panel's swaps on this rank's other panels, then its trailing ones updated.
    panels.each_of(me, [&](int64_t c0, int64_t c1) {
      if (c0 == k0) return;
      for (int64_t k = k0; k < k1; ++k) {
        const int64_t p = out.pivots[static_cast<size_t>(k)];
        if (p != k) std::swap_ranges(a + k * n + c0, a + k * n + c1, a + p * n + c0);
      }
      if (c0 < k1) return;
      cpu::detail::unit_lower_solve(w, c1 - c0, a + k0 * n + k0, a + k0 * n + c0, n);
      if (k1 < n) cpu::detail::gemm_subtract(n - k1, c1 - c0, w, a + k1 * n + k0, a + k0 * n + c0, a + k1 * n + c0, n, tile);
    });
  }
  detail::join_panels(world, panels, a);
  return out;
}

// A kernel's lu op over the ranks (what a gqlc --mpi program calls): on one rank the one-process op,
// on several the panels dealt in turn (above); every rank ends with the factors and pivots. Counts the
// updates and says which ran, as the one-process op does (--stats, --explain).
template <class T>
void lu(const World& world, Matrix<T>& LU, Vector<int32_t>& pivots, const Matrix<T>& A, const cpu::LuOptions& options,
        KernelContext& ctx) {
  if (world.size() == 1) return cpu::lu(LU, pivots, A, options, ctx);
  const cpu::ThreadScope threads(options.threads);
  cpu::detail::write_lu_factors(LU, pivots, lu(world, A, options.tile), ctx);
  ctx.explain(options.label, "LU over " + std::to_string(world.size()) + " ranks, panels of " +
                                 std::to_string(options.tile) + " columns dealt in turn, trailing updates by " +
                                 "OpenBLAS gemm on each rank's panels");
}

}  // namespace gql::dist
