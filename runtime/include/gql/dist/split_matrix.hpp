// A dense matrix split across ranks by blocks of rows: each rank holds its own rows only, so a
// matrix that one process cannot hold (all-pairs distances past a few hundred thousand vertices) can
// be held by several. The blocks are consecutive, one per rank in rank order, in whole units of rows
// (the closure's k-blocks), as even as the units allow.
//
// Made from a matrix every rank holds (split_rows: each keeps its block) or from one rank's matrix
// (scatter_rows: the others never hold more than their block); gathered back whole on every rank by
// gathered(). The closure over a split matrix is in gql/dist/closure.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

// The rows of a split matrix's blocks come in whole units of this many (the distributed closure's
// k-block, gql/dist/closure.hpp), unless a caller asks for another unit.
inline constexpr int64_t default_row_unit = 64;

template <class T>
class SplitMatrix : public RowBlocks {
 public:
  // `blocks`: where every rank's rows start; `block`: this rank's rows of an n_rows x n_cols matrix
  // (row r is row r - mine().begin there).
  SplitMatrix(int64_t n_rows, int64_t n_cols, RowBlocks blocks, Matrix<T> block)
      : RowBlocks(std::move(blocks)), n_rows_(n_rows), n_cols_(n_cols), block_(std::move(block)) {}
  // A 0 x 0 matrix (a kernel's variable before its first assignment).
  SplitMatrix() : RowBlocks({0, 0}, 0) {}
  SplitMatrix(SplitMatrix&&) noexcept = default;
  SplitMatrix& operator=(SplitMatrix&&) noexcept = default;
  SplitMatrix(const SplitMatrix&) = delete;
  SplitMatrix& operator=(const SplitMatrix&) = delete;
  SplitMatrix clone() const { return SplitMatrix(n_rows_, n_cols_, RowBlocks(*this), block_.clone()); }

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  Matrix<T>& block() noexcept { return block_; }
  const Matrix<T>& block() const noexcept { return block_; }

 private:
  int64_t n_rows_ = 0, n_cols_ = 0;
  Matrix<T> block_;
};

// The language's rows/cols/nvals of the whole matrix, as gql/graph.hpp has them for the other
// containers (and found as gql::rows too, below).
template <class T> int64_t rows(const SplitMatrix<T>& m) noexcept { return m.n_rows(); }
template <class T> int64_t cols(const SplitMatrix<T>& m) noexcept { return m.n_cols(); }
template <class T> int64_t nvals(const SplitMatrix<T>& m) noexcept { return m.n_rows() * m.n_cols(); }

namespace detail {

template <class T>
std::span<const storage_t<T>> matrix_rows(const Matrix<T>& D, RowRange rows) {
  const auto width = static_cast<size_t>(D.n_cols());
  return std::span<const storage_t<T>>(D.data()).subspan(static_cast<size_t>(rows.begin) * width,
                                                         static_cast<size_t>(rows.size()) * width);
}

}  // namespace detail

// Each rank keeps its block of D, which every rank holds alike: blocks in whole units of `unit` rows.
template <class T>
SplitMatrix<T> split_rows(const World& world, const Matrix<T>& D, int64_t unit = default_row_unit) {
  RowBlocks blocks(detail::even_starts(D.n_rows(), world.size(), unit), world.rank());
  const RowRange mine = blocks.mine();
  Matrix<T> block;
  world.on_every_rank([&] {
    const auto rows = detail::matrix_rows(D, mine);
    block = Matrix<T>(mine.size(), D.n_cols(), Array<storage_t<T>>(rows.begin(), rows.end()));
  });
  return SplitMatrix<T>(D.n_rows(), D.n_cols(), std::move(blocks), std::move(block));
}

// Rank `root`'s D sent out in blocks (D read on `root` only, null elsewhere); no other rank holds
// more than its block.
template <class T>
SplitMatrix<T> scatter_rows(const World& world, const Matrix<T>* D, int root = 0, int64_t unit = default_row_unit) {
  if (root < 0 || root >= world.size())
    throw Error(ErrorKind::usage, "scatter_rows: root " + std::to_string(root) + " of " +
                                      std::to_string(world.size()) + " ranks");
  world.on_every_rank([&] {
    if (world.rank() == root && D == nullptr) throw Error(ErrorKind::usage, "scatter_rows: no matrix on the root rank");
  });
  int64_t shape[2] = {0, 0};
  if (world.rank() == root) shape[0] = D->n_rows(), shape[1] = D->n_cols();
  world.broadcast(std::as_writable_bytes(std::span<int64_t>(shape)), root);
  RowBlocks blocks(detail::even_starts(shape[0], world.size(), unit), world.rank());
  // The root sends every rank its rows as they lie in D (the blocks are D's rows in rank order).
  std::vector<World::Pieces> to_each(static_cast<size_t>(world.size()));
  if (world.rank() == root)
    for (int r = 0; r < world.size(); ++r)
      to_each[static_cast<size_t>(r)] = {std::as_bytes(detail::matrix_rows(*D, blocks.rows_of_rank(r)))};
  std::vector<int64_t> from_each;
  const std::vector<std::byte> incoming = world.exchange(to_each, from_each);
  const RowRange mine = blocks.mine();
  Matrix<T> block;
  world.on_every_rank([&] {
    Array<storage_t<T>> data(static_cast<size_t>(mine.size() * shape[1]));
    std::memcpy(data.data(), incoming.data(), incoming.size());
    block = Matrix<T>(mine.size(), shape[1], std::move(data));
  });
  return SplitMatrix<T>(shape[0], shape[1], std::move(blocks), std::move(block));
}

// The whole matrix on every rank: the blocks joined in rank order.
template <class T>
Matrix<T> gathered(const World& world, const SplitMatrix<T>& D) {
  Matrix<T> whole;
  world.on_every_rank([&] { whole = Matrix<T>(D.n_rows(), D.n_cols()); });
  const RowRange mine = D.mine();
  const auto rows = detail::matrix_rows(D.block(), RowRange{0, mine.size()});
  std::copy(rows.begin(), rows.end(), whole.data().begin() + mine.begin * D.n_cols());
  detail::join_dense_rows(world, whole, mine.begin, mine.end);
  return whole;
}

}  // namespace gql::dist

namespace gql {
using dist::cols;
using dist::nvals;
using dist::rows;
}  // namespace gql
