// The kernel templates of one SpGEMM instantiation, ahead of time: the table of
// gql/device/spgemm/spgemm_kernel_table.hpp filled with the templates' instantiations for a semiring S.
// Host code compiled by nvcc.
#pragma once

#include <utility>

#include "gql/device/spgemm/spgemm_bins.cuh"
#include "gql/device/spgemm/spgemm_bound.cuh"
#include "gql/device/spgemm/spgemm_compact.cuh"
#include "gql/device/spgemm/spgemm_dot.cuh"
#include "gql/device/spgemm/spgemm_kernel_table.hpp"
#include "gql/device/spgemm/spgemm_large_rows.cuh"
#include "gql/device/spgemm/spgemm_medium_rows.cuh"
#include "gql/device/spgemm/spgemm_small_rows.cuh"

namespace gql {

// The spilled rows' kernels for each chunk that fits S's values.
template <class S, size_t... Choice>
void instantiate_sorted_rows(SpgemmKernels<S>& k, std::index_sequence<Choice...>) {
  using Shapes = SpgemmShapes;
  constexpr int max_chunk = Shapes::max_sorted_chunk_items<typename S::value_type>;
  auto one = [&]<size_t C>(std::integral_constant<size_t, C>) {
    constexpr int chunk = Shapes::sorted_chunk_choices[C];
    if constexpr (chunk <= max_chunk)
      k.sorted_rows[C] = kernel_handle(&device::spgemm_sorted_rows<S, Shapes::sorted_threads, chunk>);
  };
  (one(std::integral_constant<size_t, Choice>{}), ...);
}

// The kernels that depend on the element types alone (bounds, classes, compaction), for a table
// of that shape. The library holds them precompiled for the shapes of gql/device/product_shapes.hpp.
template <class AT, class BT, class V>
SpgemmKernelTable<AT, BT, V> spgemm_shape_kernels() {
  using Shapes = SpgemmShapes;
  SpgemmKernelTable<AT, BT, V> k;
  k.row_bounds = kernel_handle(&device::spgemm_row_bounds<AT, BT>);
  k.classify = kernel_handle(&device::spgemm_classify_rows<Shapes::classify_threads>);
  k.gather = kernel_handle(&device::spgemm_gather_by_row<long long>);
  k.compact_rows = kernel_handle(&device::spgemm_compact_rows<V, Shapes::compact_threads>);
  k.compact_large_rows = kernel_handle(&device::spgemm_compact_large_rows<V, Shapes::compact_threads>);
  k.shift_offsets = kernel_handle(&device::spgemm_shift_offsets<offset_t>);
  return k;
}

// The table of the kernel templates instantiated for S (ahead of time).
template <class S>
SpgemmKernels<S> spgemm_kernels() {
  using V = typename S::value_type;
  using Shapes = SpgemmShapes;
  SpgemmKernels<S> k = spgemm_shape_kernels<typename S::a_type, typename S::b_type, V>();
  k.tiny_rows = kernel_handle(&device::spgemm_small_rows<S, Shapes::tiny_threads, Shapes::tiny_items>);
  k.small_rows = kernel_handle(&device::spgemm_small_rows<S, Shapes::small_threads, Shapes::small_items<V>>);
  k.medium_rows = kernel_handle(&device::spgemm_medium_rows<S, Shapes::medium_threads, Shapes::medium_slots>);
  k.medium_rows_bitmap =
      kernel_handle(&device::spgemm_medium_rows_bitmap<S, Shapes::medium_threads, Shapes::medium_slots>);
  instantiate_sorted_rows<S>(k, std::make_index_sequence<Shapes::sorted_chunk_choices.size()>{});
  k.large_rows = kernel_handle(&device::spgemm_large_rows<S, Shapes::large_threads>);
  k.dot_entries = kernel_handle(&device::spgemm_dot_entries<S, Shapes::dot_threads>);
  return k;
}

}  // namespace gql
