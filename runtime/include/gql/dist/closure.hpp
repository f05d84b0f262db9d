// closure(D) over S in place, by blocked Floyd-Warshall over row blocks: the rows are divided among
// the ranks in whole k-blocks; for each k-block its owner closes the block's rows over the block's k
// (plain Floyd-Warshall on those rows) and broadcasts them, and every rank updates its other rows with
// them through the one-process closure's tiled product (gql/cpu/closure.hpp). D is on every rank (the ranks' rows joined at the end) or split across them
// (gql/dist/split_matrix.hpp: each rank holds its rows only, and keeps them). The answer is
// the closure whenever agg is idempotent (min, max, or, and, any): then it equals the one-process
// closure (gql/cpu/closure.hpp) for integers and for min/max over exact values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gql/cpu/closure.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/split_matrix.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::dist {
namespace detail {

// Row i of x (n entries) folds in row k of the block: x(i, j) = agg(x(i, j), con(x(i, k), k_row(j))).
template <class S, class T>
void fold_row(T* x, const T* k_row, int64_t n, int64_t i, int64_t k) {
  const T through = x[k];
  for (int64_t j = 0; j < n; ++j) x[j] = S::agg(x[j], S::con(through, k_row[j], i, k, j));
}

// Rows of the other rows' update that one thread takes at a time (whole register tiles of 3 rows).
inline constexpr int64_t row_grain = 48;

// The closure of the n x n matrix whose rows [mine.begin, mine.end) this rank holds, row i at
// row(i) (consecutive rows n entries apart); `owner(k0)` is the rank holding the k-block from row k0,
// in whole k-blocks.
template <class S, class Stored, class Row, class Owner>
void close_rows(const World& world, int64_t n, int64_t k_block, RowRange mine, Row row, Owner owner) {
  std::vector<Stored> panel;
  world.on_every_rank([&] { panel.resize(static_cast<size_t>(std::min(n, k_block) * n)); });
  for (int64_t k0 = 0; k0 < n; k0 += k_block) {
    const int64_t k1 = std::min(n, k0 + k_block);
    const int holder = owner(k0);
    if (holder == world.rank()) {
      for (int64_t k = k0; k < k1; ++k) {
        fold_row<S>(row(k), row(k), n, k, k);  // row k first: the others read it
#pragma omp parallel for schedule(static) if (cpu::worth_threads((k1 - k0) * n))
        for (int64_t i = k0; i < k1; ++i)
          if (i != k) fold_row<S>(row(i), row(k), n, i, k);
      }
      std::copy(row(k0), row(k0) + (k1 - k0) * n, panel.begin());
    }
    world.broadcast(std::as_writable_bytes(std::span<Stored>(panel.data(), static_cast<size_t>((k1 - k0) * n))), holder);
    // The other rows, before and after the block's: X ⊕= X(:, k0:k1) ⊗ panel, through the one-process
    // closure's register-tiled product. The panel rows are closed over the block's k, so the
    // product's terms need the rows' values from before the block (or any later ones: agg is
    // idempotent), not the k-by-k order of the block's own rows.
    const cpu::detail::Block<Stored> Z{panel.data(), n, k0, 0};
    for (const RowRange rows : {RowRange{mine.begin, std::min(mine.end, k0)}, RowRange{std::max(mine.begin, k1), mine.end}}) {
      if (rows.size() <= 0) continue;
      const cpu::detail::Block<Stored> X{row(rows.begin), n, rows.begin, 0};
      const cpu::detail::Block<Stored> Y{row(rows.begin) + k0, n, rows.begin, k0};
      cpu::detail::parallel_multiply_add<S>(X, Y, Z, rows.size(), k1 - k0, n, nullptr, nullptr, row_grain);
    }
  }
}

inline void check_closure_shape(int64_t n_rows, int64_t n_cols, int64_t k_block) {
  if (n_cols != n_rows)
    throw Error(ErrorKind::usage, "closure: the matrix is " + std::to_string(n_rows) + " x " + std::to_string(n_cols) +
                                      ", not square");
  if (k_block < 1) throw Error(ErrorKind::usage, "closure: the k-block must be positive");
}

}  // namespace detail

// D on every rank, closed in place on every rank.
template <class S, class T>
void closure(const World& world, Matrix<T>& D, int64_t k_block = default_row_unit) {
  const int64_t n = D.n_rows();
  detail::check_closure_shape(n, D.n_cols(), k_block);
  const RowBlocks blocks(detail::even_starts(n, world.size(), k_block), world.rank());
  const RowRange mine = blocks.mine();
  storage_t<T>* d = D.data().data();
  detail::close_rows<S, storage_t<T>>(
      world, n, k_block, mine, [&](int64_t i) { return d + i * n; }, [&](int64_t k0) { return blocks.owner(k0); });
  detail::join_dense_rows(world, D, mine.begin, mine.end);
}

// D split across the ranks, each rank's rows closed in place there; D's blocks must be in whole
// k-blocks (split_rows or scatter_rows with `k_block` rows as the unit).
template <class S, class T>
void closure(const World& world, SplitMatrix<T>& D, int64_t k_block = default_row_unit) {
  const int64_t n = D.n_rows();
  detail::check_closure_shape(n, D.n_cols(), k_block);
  for (int64_t start : D.starts())
    if (start % k_block != 0 && start != n)
      throw Error(ErrorKind::usage, "closure: the split matrix's blocks are not in whole k-blocks of " +
                                        std::to_string(k_block) + " rows (a block starts at row " +
                                        std::to_string(start) + ")");
  const RowRange mine = D.mine();
  storage_t<T>* d = D.block().data().data();
  detail::close_rows<S, storage_t<T>>(
      world, n, k_block, mine, [&](int64_t i) { return d + (i - mine.begin) * n; },
      [&](int64_t k0) { return D.owner(k0); });
}

// A kernel's closure op over the ranks (what a gqlc --mpi program calls), D on every rank or split: on
// one rank the one-process op's tiled closure by the op's schedule (the rank's block is the whole
// matrix), on several the row-block closure above. Counts the updates and says which ran, as the
// one-process op does (--stats, --explain).
template <class S, class Value>
void closure(const World& world, Value& D, const cpu::ClosureSchedule& schedule, KernelContext& ctx) {
  const cpu::ThreadScope threads(schedule.threads);
  const int64_t n = D.n_rows();
  if (world.size() == 1) {
    if constexpr (requires { D.block(); }) cpu::closure<S>(D.block(), cpu::detail::closure_options(schedule));
    else cpu::closure<S>(D, cpu::detail::closure_options(schedule));
  } else {
    closure<S>(world, D);
  }
  ctx.work().updates += n * n * n;
  ctx.explain(schedule.label, world.size() == 1 ? std::string("closure on one rank, ") +
                                                      cpu::detail::variant_name(schedule.variant) + ", tile " +
                                                      std::to_string(schedule.tile)
                                                : "closure over " + std::to_string(world.size()) +
                                                      " ranks, row blocks of whole " +
                                                      std::to_string(default_row_unit) + "-row k-blocks");
}

}  // namespace gql::dist
