// closure(D) over S in place on every rank, by blocked Floyd-Warshall over row blocks: the rows are
// divided among the ranks in whole k-blocks; for each k-block its owner closes the block's rows over
// the block's k (plain Floyd-Warshall on those rows) and broadcasts them, and every rank updates its
// other rows with them, k by k. At the end the ranks' rows are joined on every rank. The answer is
// the closure whenever agg is idempotent (min, max, or, and, any): then it equals the one-process
// closure (gql/cpu/closure.hpp) for integers and for min/max over exact values.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gql/cpu/parallel.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
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

}  // namespace detail

template <class S, class T>
void closure(const World& world, Matrix<T>& D, int64_t k_block = 64) {
  using Stored = storage_t<T>;
  const int64_t n = D.n_rows();
  if (D.n_cols() != n)
    throw Error(ErrorKind::usage, "closure: the matrix is " + std::to_string(n) + " x " + std::to_string(D.n_cols()) +
                                      ", not square");
  if (k_block < 1) throw Error(ErrorKind::usage, "closure: the k-block must be positive");
  const RowRange mine = even_rows(n, world.size(), world.rank(), k_block);
  Stored* d = D.data().data();
  const auto row = [&](int64_t i) { return d + i * n; };
  std::vector<Stored> panel;
  world.on_every_rank([&] { panel.resize(static_cast<size_t>(std::min(n, k_block) * n)); });
  for (int64_t k0 = 0, owner = 0; k0 < n; k0 += k_block) {
    const int64_t k1 = std::min(n, k0 + k_block);
    while (even_rows(n, world.size(), static_cast<int>(owner), k_block).end <= k0) ++owner;
    if (owner == world.rank()) {
      for (int64_t k = k0; k < k1; ++k) {
        detail::fold_row<S>(row(k), row(k), n, k, k);  // row k first: the others read it
#pragma omp parallel for schedule(static) if (cpu::worth_threads((k1 - k0) * n))
        for (int64_t i = k0; i < k1; ++i)
          if (i != k) detail::fold_row<S>(row(i), row(k), n, i, k);
      }
      std::copy(row(k0), row(k1), panel.begin());
    }
    world.broadcast(std::as_writable_bytes(std::span<Stored>(panel.data(), static_cast<size_t>((k1 - k0) * n))),
                    static_cast<int>(owner));
#pragma omp parallel for schedule(static) if (cpu::worth_threads(mine.size() * (k1 - k0) * n))
    for (int64_t i = mine.begin; i < mine.end; ++i) {
      if (i >= k0 && i < k1) continue;  // the block's own rows: closed above
      for (int64_t k = k0; k < k1; ++k) detail::fold_row<S>(row(i), panel.data() + (k - k0) * n, n, i, k);
    }
  }
  detail::join_dense_rows(world, D, mine.begin, mine.end);
}

}  // namespace gql::dist
