// w<mask, replace> = v * G (and G * v, over G's transpose) over any semiring S on the device, with
// the signatures of gql::cpu's vxm and mxv ops (cpu/ops.hpp), so loops of masked products (PageRank,
// connected components) run on the GPU.
// The product pushes from v's entries (edge-balanced, or a thread, warp or block per entry as the
// options' balance says) into a dense accumulator on the device with
// an atomic agg per product, the mask (structural or complemented) checked per column there; the
// result comes back and is assigned under the mask (replace or merge) as on the CPU. The graph is
// uploaded once per op and kept across the iterations of its loop (op state, as the CPU keeps its
// transpose). Products over a non-associative-in-floating-point agg (a float sum) combine in
// another order than the CPU's, so such results agree to rounding, not bit for bit. Host code.
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
#include "gql/device/frontier.hpp"
#include "gql/device/vxm_kernels.cuh"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

// Generated code names the options of its products in the namespace of the op: the CPU's, and how
// the push maps the frontier's edges to threads.
using cpu::Direction;
struct TraversalOptions : cpu::TraversalOptions {
  LoadBalance balance = LoadBalance::edge;
};

// A vxm op's graph on the device, kept across its loop's iterations.
template <class TG>
class VxmGraph {
 public:
  // Uploads G unless it is the graph already held (same object, same entry count).
  void bind(const Csr<TG>& G, bool with_values) {
    if (graph_ == &G && nvals_ == G.nvals() && with_values_ == with_values) return;
    queues_.reset();
    structure_.reset();
    weights_ = {};
    structure_.emplace(G, stream_);
    if constexpr (stores_values<TG>) {
      if (with_values && G.nvals() > 0) {
        weights_ = DeviceBuffer<storage_t<TG>>(static_cast<size_t>(G.nvals()));
        weights_.copy_from_host(G.values(), stream_);
      }
    }
    queues_.emplace(G.n_rows(), stream_);
    graph_ = &G;
    nvals_ = G.nvals();
    with_values_ = with_values;
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
    return {s.n_rows, s.n_cols, s.row_offsets, s.col_indices, weights_.empty() ? nullptr : weights_.data()};
  }

 private:
  Stream stream_;
  const Csr<TG>* graph_ = nullptr;
  int64_t nvals_ = -1;
  bool with_values_ = false;
  std::optional<detail::DeviceStructure> structure_;
  DeviceBuffer<storage_t<TG>> weights_;
  std::optional<detail::FrontierQueues> queues_;
  DeviceBuffer<unsigned char> scratch_[slots];
};

// t<mask> = v * G (no assignment): the columns the mask allows that at least one product reached.
template <class S, class TV, class TG>
Vector<typename S::value_type> vxm_product(const Vector<TV>& v, const Csr<TG>& G, const cpu::VectorMask& mask,
                                           VxmGraph<TG>& device_graph, int64_t* frontier_edges = nullptr,
                                           LoadBalance balance = LoadBalance::edge) {
  using V = typename S::value_type;
  using Cell = storage_t<V>;  // bools are bytes on both sides
  const int64_t rows = G.n_rows(), n = G.n_cols();
  if (v.size() != rows)
    throw Error(ErrorKind::usage, "vxm: the vector has " + std::to_string(v.size()) + " entries, the graph " +
                                      std::to_string(rows) + " rows");
  cpu::check_mask_size(mask, n, "vxm");
  device_graph.bind(G, S::reads_values);
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
  if (frontier_edges) *frontier_edges = edges;
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
  device::vxm_clear<device::traversal_block, V><<<detail::grid_for(n, queues.resident()), device::traversal_block, 0,
                                                  s>>>(accumulator, present, n, S::zero());
  GQL_CUDA_CHECK_LAUNCH();
  if (edges > 0) {
    const auto q = static_cast<long long>(ks.size());
    GQL_CUDA_CHECK(cudaMemcpyAsync(queues.queue(), ks.data(), ks.size() * sizeof(index_t), cudaMemcpyHostToDevice, s));
    auto* values = device_graph.template scratch<storage_t<TV>>(VxmGraph<TG>::frontier_values_slot, ks.size());
    GQL_CUDA_CHECK(cudaMemcpyAsync(values, kv.data(), kv.size() * sizeof(storage_t<TV>), cudaMemcpyHostToDevice, s));
    const unsigned grid = queues.prepare_push(balance, device_graph.offsets(), q, edges);
    detail::with_balance(balance, [&](auto b) {
      device::vxm_push<device::traversal_block, decltype(b)::value, S, TV, TG><<<grid, device::traversal_block, 0, s>>>(
          device_graph.view(), queues.queue(), values, queues.scan(), q, edges, allowed, accumulator, present);
      GQL_CUDA_CHECK_LAUNCH();
    });
  }
  std::vector<Cell> host_values(cells);
  std::vector<unsigned char> host_present(cells);
  GQL_CUDA_CHECK(cudaMemcpyAsync(host_values.data(), accumulator, cells * sizeof(Cell), cudaMemcpyDeviceToHost, s));
  GQL_CUDA_CHECK(cudaMemcpyAsync(host_present.data(), present, cells, cudaMemcpyDeviceToHost, s));
  stream.synchronize();
  std::vector<index_t> idx;
  std::vector<Cell> val;
  for (int64_t j = 0; j < n; ++j)
    if (host_present[static_cast<size_t>(j)]) {
      idx.push_back(static_cast<index_t>(j));
      val.push_back(host_values[static_cast<size_t>(j)]);
    }
  return Vector<V>::sparse(n, std::move(idx), std::move(val));
}

