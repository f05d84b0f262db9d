// The part of a GPU product C<mask> = A * B that depends only on its element types: upload A, B
// and the mask, run the SpGEMM driver with a table of kernels, and bring C back. gql::gpu::mxm (gql/
// device/ops.hpp) converts the operands, picks the kernels for its semiring and assigns the result.
//
// Host code. With nvcc the definition is here, instantiated wherever it is used; a host compiler
// sees the declaration only and links the instantiations the runtime library holds for the shapes of
// gql/device/spgemm_shapes.hpp (the JIT's host code, which gets its semiring kernels from NVRTC).
#pragma once

#include <algorithm>

#include "gql/cpu/mask.hpp"
#include "gql/device.hpp"
#include "gql/device/spgemm_kernel_table.hpp"
#include "gql/device/spgemm_plan.hpp"
#include "gql/graph.hpp"

#if defined(__CUDACC__)
#include "gql/device/spgemm.hpp"
#endif

namespace gql::gpu {

struct ProductOptions {
  // Rows with at least this many products take dense accumulators; 0: SpgemmPlan's default.
  long long large_row_products = 0;
  // Rows below the large class with at least this many take the shared-memory hash; 0: the default.
  long long medium_row_products_min = 0;
  // The spilled rows' sort chunk (SpgemmPlan::sorted_chunk_items); 0: the default.
  int sorted_chunk_items = 0;
  int block = 256;                         // the schedule's block size (the kernels are built for 256)
  const char* label;                       // for --explain
};

// The driver's plan for a product whose values are V, from the schedule's options.
template <class V>
SpgemmPlan product_plan(const ProductOptions& options) {
  SpgemmPlan plan;
  if (options.medium_row_products_min > 0) {
    plan.small_row_products = std::clamp<long long>(options.medium_row_products_min - 1, plan.tiny_row_products,
                                                    SpgemmShapes::small_items<V>);
  }
  if (options.large_row_products > 0) {
    plan.large_row_products = options.large_row_products;
    // Rows below the large class stay in the shared-memory classes as far as they reach.
    plan.medium_row_products = std::clamp<long long>(options.large_row_products - 1, plan.small_row_products,
                                                     SpgemmShapes::medium_slots);
  }
  plan.sorted_chunk_items = options.sorted_chunk_items;
  return plan;
}

// C = A * B restricted by `mask` (applied on the device while the products are accumulated, so
// masked-out entries are never formed), with the given kernels; `stats` says what ran.
template <class AT, class BT, class V>
Csr<V> multiply_on_device(const Csr<AT>& A, const Csr<BT>& B, const cpu::MatrixMask& mask, const SpgemmPlan& plan,
                          const SpgemmKernelTable<AT, BT, V>& kernels, SpgemmStats& stats)
#if defined(__CUDACC__)
{
  Stream stream;
  const DeviceCsr<AT> dA = to_device(A, stream);
  const DeviceCsr<BT> dB = to_device(B, stream);
  DeviceBuffer<offset_t> mask_offsets;
  DeviceBuffer<index_t> mask_columns;
  device::MaskView view;
  if (mask.mode() != cpu::MaskMode::none) {
    mask_offsets = DeviceBuffer<offset_t>(mask.row_offsets.size());
    mask_columns = DeviceBuffer<index_t>(mask.col_indices.size());
    mask_offsets.copy_from_host(mask.row_offsets, stream);
    mask_columns.copy_from_host(mask.col_indices, stream);
    view = {mask_offsets.data(), mask_columns.data(), mask.complement ? device::MaskKind::deny : device::MaskKind::allow};
  }
  return spgemm<SpgemmTypes<AT, BT, V>>(dA, dB, view, plan, stream, &stats, kernels).to_host(stream);
}
#else
;
#endif

}  // namespace gql::gpu
