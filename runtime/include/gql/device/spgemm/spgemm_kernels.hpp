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

// The kernel template of variant N of spgemm_semiring_variants, instantiated for S (the templates
// spgemm_kernel_template names for NVRTC).
template <class S, size_t N>
constexpr auto spgemm_instance() {
  constexpr SpgemmVariant v = spgemm_semiring_variants(sizeof(typename S::value_type))[N];
  using K = SpgemmKernel;
  if constexpr (v.kernel == K::small_rows) return &device::spgemm::spgemm_small_rows<S, v.threads, v.items>;
  else if constexpr (v.kernel == K::medium_rows) return &device::spgemm::spgemm_medium_rows<S, v.threads, v.items>;
  else if constexpr (v.kernel == K::medium_rows_bitmap)
    return &device::spgemm::spgemm_medium_rows_bitmap<S, v.threads, v.items>;
  else if constexpr (v.kernel == K::sorted_rows) return &device::spgemm::spgemm_sorted_rows<S, v.threads, v.items>;
  else if constexpr (v.kernel == K::large_rows) return &device::spgemm::spgemm_large_rows<S, v.threads>;
  else return &device::spgemm::spgemm_dot_entries<S, v.threads>;
}

// Every variant built for S's values, each in its entry of the table.
template <class S, size_t... N>
void instantiate_semiring_kernels(SpgemmKernels<S>& k, std::index_sequence<N...>) {
  const auto one = [&]<size_t I>(std::integral_constant<size_t, I>) {
    constexpr size_t value_bytes = sizeof(typename S::value_type);
    constexpr SpgemmVariant v = spgemm_semiring_variants(value_bytes)[I];
    if constexpr (spgemm_variant_built(v, value_bytes))
      spgemm_slot<v.slot>(k, v.index) = kernel_handle(spgemm_instance<S, I>());
  };
  (one(std::integral_constant<size_t, N>{}), ...);
}

// The kernels that depend on the element types alone (bounds, classes, compaction), for a table
// of that shape. The library holds them precompiled for the shapes of gql/device/product_shapes.hpp.
template <class AT, class BT, class V>
SpgemmKernelTable<AT, BT, V> spgemm_shape_kernels() {
  using Shapes = SpgemmShapes;
  SpgemmKernelTable<AT, BT, V> k;
  k.row_bounds = kernel_handle(&device::spgemm::spgemm_row_bounds<AT, BT>);
  k.classify = kernel_handle(&device::spgemm::spgemm_classify_rows<Shapes::classify_threads>);
  k.gather = kernel_handle(&device::spgemm::spgemm_gather_by_row<long long>);
  k.compact_rows = kernel_handle(&device::spgemm::spgemm_compact_rows<V, Shapes::compact_threads>);
  k.compact_large_rows = kernel_handle(&device::spgemm::spgemm_compact_large_rows<V, Shapes::compact_threads>);
  k.shift_offsets = kernel_handle(&device::spgemm::spgemm_shift_offsets<offset_t>);
  return k;
}

// The table of the kernel templates instantiated for S (ahead of time).
template <class S>
SpgemmKernels<S> spgemm_kernels() {
  SpgemmKernels<S> k = spgemm_shape_kernels<typename S::a_type, typename S::b_type, typename S::value_type>();
  instantiate_semiring_kernels<S>(k, std::make_index_sequence<spgemm_variant_count>{});
  return k;
}

}  // namespace gql
