// vxm and mxv (and a union with a fused vxm) over the ranks: each rank's pull gathers a range of the
// result's columns, ranges of about equal in-edges in rank order, and the ranges' entries are joined
// on every rank. A pull folds each column over its in-edges in the same order wherever it runs, so
// the joined result is the one-process op's, bit for bit. The graph and the vectors are whole on every
// rank, so the direction rule decides alike everywhere; a push step (a sparse frontier, its few
// edges) runs whole on each rank, as in one process. The ops themselves are gql/cpu/ops.hpp's,
// handed a PullOverRanks: `cpu::vxm<S>(w, mask, replace, v, G, options, ctx, PullOverRanks(world))`.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "gql/cpu/vxm.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist {

// Rank `rank`'s columns of a pull over GT (the rows of G's transpose): a column costs its in-edges
// and one more (its own visit), and ranks take runs of about equal cost in rank order.
template <class TG>
cpu::detail::ColumnRange pull_columns(const Csr<TG>& GT, int ranks, int rank) {
  const auto offsets = GT.row_offsets();
  const RowRange columns = rows_by_cost(
      GT.n_rows(), [&](int64_t i) { return static_cast<int64_t>(offsets[static_cast<size_t>(i)]) + i; }, ranks, rank);
  return {columns.begin, columns.end};
}

class PullOverRanks {
 public:
  explicit PullOverRanks(const World& world)
      : world_(world), text_(" (columns over " + std::to_string(world.size()) + " ranks)") {}

  template <class TG>
  cpu::detail::ColumnRange columns(const Csr<TG>& GT) const {
    return pull_columns(GT, world_.size(), world_.rank());
  }
  // Every rank's entries joined in rank order: the entries of every column, in order.
  template <class V>
  Vector<V> joined(Vector<V>&& part) const {
    if (world_.size() == 1) return std::move(part);
    Array<index_t> indices = detail::all_items<index_t>(world_, part.indices());
    Array<storage_t<V>> values = detail::all_items<storage_t<V>>(world_, part.values());
    return Vector<V>::sparse(part.size(), std::move(indices), std::move(values));
  }
  // Every rank's dense range joined in rank order: the whole dense result.
  template <class T>
  Array<T> joined(Array<T>&& part) const {
    if (world_.size() == 1) return std::move(part);
    return detail::all_items<T>(world_, std::span<const T>(part));
  }
  const char* text() const noexcept { return world_.size() == 1 ? "" : text_.c_str(); }

 private:
  const World& world_;
  std::string text_;
};

}  // namespace gql::dist
