// The device value masks (gql/device/values/vector_mask.hpp and graph_mask.hpp, with the runtime library's
// kernels of runtime/src/cuda/vector_mask.cu and graph_value_mask.cu) against their OpenMP twins
// (gql/cpu/value_mask.hpp), exact: masks held only on the device, of bool, integer and float values
// with zeros among them (and -0.0, which selects nothing, and NaN, which selects), sparse and dense,
// plain and complemented, replace and merge; scalar assignments, copies and products of vectors, and
// graph products by every masked method, whose result stays on the device (the mask read only there)
// or is merged into an output that holds entries.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "mask_values.hpp"
#include "skewed_graph.hpp"
#include "vector_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's ops, and gql/cpu/ops.hpp, the reference
#include "gql/generate.hpp"

namespace {

using namespace gql;
using gpu_test::MinPlusI32;
using test_support::mask_value;
using gpu_test::Paths;
using gpu_test::same_graph;
using gpu_test::same_vector;
using Count = Paths::value_type;

// A mask over every other index (sparse) or every index (dense), valued mask_value(k).
template <class M>
Vector<M> mask_vector(int64_t n, bool dense) {
  Vector<M> sparse = gpu_test::every<M>(n, 0, 2, [](int64_t k) { return mask_value<M>(k / 2 + k); });
  if (!dense) return sparse;
  Array<storage_t<M>> values;
  for (int64_t k = 0; k < n; ++k) values.push_back(static_cast<storage_t<M>>(mask_value<M>(k / 2 + k)));
  return Vector<M>::dense(n, std::move(values));
}

template <class M>
void check_vector_masks(const std::string& name, const Csr<int>& G) {
  const int64_t n = G.n_rows();
  const Stream stream;
  const Vector<int> before = gpu_test::every<int>(n, 1, 4, [](int64_t k) { return 100 + k % 9; });
  const Vector<int> source = gpu_test::every<int>(n, 0, 3, [](int64_t k) { return 1 + k % 5; });
  KernelContext cpu_ctx, gpu_ctx;
  int cases = 0;
  for (const bool dense : {false, true}) {
    const Vector<M> mask = mask_vector<M>(n, dense);
    for (const bool complement : {false, true})
      for (const bool replace : {false, true}) {
        const std::string what = name + (dense ? " dense" : " sparse") + (complement ? " complemented" : "") +
                                 (replace ? " replace" : " merge");
        gpu::Resident<Vector<M>> rm(to_device(mask, stream));  // the mask only on the device
        const auto run_both = [&](const std::string& op, auto host_op, auto device_op) {
          Vector<int> expected = before.clone();
          gpu::Resident<Vector<int>> got(before.clone());
          host_op(expected, cpu::value_mask(mask, complement));
          device_op(got, gpu::vector_value_mask(rm, complement));
          GPU_CHECK_MSG(same_vector(got.take_host(stream), expected), what + " " + op);
          ++cases;
        };
        run_both(
            "assign_scalar", [&](Vector<int>& w, const auto& m) { cpu::assign_scalar(w, m, replace, 9); },
            [&](auto& w, const auto& m) { gpu::assign_scalar(w, m, replace, 9, stream); });
        auto rs = gpu::Resident<Vector<int>>::borrow(source);
        run_both(
            "assign", [&](Vector<int>& w, const auto& m) { cpu::assign(w, m, replace, source); },
            [&](auto& w, const auto& m) { gpu::assign(w, m, replace, rs, stream); });
        auto rG = gpu::Resident<Csr<int>>::borrow(G);
        const cpu::TraversalOptions options{cpu::Direction::automatic, 15, 18, 0, "w"};
        run_both(
            "vxm", [&](Vector<int>& w, const auto& m) { cpu::vxm<MinPlusI32>(w, m, replace, source, G, options, cpu_ctx); },
            [&](auto& w, const auto& m) {
              gpu::vxm<MinPlusI32>(w, m, replace, rs, rG, gpu::TraversalOptions{options}, gpu_ctx);
            });
        GPU_CHECK_MSG(!rm.on_host(), what + ": the vector ops read the mask on the device");
      }
  }
  // The value mask selects less than the structure here: the two must differ.
  if constexpr (!std::is_same_v<M, bool>) {
    const Vector<M> mask = mask_vector<M>(n, false);
    Vector<int> by_value = before.clone(), by_structure = before.clone();
    cpu::assign_scalar(by_value, cpu::value_mask(mask, false), true, 9);
    cpu::assign_scalar(by_structure, cpu::mask(mask, false), true, 9);
    GPU_CHECK_MSG(!same_vector(by_value, by_structure), name + ": value and structural masks differ");
  }
  std::printf("  %-44s %d cases\n", name.c_str(), cases);
}

// A mask graph of G's size, valued mask_value(p) at its p-th entry (a pattern graph: all true).
template <class M>
Csr<M> mask_graph(int64_t n) {
  const Csr<bool> structure = test_support::skewed_graph<bool>(n, 11);
  Array<offset_t> offsets(structure.row_offsets().begin(), structure.row_offsets().end());
  Array<index_t> cols(structure.col_indices().begin(), structure.col_indices().end());
  Array<storage_t<M>> values;
  if constexpr (stores_values<M>)
    for (size_t p = 0; p < cols.size(); ++p) values.push_back(static_cast<storage_t<M>>(mask_value<M>(int64_t(p))));
  return Csr<M>(n, n, std::move(offsets), std::move(cols), std::move(values));
}

// C<value(M)> = G * G over the path count, M only on the device, against cpu::mxm.
template <class M>
void check_graph_masks(const std::string& name, const Csr<bool>& G) {
  const Stream stream;
  const Csr<M> mask = mask_graph<M>(G.n_rows());
  const Csr<Count> holding = convert<Count>(test_support::skewed_graph<float>(G.n_rows(), 13));
  int cases = 0;
  for (const bool complement : {false, true})
    for (const bool replace : {false, true})
      for (const Csr<Count>* before : {&holding, static_cast<const Csr<Count>*>(nullptr)})
        for (const auto method : {gpu::MaskedMethod::automatic, gpu::MaskedMethod::dot, gpu::MaskedMethod::saxpy}) {
          const std::string what = name + (complement ? " complemented" : "") + (replace ? " replace" : " merge") +
                                   (before ? " into entries" : " into an empty graph") + " method " +
                                   std::to_string(static_cast<int>(method));
          const Csr<Count> start = before ? before->clone() : Csr<Count>(G.n_rows(), G.n_cols());
          Csr<Count> want = start.clone();
          KernelContext cpu_ctx, ctx;
          cpu::mxm<Paths>(want, cpu::value_mask(mask, complement), replace, G, G,
                          cpu::ProductOptions{cpu::Accumulator::automatic, 0, "reference"}, cpu_ctx);
          gpu::Resident<Csr<bool>> g = gpu::Resident<Csr<bool>>::borrow(G);
          gpu::Resident<Csr<M>> m(to_device(mask, stream));
          gpu::Resident<Csr<Count>> c(start.clone());
          gpu::mxm<Paths>(c, gpu::graph_value_mask(m, complement), replace, g, g,
                          gpu::ProductOptions{0, 0, 0, 256, "value mask", method}, ctx);
          if (!before) GPU_CHECK_MSG(!m.on_host(), what + ": the mask read on the device only");
          GPU_CHECK_MSG(same_graph(c.take_host(stream), want), what);
          ++cases;
        }
  std::printf("  %-44s %d cases\n", name.c_str(), cases);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_value_masks", [] {
    const bool small = gpu_test::small_inputs();
    const Csr<bool> G = generate_graph<bool>(small ? "kron:8" : "kron:13");
    const Csr<int> weighted = convert<int>(test_support::skewed_graph<float>(G.n_rows(), 5));
    check_vector_masks<bool>("vector<bool> masks", weighted);
    check_vector_masks<int>("vector<i32> masks", weighted);
    check_vector_masks<uint8_t>("vector<u8> masks", weighted);
    check_vector_masks<float>("vector<f32> masks", weighted);
    check_vector_masks<double>("vector<f64> masks", weighted);
    check_graph_masks<bool>("graph<bool> masks", G);
    check_graph_masks<int64_t>("graph<i64> masks", G);
    check_graph_masks<float>("graph<f32> masks", G);
    check_graph_masks<double>("graph<f64> masks", G);
  });
}
