// The part of a GPU product C<mask, replace> = A * B that depends only on its element types: upload
// the mask, run the SpGEMM driver with a table of kernels over A and B on the device, and leave the
// product there as C (or merge it into C on the host). gql::gpu::mxm (gql/device/ops.hpp) converts
// the operands and picks the kernels for its semiring.
//
// Host code. With nvcc the definitions are here, instantiated wherever they are used; a host
// compiler sees the declaration of multiply_into only and links the instantiations the runtime
// library holds for the shapes of gql/device/product_shapes.hpp (the JIT's host code, which gets its
// semiring kernels from NVRTC).
#pragma once

#include <algorithm>

#include "gql/cpu/mask.hpp"
#include "gql/cpu/spgemm_dot.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/spgemm_kernel_table.hpp"
#include "gql/device/spgemm_plan.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

#if defined(__CUDACC__)
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gql/cpu/assign.hpp"
#include "gql/device/masked_dot.hpp"
#include "gql/device/spgemm.hpp"
#endif

namespace gql::gpu {

using cpu::MaskedMethod;

struct ProductOptions {
  // Rows with at least this many products take dense accumulators; 0: SpgemmPlan's default.
  long long large_row_products = 0;
  // Rows below the large class with at least this many take the shared-memory hash; 0: the default.
  long long medium_row_products_min = 0;
  // The spilled rows' sort chunk (SpgemmPlan::sorted_chunk_items); 0: the default.
  int sorted_chunk_items = 0;
  int block = 256;                         // the schedule's block size (the kernels are built for 256)
  const char* label;                       // for --explain
  // Through a plain mask: by rows, by the mask's entries, or whichever is less work (masked_dot.hpp).
  MaskedMethod masked = MaskedMethod::automatic;
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

// C<mask, replace> = A * B with the given kernels, A and B on the device. The mask (structural, plain
// or complemented) is applied on the device while the products are accumulated, so masked-out
// entries are never formed. The product stays on the device as C's value when it is C's whole new
// value (no mask, or a mask and an empty C); otherwise it is merged into C on the host as GraphBLAS's
// assignment says. Bool results travel as bytes (V = unsigned char for TC = bool) and become a
// pattern graph on the host. Adds the products to ctx's work counts and explains the plan.
template <class TC, class AT, class BT, class V>
void multiply_into(Resident<Csr<TC>>& C, const cpu::MatrixMask& mask, bool replace, const DeviceCsr<AT>& dA,
                   const DeviceCsr<BT>& dB, const ProductOptions& options, const SpgemmKernelTable<AT, BT, V>& kernels,
                   KernelContext& ctx)
#if defined(__CUDACC__)
{
  cpu::check_mask_shape(mask, dA.n_rows(), dB.n_cols(), options.label);
  Stream stream = Stream::for_call(ctx);
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
  // Through a plain mask, by the mask's entries when that is less work (or the schedule says so).
  MaskedDotChoice choice;
  std::optional<DeviceCsr<V>> by_entries;
  if (mask.mode() == cpu::MaskMode::allow)
    by_entries = masked_by_dot(dA, dB, mask_offsets.data(), mask_columns.data(),
                               static_cast<int64_t>(mask.col_indices.size()), options.masked, kernels, stream, choice);
  SpgemmStats stats;
  DeviceCsr<V> product = by_entries ? std::move(*by_entries)
                                    : spgemm<SpgemmTypes<AT, BT, V>>(dA, dB, view, product_plan<V>(options), stream,
                                                                     &stats, kernels);
  // Into an empty C the masked assignment is the masked product itself (bool results are filtered on
  // the host, below).
  if (mask.mode() != cpu::MaskMode::none) cpu::check_assignment_shape(C.rows(), C.cols(), dA.n_rows(), dB.n_cols());
  const bool whole = mask.mode() == cpu::MaskMode::none || C.nvals() == 0;
  const bool stays_on_device = whole && std::is_same_v<TC, V>;
  ctx.work().products += stats.products;
  std::string why = choice.reason;  // the masked method, why, and the estimates it was chosen by
  if (choice.saxpy_products >= 0) why += ", " + std::to_string(choice.saxpy_products) + " row products";
  if (choice.dot_steps >= 0) why += " against " + std::to_string(choice.dot_steps) + " join steps";
  const std::string method =
      by_entries ? ", by the mask's " + std::to_string(mask.col_indices.size()) + " entries (dot: " + why + "), " +
                       std::to_string(product.nvals()) + " entries"
      : mask.mode() == cpu::MaskMode::none
          ? ", " + describe(stats)
          : std::string(mask.complement ? ", complemented mask" : ", mask") + " applied while accumulating" +
                (mask.mode() == cpu::MaskMode::allow ? " (saxpy: " + why + ")" : std::string()) + ", " + describe(stats);
  ctx.explain(options.label, "mxm on the GPU" + method +
                                 (stays_on_device ? ", result on the device" : ", result merged on the host"));
  if constexpr (std::is_same_v<TC, V>) {
    if (stays_on_device) {
      stream.synchronize();  // the next op may read it on another stream
      C.set_device(std::move(product));
      return;
    }
  }
  Csr<V> host = product.to_host(stream);
  if constexpr (std::is_same_v<TC, bool> && std::is_same_v<V, unsigned char>) {
    // As on the CPU, entries whose value is false are left out.
    Array<offset_t> offsets(static_cast<size_t>(host.n_rows()) + 1, 0);
    Array<index_t> cols;
    cols.reserve(static_cast<size_t>(host.nvals()));
    for (int64_t i = 0; i < host.n_rows(); ++i) {
      for (offset_t p = host.row_offsets()[i]; p < host.row_offsets()[i + 1]; ++p)
        if (host.values()[p]) cols.push_back(host.col_indices()[p]);
      offsets[static_cast<size_t>(i) + 1] = static_cast<offset_t>(cols.size());
    }
    cpu::assign_result(C.host_for_write(stream),
                       Csr<bool>(host.n_rows(), host.n_cols(), std::move(offsets), std::move(cols)), mask, replace,
                       /*within_mask=*/true);
  } else {
    cpu::assign_result(C.host_for_write(stream), std::move(host), mask, replace, /*within_mask=*/true);
  }
}
#else
;
#endif

}  // namespace gql::gpu
