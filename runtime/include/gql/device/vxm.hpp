// w<mask, replace> = v * G over any semiring S on the device, with the signature of gql::cpu's vxm
// op (cpu/ops.hpp), so loops of masked products (PageRank, connected components) run on the GPU.
// The product pushes from v's entries, edge-balanced, into a dense accumulator on the device with
// an atomic agg per product, the mask (structural or complemented) checked per column there; the
// result comes back and is assigned under the mask (replace or merge) as on the CPU. The graph is
// uploaded once per op and kept across the iterations of its loop (op state, as the CPU keeps its
// transpose). Products over a non-associative-in-floating-point agg (a float sum) combine in
// another order than the CPU's, so such results agree to rounding, not bit for bit. Host code.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// cpu/closure.hpp (through cpu/ops.hpp) holds a `#pragma GCC unroll` for the host compiler, which
// nvcc's front end reports as unknown.
#pragma nv_diag_suppress 1675
#include "gql/cpu/ops.hpp"
#pragma nv_diag_default 1675
#include "gql/device.hpp"
#include "gql/device/frontier.hpp"
#include "gql/device/vxm_kernels.cuh"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

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
};

// t<mask> = v * G (no assignment): the columns the mask allows that at least one product reached.
template <class S, class TV, class TG>
Vector<typename S::value_type> vxm_product(const Vector<TV>& v, const Csr<TG>& G, const cpu::VectorMask& mask,
                                           VxmGraph<TG>& device_graph, int64_t* frontier_edges = nullptr) {
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
  // Whole 32-bit words: a CAS on a 1- or 2-byte value works on the aligned word around it.
  DeviceBuffer<Cell> accumulator((cells * sizeof(Cell) + 3) / 4 * 4 / sizeof(Cell));
  DeviceBuffer<unsigned char> present(cells);
  DeviceBuffer<unsigned char> allowed;
  std::vector<unsigned char> host_allowed;
  if (mask.active()) {
    host_allowed.resize(cells, 0);
    for (int64_t j = 0; j < n; ++j) host_allowed[static_cast<size_t>(j)] = mask.allows(j) ? 1 : 0;
    allowed = DeviceBuffer<unsigned char>(cells);
    allowed.copy_from_host(std::span<const unsigned char>(host_allowed), stream);
  }
  auto& queues = device_graph.queues();
  V* cells_as_values = reinterpret_cast<V*>(accumulator.data());
  device::vxm_clear<device::traversal_block, V><<<detail::grid_for(n, queues.resident()), device::traversal_block, 0,
                                                  stream.get()>>>(cells_as_values, present.data(), n, S::zero());
  GQL_CUDA_CHECK_LAUNCH();
  DeviceBuffer<storage_t<TV>> values;
  if (edges > 0) {
    const auto q = static_cast<long long>(ks.size());
    GQL_CUDA_CHECK(cudaMemcpyAsync(queues.queue(), ks.data(), ks.size() * sizeof(index_t), cudaMemcpyHostToDevice,
                                   stream.get()));
    values = DeviceBuffer<storage_t<TV>>(ks.size());
    values.copy_from_host(std::span<const storage_t<TV>>(kv), stream);
    queues.scan_degrees(device_graph.offsets(), q);
    const long long tiles = (edges + device::traversal_tile - 1) / device::traversal_tile;
    device::vxm_push<device::traversal_block, S, TV, TG>
        <<<static_cast<unsigned>(std::min(tiles, queues.resident())), device::traversal_block, 0, stream.get()>>>(
            device_graph.view(), queues.queue(), values.data(), queues.scan(), q, edges,
            mask.active() ? allowed.data() : nullptr, cells_as_values, present.data());
    GQL_CUDA_CHECK_LAUNCH();
  }
  std::vector<Cell> host_values(cells);
  std::vector<unsigned char> host_present(cells);
  accumulator.copy_to_host(std::span<Cell>(host_values), stream);
  present.copy_to_host(std::span<unsigned char>(host_present), stream);
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
         const cpu::TraversalOptions& options, KernelContext& ctx) {
  const cpu::VectorMask m = cpu::as_vector_mask(mask_in);
  auto& device_graph = ctx.op_state<VxmGraph<TG>>(std::string(options.label) + "/gpu");
  int64_t edges = 0;
  auto result = vxm_product<S>(v, G, m, device_graph, &edges);
  ctx.work().edges += edges;
  ctx.explain(std::string(options.label) + ": vxm on the GPU, push (edge-balanced) over " + std::to_string(edges) +
              " frontier edges");
  cpu::assign_result(w, std::move(result), m, replace);
}

}  // namespace gql::gpu
