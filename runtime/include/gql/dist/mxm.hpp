// C = A * B over S on every rank, the rows of A divided among the ranks by their work (the products
// each row makes); each rank multiplies its rows by the whole of B with the OpenMP product
// (gql/cpu/spgemm.hpp) and the blocks are joined on every rank. The entries are those of the product
// on one process, in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gql/cpu/parallel.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::dist {
namespace detail {

// S, its rows counted from `first_row`: a block of A's rows multiplied on its own is rows 0.. to the
// product, so a con that reads i is handed the row's place in A. One product at a time per process
// (a distributed op is a collective call, in one order on every rank).
template <class S>
struct RowsFrom : S {
  static inline long long first_row = 0;
  template <class A, class B>
  static typename S::value_type con(A a, B b, long long i, long long k, long long j) {
    return S::con(a, b, i + first_row, k, j);
  }
};

// The products each row of A makes (one at least, for rows without any): prefix[i] for rows [0, i).
template <class TA, class TB>
std::vector<int64_t> product_work(const Csr<TA>& A, const Csr<TB>& B) {
  const int64_t n = A.n_rows();
  const auto a_off = A.row_offsets();
  const auto a_col = A.col_indices();
  const auto b_off = B.row_offsets();
  std::vector<int64_t> prefix(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(static, 1024) if (cpu::worth_threads(n))
  for (int64_t i = 0; i < n; ++i) {
    prefix[static_cast<size_t>(i) + 1] = 1 + cpu::row_products(a_off, a_col, b_off, i);
  }
  for (size_t i = 0; i < static_cast<size_t>(n); ++i) prefix[i + 1] += prefix[i];
  return prefix;
}

}  // namespace detail

template <class S, class TA, class TB>
Csr<typename S::value_type> mxm(const World& world, const Csr<TA>& A, const Csr<TB>& B,
                                const cpu::SpgemmOptions& options = {}) {
  using V = typename S::value_type;
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  Csr<V> block;
  world.on_every_rank([&] {
    if (world.size() == 1) {  // the whole of A: no block to cut out
      block = cpu::spgemm<S>(A, B, {}, options);
      return;
    }
    const std::vector<int64_t> work = detail::product_work(A, B);
    const RowRange mine = rows_by_work(work, world.size(), world.rank());
    const Csr<TA> rows = rows_of(A, mine);
    if constexpr (S::positional) {
      detail::RowsFrom<S>::first_row = mine.begin;
      block = cpu::spgemm<detail::RowsFrom<S>>(rows, B, {}, options);
    } else {
      block = cpu::spgemm<S>(rows, B, {}, options);
    }
  });
  return detail::joined_rows(world, std::move(block), B.n_cols());
}

}  // namespace gql::dist
