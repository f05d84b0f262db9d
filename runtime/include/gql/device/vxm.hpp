// w<mask, replace> = v * G (and G * v, over G's transpose) over any semiring S on the device, with
// the signatures of gql::cpu's vxm and mxv ops (cpu/ops.hpp), so loops of masked products (PageRank,
// connected components) run on the GPU.
// The product pushes from v's entries (edge-balanced, or a thread, warp or block per entry as the
// options' balance says) into a dense accumulator on the device with
// an atomic agg per product, the mask (structural or complemented) checked per column there; the
// result comes back and is assigned under the mask (replace or merge) as on the CPU. The graph is
// uploaded once per op and kept across the iterations of its loop (op state, as the CPU keeps its
// transpose). Products over a non-associative-in-floating-point agg (a float sum) combine in
// another order than the CPU's, so such results agree to rounding, not bit for bit.
// Host code compiled by nvcc: the definitions of gql/device/vector_products.hpp, which launch the
// kernels of a VxmKernelTable, and the table of the kernel templates instantiated for a semiring.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// cpu/closure.hpp (through cpu/ops.hpp) holds a `#pragma GCC unroll` for the host compiler, which
// nvcc's front end reports as unknown.
#pragma nv_diag_suppress 1675
#include "gql/cpu/ops.hpp"
#include "gql/cpu/transpose.hpp"
#pragma nv_diag_default 1675
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/frontier.hpp"
#include "gql/device/vector_products.hpp"
#include "gql/device/vxm_kernels.cuh"
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

  // Scratch of the products, kept across the loop's iterations (a cudaFree per product would wait
  // for the device): at least `count` T's, whole 32-bit words.
  enum Slot { accumulator_slot, present_slot, allowed_slot, frontier_values_slot, slots };
  template <class T>
  T* scratch(Slot slot, size_t count) {
    DeviceBuffer<unsigned char>& buffer = scratch_[slot];
    const size_t bytes = std::max<size_t>((count * sizeof(T) + 3) / 4 * 4, 4);
    if (buffer.size() < bytes) buffer = DeviceBuffer<unsigned char>(bytes);
    return reinterpret_cast<T*>(buffer.data());  // device allocations are aligned for any T
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
  DeviceBuffer<unsigned char> scratch_[slots];
};

// t<mask> = v * G (no assignment): the columns the mask allows that at least one product reached.
template <class TV, class TG, class V>
Vector<V> vxm_product(const Vector<TV>& v, const Csr<TG>& G, const DeviceCsr<TG>& dG, const cpu::VectorMask& mask,
                      VxmGraph<TG>& device_graph,
                      const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values, LoadBalance balance,
                      int64_t& frontier_edges) {
  using Cell = storage_t<V>;  // bools are bytes on both sides
  const int64_t rows = G.n_rows(), n = G.n_cols();
  if (v.size() != rows)
    throw Error(ErrorKind::usage, "vxm: the vector has " + std::to_string(v.size()) + " entries, the graph " +
                                      std::to_string(rows) + " rows");
  cpu::check_mask_size(mask, n, "vxm");
  device_graph.bind(dG, reads_values);
  const Stream& stream = device_graph.stream();
  // The frontier: v's entries whose rows have entries, and the number of products.
  std::vector<index_t> ks;
  std::vector<storage_t<TV>> kv;
  int64_t edges = 0;
  const auto take = [&](int64_t k, const storage_t<TV>& x) {
    if (G.row_degree(k) == 0) return;
    ks.push_back(static_cast<index_t>(k));
    kv.push_back(x);
    edges += G.row_degree(k);
  };
  if (v.is_dense()) {
    for (int64_t k = 0; k < rows; ++k) take(k, v.values()[static_cast<size_t>(k)]);
  } else {
    for (size_t e = 0; e < v.indices().size(); ++e) take(v.indices()[e], v.values()[e]);
  }
  frontier_edges = edges;
  const size_t cells = static_cast<size_t>(std::max<int64_t>(n, 1));
  const cudaStream_t s = stream.get();
  // Whole 32-bit words (scratch's): a CAS on a 1- or 2-byte value works on the aligned word around it.
  V* accumulator = device_graph.template scratch<V>(VxmGraph<TG>::accumulator_slot, cells);
  unsigned char* present = device_graph.template scratch<unsigned char>(VxmGraph<TG>::present_slot, cells);
  unsigned char* allowed = nullptr;
  std::vector<unsigned char> host_allowed;
  if (mask.active()) {
    host_allowed.resize(cells, 0);
    for (int64_t j = 0; j < n; ++j) host_allowed[static_cast<size_t>(j)] = mask.allows(j) ? 1 : 0;
    allowed = device_graph.template scratch<unsigned char>(VxmGraph<TG>::allowed_slot, cells);
    GQL_CUDA_CHECK(cudaMemcpyAsync(allowed, host_allowed.data(), cells, cudaMemcpyHostToDevice, s));
  }
  auto& queues = device_graph.queues();
  launch(kernels.clear, detail::grid_for(n, queues.resident()), device::traversal_block, 0, stream, accumulator,
         present, static_cast<long long>(n), zero);
  if (edges > 0) {
    const auto q = static_cast<long long>(ks.size());
    GQL_CUDA_CHECK(cudaMemcpyAsync(queues.queue(), ks.data(), ks.size() * sizeof(index_t), cudaMemcpyHostToDevice, s));
    auto* values = device_graph.template scratch<storage_t<TV>>(VxmGraph<TG>::frontier_values_slot, ks.size());
    GQL_CUDA_CHECK(cudaMemcpyAsync(values, kv.data(), kv.size() * sizeof(storage_t<TV>), cudaMemcpyHostToDevice, s));
    const unsigned grid = queues.prepare_push(balance, device_graph.offsets(), q, edges);
    launch(kernels.push[static_cast<size_t>(balance)], grid, device::traversal_block, 0, stream, device_graph.view(),
           static_cast<const index_t*>(queues.queue()), static_cast<const storage_t<TV>*>(values),
           static_cast<const long long*>(queues.scan()), q, static_cast<long long>(edges),
           static_cast<const unsigned char*>(allowed), accumulator, present);
  }
  std::vector<Cell> host_values(cells);
  std::vector<unsigned char> host_present(cells);
  GQL_CUDA_CHECK(cudaMemcpyAsync(host_values.data(), accumulator, cells * sizeof(Cell), cudaMemcpyDeviceToHost, s));
  GQL_CUDA_CHECK(cudaMemcpyAsync(host_present.data(), present, cells, cudaMemcpyDeviceToHost, s));
  stream.synchronize();
  Array<index_t> idx;
  Array<Cell> val;
  for (int64_t j = 0; j < n; ++j)
    if (host_present[static_cast<size_t>(j)]) {
      idx.push_back(static_cast<index_t>(j));
      val.push_back(host_values[static_cast<size_t>(j)]);
    }
  return Vector<V>::sparse(n, std::move(idx), std::move(val));
}

