// C<mask> = A * B over S on every rank, the rows of A divided among the ranks by their work (the
// products each row makes); each rank multiplies its rows by the whole of B through the mask's same
// rows with the OpenMP product (gql/cpu/spgemm.hpp), and the blocks are joined on every rank. The
// entries are those of the product on one process, in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gql/cpu/ops.hpp"
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

// Rows [range.begin, range.end) of a mask, as the mask of those rows multiplied on their own: its
// row offsets still index the whole mask's columns.
inline cpu::MatrixMask mask_rows(const cpu::MatrixMask& mask, RowRange range) {
  if (mask.mode() == cpu::MaskMode::none) return mask;
  cpu::MatrixMask rows = mask;
  rows.row_offsets = mask.row_offsets.subspan(static_cast<size_t>(range.begin), static_cast<size_t>(range.size()) + 1);
  rows.n_rows = range.size();
  return rows;
}

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
                                const cpu::MatrixMask& mask = {}, const cpu::ProductOptions& options = {}) {
  using V = typename S::value_type;
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  cpu::check_mask_shape(mask, A.n_rows(), B.n_cols(), "mxm");  // before any rank cuts its rows out of it
  // The OpenMP product's schedule: its threads, its accumulator, and through a mask its method, chosen
  // for the whole product (every rank alike, as one process chooses it).
  const cpu::ThreadScope threads(options.threads);
  cpu::SpgemmOptions spgemm;
  spgemm.accumulator = options.accumulator;
  const cpu::MaskedChoice choice = cpu::choose_masked_method(A, B, mask, options.masked);
  const auto multiply = [&]<class P>(const Csr<TA>& rows, const cpu::MatrixMask& rows_mask) {
    if (choice.method == cpu::MaskedMethod::dot)
      return cpu::masked_dot_product<P>(rows, B, cpu::transpose_of(B), rows_mask);
    return cpu::spgemm<P>(rows, B, rows_mask, spgemm);
  };
  Csr<V> block;
  world.on_every_rank([&] {
    if (world.size() == 1) {  // the whole of A: no block to cut out
      block = multiply.template operator()<S>(A, mask);
      return;
    }
    const std::vector<int64_t> work = detail::product_work(A, B);
    const RowRange mine = rows_by_work(work, world.size(), world.rank());
    const Csr<TA> rows = rows_of(A, mine);
    const cpu::MatrixMask rows_mask = detail::mask_rows(mask, mine);
    if constexpr (S::positional) {
      detail::RowsFrom<S>::first_row = mine.begin;
      block = multiply.template operator()<detail::RowsFrom<S>>(rows, rows_mask);
    } else {
      block = multiply.template operator()<S>(rows, rows_mask);
    }
  });
  return detail::joined_rows(world, std::move(block), B.n_cols());
}

}  // namespace gql::dist
