// The label-propagation loop's op on the GPU (what cpu::component_labels computes on the host):
// union-find over the kernel's graph where it is on the device, the labels left there. Returns false,
// and leaves the labels as they were, where the result would not be the loop's: a graph whose
// structure is not symmetric (checked on the device once per graph value unless it is marked so), or
// labels that do not sit exactly at the rows with edges.
//
// Host code; the kernels are the runtime library's (runtime/src/cuda/components.cu), so the JIT's
// host-compiled code runs them on the device too.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "gql/common/traversal_stats.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

using common::TraversalStats;

namespace detail {
// Whether every entry (i, j) has its mirror (j, i): a binary search per entry.
bool structure_symmetric(const offset_t* offsets, const index_t* columns, int64_t n, int64_t nvals,
                         const Stream& stream);
// Whether the nvals `indices` (null: every vertex) are exactly the rows with entries.
bool at_rows_with_edges(const offset_t* offsets, int64_t n, const index_t* indices, int64_t nvals,
                        const Stream& stream);
// parent[v] = the smallest vertex of v's component (the structure symmetric); returns how many edges
// it linked.
int64_t component_roots(const offset_t* offsets, const index_t* columns, int64_t n, index_t* parent,
                        const Stream& stream);
// Each of the nvals integer values (of `value_bytes`, at `indices` or, when null, at every vertex)
// becomes the smallest value among the entries of its component.
void smallest_per_component(const index_t* parent, int64_t n, const index_t* indices, void* values,
                            size_t value_bytes, bool is_signed, int64_t nvals, const Stream& stream);

template <class TG>
bool structure_is_symmetric(const DeviceCsr<TG>& g, const Stream& stream) {
  struct Answer {
    bool symmetric = false;
  };
  if (g.n_rows() != g.n_cols()) return false;
  if (g.derived().symmetric()) return true;
  return g.derived()
      .template get<Answer>("structure symmetric",
                            [&] {
                              return Answer{structure_symmetric(g.row_offsets().data(), g.col_indices().data(),
                                                                g.n_rows(), g.nvals(), stream)};
                            })
      .symmetric;
}
}  // namespace detail

template <class TG, class L>
bool component_labels(Resident<Csr<TG>>& G, Resident<Vector<L>>& labels, TraversalStats* stats,
                      KernelContext& ctx) {
  static_assert(std::is_integral_v<L> && !std::is_same_v<L, bool>, "component_labels: integer labels");
  const Stream stream = Stream::for_call(ctx);
  const DeviceCsr<TG>& g = G.device(stream);
  const int64_t n = g.n_rows();
  if (labels.rows() != n || !detail::structure_is_symmetric(g, stream)) return false;
  const DeviceVector<L>& start = labels.device(stream);
  const index_t* at = start.is_dense() ? nullptr : start.indices().data();
  if (!detail::at_rows_with_edges(g.row_offsets().data(), n, at, start.nvals(), stream)) return false;

  DeviceVector<L> out = start.is_dense() ? DeviceVector<L>::dense(n) : DeviceVector<L>::sparse(n, start.nvals());
  if (!start.is_dense()) out.indices().copy_from_device(start.indices(), stream);
  out.values().copy_from_device(start.values(), stream);
  StreamBuffer<index_t> parent(static_cast<size_t>(n), stream);
  const int64_t linked = detail::component_roots(g.row_offsets().data(), g.col_indices().data(), n, parent.data(), stream);
  detail::smallest_per_component(parent.data(), n, out.is_dense() ? nullptr : out.indices().data(), out.values().data(),
                                 sizeof(L), std::is_signed_v<L>, out.nvals(), stream);
  if (stats) *stats = TraversalStats{.levels = 0, .pull_steps = 0, .edges_examined = linked, .searched_edges = 0};
  labels.set_device(std::move(out));
  return true;
}

}  // namespace gql::gpu