template <class TW, class TV, class TG, class V>
void vxm_into(Resident<Vector<TW>>& w, const cpu::VectorMask& mask, bool replace, Resident<Vector<TV>>& v,
              Resident<Csr<TG>>& G, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values) {
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu", std::as_const(ctx));
  const Stream& stream = device_graph.stream();
  int64_t edges = 0;
  // The frontier is made on the host (v and G's degrees there), the products on G's device graph.
  auto result = vxm_product(v.host(stream), G.host(stream), G.device(stream), mask, device_graph, kernels, zero,
                            reads_values, options.balance, edges);
  ctx.work().edges += edges;
  ctx.explain(std::string(options.label) + ": vxm on the GPU, push (balance " + to_string(options.balance) +
              ") over " + std::to_string(edges) + " frontier edges");
  cpu::assign_result(w.host_for_write(stream), std::move(result), mask, replace);
}

template <class TW, class TG, class TV, class V>
void mxv_into(Resident<Vector<TW>>& w, const cpu::VectorMask& mask, bool replace, Resident<Csr<TG>>& G,
              Resident<Vector<TV>>& v, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values) {
  if (v.rows() != G.cols())
    throw Error(ErrorKind::usage, "mxv: the vector has " + std::to_string(v.rows()) + " entries, the graph " +
                                      std::to_string(G.cols()) + " columns");
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu-mxv", std::as_const(ctx));
  const Stream& stream = device_graph.stream();
  int64_t edges = 0;
  // G's transpose and its device copy belong to G's host contents (made once per graph value).
  const Csr<TG>& transposed = cpu::transpose_of(G.host(stream));
  auto result = vxm_product(v.host(stream), transposed, device_copy(transposed, stream), mask, device_graph, kernels,
                            zero, reads_values, options.balance, edges);
  ctx.work().edges += edges;
  ctx.explain(std::string(options.label) + ": mxv on the GPU, push (balance " + to_string(options.balance) +
              ") over the transpose, " + std::to_string(edges) + " frontier edges");
  cpu::assign_result(w.host_for_write(stream), std::move(result), mask, replace);
}

template <class TV, class TG, class V>
VxmKernelTable<TV, TG, V> vxm_shape_kernels() {
  VxmKernelTable<TV, TG, V> k;
  k.clear = kernel_handle(&device::vxm_clear<device::traversal_block, V>);
  return k;
}

// The table of the push templates instantiated for S (every balance) over vectors of TV and graphs
// of TG (ahead of time).
template <class S, class TV, class TG>
VxmKernelTable<TV, TG, typename S::value_type> vxm_kernels() {
  auto k = vxm_shape_kernels<TV, TG, typename S::value_type>();
  detail::for_each_balance([&](auto b) {
    k.push[static_cast<size_t>(decltype(b)::value)] =
        kernel_handle(&device::vxm_push<device::traversal_block, decltype(b)::value, S, TV, TG>);
  });
  return k;
}

}  // namespace gql::gpu