// w<mask, replace> = v * G over S on the GPU (the op generated CUDA code calls).
template <class S, class TW, class Mask, class TV, class TG>
void vxm(Vector<TW>& w, const Mask& mask_in, bool replace, const Vector<TV>& v, const Csr<TG>& G,
         const TraversalOptions& options, KernelContext& ctx) {
  const cpu::VectorMask m = cpu::as_vector_mask(mask_in);
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu");
  int64_t edges = 0;
  auto result = vxm_product<S>(v, G, m, device_graph, &edges, options.balance);
  ctx.work().edges += edges;
  ctx.explain(std::string(options.label) + ": vxm on the GPU, push (balance " + to_string(options.balance) +
              ") over " + std::to_string(edges) + " frontier edges");
  cpu::assign_result(w, std::move(result), m, replace);
}

namespace detail {

// An mxv op's state across its loop: G's transpose on the host (built once per graph, as the CPU's
// pull state) and on the device.
template <class TG>
struct MxvState {
  const Csr<TG>* graph = nullptr;
  int64_t graph_nvals = -1;
  Csr<TG> transposed;
  VxmGraph<TG> device_graph;
};

}  // namespace detail

// w<mask, replace> = G * v over S on the GPU: pushes from v's entries over the rows of G's transpose.
template <class S, class TW, class Mask, class TG, class TV>
void mxv(Vector<TW>& w, const Mask& mask_in, bool replace, const Csr<TG>& G, const Vector<TV>& v,
         const TraversalOptions& options, KernelContext& ctx) {
  const cpu::VectorMask m = cpu::as_vector_mask(mask_in);
  if (v.size() != G.n_cols())
    throw Error(ErrorKind::usage, "mxv: the vector has " + std::to_string(v.size()) + " entries, the graph " +
                                      std::to_string(G.n_cols()) + " columns");
  auto& state = ctx.op_state<detail::MxvState<TG>>(std::string(options.label) + "/gpu-mxv");
  if (state.graph != &G || state.graph_nvals != G.nvals()) {
    state.transposed = cpu::transpose(G);
    state.graph = &G;
    state.graph_nvals = G.nvals();
  }
  int64_t edges = 0;
  auto result =
      vxm_product<cpu::SwappedOperands<S>>(v, state.transposed, m, state.device_graph, &edges, options.balance);
  ctx.work().edges += edges;
  ctx.explain(std::string(options.label) + ": mxv on the GPU, push (balance " + to_string(options.balance) +
              ") over the transpose, " + std::to_string(edges) + " frontier edges");
  cpu::assign_result(w, std::move(result), m, replace);
}

}  // namespace gql::gpu
