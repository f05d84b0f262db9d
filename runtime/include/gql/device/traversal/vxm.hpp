// w<mask, replace> = v * G (and G * v, over G's transpose) over any semiring S on the device, with
// the signatures of gql::cpu's vxm and mxv ops (cpu/ops.hpp), so loops of masked products (PageRank,
// connected components) run on the GPU.
// The product pushes from v's entries where they lie on the device (edge-balanced, or a thread,
// warp or block per entry as the options' balance says) into device slots with an atomic agg per
// product, the mask's byte map (structural or complemented) checked per column there; the slots are
// assigned under the mask (replace or merge) and compacted on the device, as the CPU assigns its
// result (gql/device/values/vector_ops.hpp). The graph's device copy belongs to the graph (uploaded once
// per value); the queues are op state, kept across the iterations of the op's loop. Products over a non-associative-in-floating-point agg (a float sum) combine in
// another order than the CPU's, so such results agree to rounding, not bit for bit.
// Host code compiled by nvcc: the definitions of gql/device/traversal/vector_products.hpp, which launch the
// kernels of a VxmKernelTable, and the table of the kernel templates instantiated for a semiring.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/device_transpose.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/traversal/frontier.hpp"
#include "gql/device/traversal/vector_products.hpp"
#include "gql/device/traversal/vxm_kernels.cuh"
#include "gql/device/values/vector_ops.hpp"
#include "gql/device/values/vector_slots.cuh"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

// A vxm op's device state, kept across its loop's iterations: its stream, queues and scratch, and a
// view of its graph's device copy (which belongs to the graph: gql/device/device_copy.hpp).
template <class TG>
class VxmGraph {
 public:
  // The products run on the stream of the call that made it (Stream::for_call).
  explicit VxmGraph(const KernelContext& ctx) : stream_(Stream::for_call(ctx)) {}

  // Reads G's device graph in place (a host graph's device copy belongs to it: gql/device/
  // device_copy.hpp); the queues follow G's size.
  void bind(const DeviceCsr<TG>& G, bool with_values) {
    structure_.emplace(G);
    weights_ = nullptr;
    if constexpr (stores_values<TG>) {
      if (with_values && G.nvals() > 0) weights_ = G.values().data();
    }
    if (!queues_ || rows_ != G.n_rows()) {
      queues_.reset();
      queues_.emplace(G.n_rows(), stream_);
      rows_ = G.n_rows();
    }
  }

  const Stream& stream() const noexcept { return stream_; }
  detail::FrontierQueues& queues() { return *queues_; }
  const offset_t* offsets() const noexcept { return structure_->offsets(); }
  device::CsrView<TG> view() const noexcept {
    const device::CsrView<bool> s = structure_->view();
    return {s.n_rows, s.n_cols, s.row_offsets, s.col_indices, weights_};
  }

 private:
  Stream stream_;
  std::optional<detail::DeviceStructure> structure_;
  const storage_t<TG>* weights_ = nullptr;
  int64_t rows_ = -1;
  std::optional<detail::FrontierQueues> queues_;
};

// t<mask> = v * G (no assignment) as n slots: the columns the mask allows that at least one product
// reached. v's entries are the frontier as they lie on the device (a dense vector's are every row).
template <class TV, class TG, class V>
DeviceSlots<V> vxm_slots(const DeviceVector<TV>& v, const DeviceCsr<TG>& G, const DeviceVectorMask& mask,
                         VxmGraph<TG>& device_graph, const VxmKernelTable<TV, TG, V>& kernels, V zero,
                         bool reads_values, LoadBalance balance, int64_t& frontier_edges) {
  const int64_t rows = G.n_rows(), n = G.n_cols();
  if (v.size() != rows)
    throw Error(ErrorKind::usage, "vxm: the vector has " + std::to_string(v.size()) + " entries, the graph " +
                                      std::to_string(rows) + " rows");
  mask.check_size(n, "vxm");
  device_graph.bind(G, reads_values);
  const Stream& stream = device_graph.stream();
  auto& queues = device_graph.queues();
  DeviceSlots<V> out(n, stream, /*word_padded=*/true);
  // The accumulator's cells are whole 32-bit words (a CAS on a 1- or 2-byte value works on the
  // aligned word around it): device allocations are aligned, and these slots are padded to words.
  V* accumulator = reinterpret_cast<V*>(out.out().values);
  launch(kernels.clear, detail::grid_for(n, queues.resident()), device::traversal::traversal_block, 0, stream,
         accumulator, out.out().present, static_cast<long long>(n), zero);
  const auto q = static_cast<long long>(v.nvals());
  int64_t edges = 0;
  if (q > 0) {
    if (v.is_dense()) slots_detail::launch_for_each(q, device::values::Sequence{queues.queue()}, stream);
    else GQL_CUDA_CHECK(cudaMemcpyAsync(queues.queue(), v.indices().data(), static_cast<size_t>(q) * sizeof(index_t),
                                        cudaMemcpyDeviceToDevice, stream.get()));
    queues.scan_degrees(device_graph.offsets(), q);
    edges = queues.queued_edges(q);
  }
  if (edges > 0) {
    const unsigned grid = queues.push_grid(balance, q, edges);
    launch(kernels.push[static_cast<size_t>(balance)], grid, device::traversal::traversal_block, 0, stream,
           device_graph.view(), static_cast<const index_t*>(queues.queue()), v.values().data(),
           static_cast<const long long*>(queues.scan()), q, static_cast<long long>(edges), mask.allowed(), accumulator,
           out.out().present);
  }
  frontier_edges = edges;
  return out;
}

