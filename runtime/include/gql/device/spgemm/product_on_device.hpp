// The part of a GPU product C<mask, replace> = A * B that depends only on its element types: run the
// SpGEMM driver with a table of kernels over A, B and the mask on the device (masked_product), and
// merge a product into an output on the host where the assignment needs it (merge_on_host).
// gql::gpu::mxm (gql/device/ops.hpp) converts the operands, picks the kernels for its semiring and
// decides where the result goes.
//
// Host code. With nvcc the definitions are here, instantiated wherever they are used; a host
// compiler sees the declaration of masked_product only and links the instantiations the runtime
// library holds for the shapes of gql/device/product_shapes.hpp (the JIT's host code, which gets its
// semiring kernels from NVRTC).
#pragma once

#include <algorithm>
#include <type_traits>
#include <utility>
#include <variant>

#include "gql/common/mask.hpp"
#include "gql/common/masked_method.hpp"
#include "gql/cpu/assign.hpp"
#include "gql/device.hpp"
#include "gql/device/spgemm/spgemm_kernel_table.hpp"
#include "gql/device/spgemm/spgemm_plan.hpp"
#include "gql/device/values/graph_mask.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

#if defined(__CUDACC__)
#include <optional>
#include <string>

#include "gql/device/spgemm/masked_dot.hpp"
#include "gql/device/spgemm/spgemm.hpp"
#endif

namespace gql::gpu {

using common::MaskedMethod;

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

// A * B with the given kernels, A, B and the mask (structural, plain or complemented) on the device.
// The mask is applied while the products are accumulated, so masked-out entries are never formed;
// through a plain mask the product runs by the mask's entries when that is less work. Adds the
// products to ctx's work counts and explains the plan; `stays` says where the caller keeps the
// result (for --explain). Bool results are bytes (V = unsigned char). A result too large for the
// device comes back in host memory, made batch by batch (spgemm_device_or_host).
template <class V>
using ProductResult = std::variant<DeviceCsr<V>, Csr<V>>;

template <class AT, class BT, class V>
ProductResult<V> masked_product(const DeviceGraphMask& mask, const DeviceCsr<AT>& dA, const DeviceCsr<BT>& dB,
                            const ProductOptions& options, const SpgemmKernelTable<AT, BT, V>& kernels,
                            KernelContext& ctx, bool stays)
#if defined(__CUDACC__)
{
  mask.check_shape(dA.n_rows(), dB.n_cols(), options.label);
  Stream stream = Stream::for_call(ctx);
  device::spgemm::MaskView view;
  if (mask.mode() != common::MaskMode::none)
    view = {mask.row_offsets, mask.col_indices,
            mask.complement ? device::spgemm::MaskKind::deny : device::spgemm::MaskKind::allow};
  // Through a plain mask, by the mask's entries when that is less work (or the schedule says so).
  MaskedDotChoice choice;
  std::optional<DeviceCsr<V>> by_entries;
  if (mask.mode() == common::MaskMode::allow)
    by_entries = masked_by_dot(dA, dB, mask.row_offsets, mask.col_indices, mask.nvals, options.masked, kernels,
                               stream, choice);
  DeviceSpgemmStats stats;
  ProductResult<V> product = by_entries ? ProductResult<V>(std::move(*by_entries))
                                        : spgemm_device_or_host<SpgemmTypes<AT, BT, V>>(
                                              dA, dB, view, product_plan<V>(options), stream, &stats, kernels);
  const bool on_host = std::holds_alternative<Csr<V>>(product);
  const int64_t entries = on_host ? std::get<Csr<V>>(product).nvals() : std::get<DeviceCsr<V>>(product).nvals();
  ctx.work().products += stats.products;
  std::string why = choice.reason;  // the masked method, why, and the estimates it was chosen by
  if (choice.saxpy_products >= 0) why += ", " + std::to_string(choice.saxpy_products) + " row products";
  if (choice.dot_steps >= 0) why += " against " + std::to_string(choice.dot_steps) + " join steps";
  const std::string method =
      by_entries ? ", by the mask's " + std::to_string(mask.nvals) + " entries (dot: " + why + "), " +
                       std::to_string(entries) + " entries"
      : mask.mode() == common::MaskMode::none
          ? ", " + describe(stats)
          : std::string(mask.complement ? ", complemented mask" : ", mask") + " applied while accumulating" +
                (mask.mode() == common::MaskMode::allow ? " (saxpy: " + why + ")" : std::string()) + ", " + describe(stats);
  const std::string where = on_host ? ", result in host memory (too large for the device; " +
                                          std::to_string(stats.batches) + " batches of rows)"
                            : stays ? ", result on the device"
                                    : ", result merged on the host";
  ctx.explain(options.label, "mxm on the GPU" + method + where);
  stream.synchronize();  // the next op may read it on another stream
  return product;
}
#else
;
#endif

// C<mask, replace> = product on the host, as GraphBLAS's assignment says (the product's entries lie
// within the mask). A bool product made as bytes becomes a pattern graph, its false entries left out
// as on the CPU.
template <class TC, class V>
void merge_on_host(Csr<TC>& C, Csr<V> product, const common::MatrixMask& mask, bool replace) {
  if constexpr (std::is_same_v<TC, bool> && std::is_same_v<V, unsigned char>) {
    Array<offset_t> offsets(static_cast<size_t>(product.n_rows()) + 1, 0);
    Array<index_t> cols;
    cols.reserve(static_cast<size_t>(product.nvals()));
    // The arrays taken once: a container's accessors settle waiting stores at each call.
    const offset_t* row_offsets = product.row_offsets().data();
    const index_t* columns = product.col_indices().data();
    const unsigned char* values = product.values().data();
    for (int64_t i = 0; i < product.n_rows(); ++i) {
      for (offset_t p = row_offsets[i]; p < row_offsets[i + 1]; ++p)
        if (values[p]) cols.push_back(columns[p]);
      offsets[static_cast<size_t>(i) + 1] = static_cast<offset_t>(cols.size());
    }
    cpu::assign_result(C, Csr<bool>(product.n_rows(), product.n_cols(), std::move(offsets), std::move(cols)), mask,
                       replace, /*within_mask=*/true);
  } else {
    cpu::assign_result(C, std::move(product), mask, replace, /*within_mask=*/true);
  }
}

}  // namespace gql::gpu
