// C<mask> = A * B over S, the rows of A divided among the ranks by their work (the products each row
// makes); each rank multiplies its rows by the whole of B through the mask's same rows with the
// OpenMP product (gql/cpu/spgemm.hpp), and the blocks are joined on every rank (mxm), on one (mxm_on)
// or left split (A split: gql/dist/split_graph.hpp; B whole on every rank, or split too, each rank
// fetching the rows of B that its rows of A need: gql/dist/fetched_rows.hpp). The entries are those
// of the product on one process, in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gql/cpu/ops.hpp"
#include "gql/cpu/parallel.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/dist/fetched_rows.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

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

// `rows` (rows first_row.. of A) times B over S: a positional con is handed each row's place in A.
template <class S, class TA, class Multiply>
Csr<typename S::value_type> multiply_rows(const Csr<TA>& rows, int64_t first_row, Multiply&& multiply) {
  if constexpr (S::positional) {
    RowsFrom<S>::first_row = first_row;
    return multiply.template operator()<RowsFrom<S>>(rows);
  } else {
    return multiply.template operator()<S>(rows);
  }
}

// A product's work over the ranks, for a kernel's --stats and --explain: every rank's products and
// entries summed (a collective call: every rank makes it, with or without a context).
inline void count_product(const World& world, KernelContext* ctx, const cpu::ProductOptions& options,
                          const cpu::SpgemmStats& mine, const std::string& how) {
  if (ctx == nullptr) return;
  int64_t sums[] = {mine.products, mine.nvals};
  world.sum(std::span<int64_t>(sums));
  ctx->work().products += sums[0];
  if (ctx->explaining())
    ctx->explain(options.label, "mxm over " + std::to_string(world.size()) + " ranks, " + how + ", " +
                                    std::to_string(sums[0]) + " products, " + std::to_string(sums[1]) + " entries");
}

// This rank's rows of C<mask> = A * B over S: A's rows in blocks of equal products; `ctx` (if any)
// counts every rank's products.
template <class S, class TA, class TB>
Csr<typename S::value_type> product_rows(const World& world, const Csr<TA>& A, const Csr<TB>& B,
                                         const cpu::MatrixMask& mask, const cpu::ProductOptions& options,
                                         KernelContext* ctx) {
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
  Csr<V> block;
  cpu::SpgemmStats stats;
  world.on_every_rank([&] {
    // The whole of A on one rank: no block to cut out.
    const RowRange mine = world.size() == 1 ? RowRange{0, A.n_rows()}
                                            : rows_by_work(product_work(A, B), world.size(), world.rank());
    const cpu::MatrixMask rows_mask = world.size() == 1 ? mask : mask_rows(mask, mine);
    const auto multiply = [&]<class P>(const Csr<TA>& rows) {
      if (choice.method == cpu::MaskedMethod::dot)
        return cpu::masked_dot_product<P>(rows, B, cpu::transpose_of(B), rows_mask, {}, &stats);
      return cpu::spgemm<P>(rows, B, rows_mask, spgemm, &stats);
    };
    block = world.size() == 1 ? multiply_rows<S>(A, 0, multiply) : multiply_rows<S>(rows_of(A, mine), mine.begin, multiply);
  });
  count_product(world, ctx, options, stats,
                choice.method == cpu::MaskedMethod::dot ? "by the mask's entries (dot)" : "by rows (saxpy)");
  return block;
}

}  // namespace detail

// `ctx`, when given, counts every rank's products (--stats) and says how the product ran (--explain),
// here and in the other products below.
template <class S, class TA, class TB>
Csr<typename S::value_type> mxm(const World& world, const Csr<TA>& A, const Csr<TB>& B,
                                const cpu::MatrixMask& mask = {}, const cpu::ProductOptions& options = {},
                                KernelContext* ctx = nullptr) {
  return detail::joined_rows(world, detail::product_rows<S>(world, A, B, mask, options, ctx), B.n_cols());
}

// The same product joined on rank `root` only, for a result that only the root reads (a program's
// result, written by rank 0): the other ranks get C's shape without entries.
template <class S, class TA, class TB>
Csr<typename S::value_type> mxm_on(const World& world, int root, const Csr<TA>& A, const Csr<TB>& B,
                                   const cpu::MatrixMask& mask = {}, const cpu::ProductOptions& options = {},
                                   KernelContext* ctx = nullptr) {
  return detail::joined_rows_on(world, detail::product_rows<S>(world, A, B, mask, options, ctx), B.n_cols(), root);
}

// C = A * B over S with A split across the ranks (gql/dist/split_graph.hpp) and B on every rank: each
// rank multiplies its own rows, and C comes split by A's row starts, so the product's rows never
// travel. The entries are those of the one-process product.
template <class S, class TA, class TB>
SplitGraph<typename S::value_type> mxm(const World& world, const SplitGraph<TA>& A, const Csr<TB>& B,
                                       const cpu::ProductOptions& options = {}, KernelContext* ctx = nullptr) {
  using V = typename S::value_type;
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  const cpu::ThreadScope threads(options.threads);
  cpu::SpgemmOptions spgemm;
  spgemm.accumulator = options.accumulator;
  Csr<V> block;
  cpu::SpgemmStats stats;
  world.on_every_rank([&] {
    block = detail::multiply_rows<S>(A.block(), A.mine().begin, [&]<class P>(const Csr<TA>& rows) {
      return cpu::spgemm<P>(rows, B, cpu::MatrixMask{}, spgemm, &stats);
    });
  });
  detail::count_product(world, ctx, options, stats, "each rank's own rows of a split A");
  const int64_t nvals = world.sum(block.nvals());
  return SplitGraph<V>(A.n_rows(), B.n_cols(), nvals, A, std::move(block), false);
}

// C = A * B over S with A and B both split across the ranks: each rank fetches the rows of B that its
// block's columns name (fetched_rows) and multiplies its own rows by them, so no rank holds more of B
// than those rows; C comes split by A's row starts. The entries are those of the one-process product.
template <class S, class TA, class TB>
SplitGraph<typename S::value_type> mxm(const World& world, const SplitGraph<TA>& A, const SplitGraph<TB>& B,
                                       const cpu::ProductOptions& options = {}, KernelContext* ctx = nullptr) {
  if (A.n_cols() != B.n_rows())
    throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(A.n_cols()) + " and " +
                                      std::to_string(B.n_rows()) + ")");
  const Csr<TB> rows = fetched_rows(world, B, detail::distinct_columns(A.block()));
  return mxm<S>(world, A, rows, options, ctx);
}

}  // namespace gql::dist