template <class TW, class TV, class TG, class V>
void vxm_into(Resident<Vector<TW>>& w, const DeviceVectorMask& mask, bool replace, Resident<Vector<TV>>& v,
              Resident<Csr<TG>>& G, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values) {
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu", std::as_const(ctx));
  const Stream& stream = device_graph.stream();
  int64_t edges = 0;
  auto result = vxm_slots(v.device(stream), G.device(stream), mask, device_graph, kernels, zero, reads_values,
                          options.balance, edges);
  ctx.work().edges += edges;
  ctx.explain(options.label, std::string("vxm on the GPU, push (balance ") + to_string(options.balance) +
              ") over " + std::to_string(edges) + " frontier edges");
  assign_slots(w, std::move(result), mask, replace, stream, /*sparse_result=*/true);
}

// G's transpose on the device: G itself when G is known to be symmetric, else made on the device from
// G's device copy (gql/device/device_transpose.hpp; it belongs to G's contents: made once per value).
template <class TG>
const DeviceCsr<TG>& transpose_on_device(Resident<Csr<TG>>& G, const Stream& stream) {
  return transpose_of(G.device(stream), stream);
}

template <class TW, class TG, class TV, class V>
void mxv_into(Resident<Vector<TW>>& w, const DeviceVectorMask& mask, bool replace, Resident<Csr<TG>>& G,
              Resident<Vector<TV>>& v, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values) {
  if (v.rows() != G.cols())
    throw Error(ErrorKind::usage, "mxv: the vector has " + std::to_string(v.rows()) + " entries, the graph " +
                                      std::to_string(G.cols()) + " columns");
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu-mxv", std::as_const(ctx));
  const Stream& stream = device_graph.stream();
  int64_t edges = 0;
  auto result = vxm_slots(v.device(stream), transpose_on_device(G, stream), mask, device_graph, kernels, zero,
                          reads_values, options.balance, edges);
  ctx.work().edges += edges;
  ctx.explain(options.label, std::string("mxv on the GPU, push (balance ") + to_string(options.balance) +
              ") over the transpose, " + std::to_string(edges) + " frontier edges");
  assign_slots(w, std::move(result), mask, replace, stream, /*sparse_result=*/true);
}

template <class TV, class TG, class V>
VxmKernelTable<TV, TG, V> vxm_shape_kernels() {
  VxmKernelTable<TV, TG, V> k;
  k.clear = kernel_handle(&device::traversal::vxm_clear<device::traversal::traversal_block, V>);
  return k;
}

// The table of the push templates instantiated for S (every balance) over vectors of TV and graphs
// of TG (ahead of time).
template <class S, class TV, class TG>
VxmKernelTable<TV, TG, typename S::value_type> vxm_kernels() {
  auto k = vxm_shape_kernels<TV, TG, typename S::value_type>();
  detail::for_each_balance([&](auto b) {
    k.push[static_cast<size_t>(decltype(b)::value)] =
        kernel_handle(&device::traversal::vxm_push<device::traversal::traversal_block, decltype(b)::value, S, TV, TG>);
  });
  return k;
}

}  // namespace gql::gpu
