// The CUDA JIT in each rank (CompilerOptions::ranks and ::devices): the stdlib's fof, bfs, apsp and
// lu_factor, compiled by nvcc for the ranks' GPUs and called on every rank with the same whole
// arguments, give every rank the one-GPU JIT kernels' results: fof, bfs and apsp (integer weights)
// exactly, lu_factor's pivots exactly and its factors to rounding (cuBLAS may round a call of other
// columns otherwise). Run by CTest under mpiexec with 1 and 2 ranks; every rank compiles the same
// source, one builds it into the shared cache while the others wait.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <tuple>

#include "dist_check.hpp"
#include "gpu_check.hpp"
#include "gql/generate.hpp"
#include "gql/gql.hpp"
#include "gql/jit.hpp"
#include "stdlib_sources.hpp"

namespace {

using namespace gql;

Module compiled(const dist::DeviceWorld* devices) {
  CompilerOptions options;
  options.target = Target::cuda;
  options.cache_dir = std::string(GQL_BINARY_DIR) + "/test-dist-jit-cache";
  if (devices != nullptr) {
    options.ranks = &devices->world();
    options.devices = devices;
  }
  return Compiler(options).compile_source(test_support::stdlib_sources({"fof", "bfs", "apsp", "lu"}),
                                          "stdlib_kernels.gql");
}

void same_results() {
  const dist::DeviceWorld& devices = gpu_test::the_devices();
  const Module over = compiled(&devices), one = compiled(nullptr);
  const std::string ranks = " on " + std::to_string(devices.world().size()) + " ranks";
  ReadOptions symmetrize;
  symmetrize.symmetrize = true;
  const Csr<bool> G = generate_graph<bool>("kron:10", symmetrize);

  const auto fof = [](const Module& m) { return m.kernel("fof").bind<Csr<uint64_t>(const Csr<bool>&)>(); };
  const Csr<uint64_t> got_fof = fof(over)(G), want_fof = fof(one)(G);
  GPU_CHECK_MSG(got_fof.nvals() == want_fof.nvals() &&
                    std::ranges::equal(got_fof.row_offsets(), want_fof.row_offsets()) &&
                    std::ranges::equal(got_fof.col_indices(), want_fof.col_indices()) &&
                    std::ranges::equal(got_fof.values(), want_fof.values()),
                "fof differs from the one-GPU kernel's" + ranks);

  const auto bfs = [](const Module& m) { return m.kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>(); };
  for (const int32_t source : {0, 7, 300}) {
    const Vector<int32_t> got = bfs(over)(G, source), want = bfs(one)(G, source);
    GPU_CHECK_MSG(std::ranges::equal(got.indices(), want.indices()) && std::ranges::equal(got.values(), want.values()),
                  "bfs from " + std::to_string(source) + " differs" + ranks);
  }

  // Integer weights: every path's sum is exact, whatever order the closure adds in.
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> weight(1, 9), coin(0, 9);
  constexpr int n = 300;
  Matrix<float> D(n, n, std::numeric_limits<float>::infinity());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (coin(rng) < 1) D(i, j) = static_cast<float>(weight(rng));
  const auto apsp = [](const Module& m) { return m.kernel("apsp").bind<Matrix<float>(const Matrix<float>&)>(); };
  GPU_CHECK_MSG(std::ranges::equal(apsp(over)(D).data(), apsp(one)(D).data()), "apsp differs" + ranks);

  // 700 rows: two panels of 512, the second short.
  std::uniform_real_distribution<double> entry(-1.0, 1.0);
  Matrix<double> A(700, 700, 0.0);
  for (double& x : A.data()) x = entry(rng);
  using Factors = std::tuple<Matrix<double>, Vector<int32_t>>;
  const auto lu = [](const Module& m) { return m.kernel("lu_factor").bind<Factors(const Matrix<double>&)>(); };
  const Factors got = lu(over)(A), want = lu(one)(A);
  GPU_CHECK_MSG(std::ranges::equal(std::get<1>(got).values(), std::get<1>(want).values()),
                "lu_factor's pivots differ" + ranks);
  double worst = 0, largest = 0;
  for (size_t i = 0; i < A.data().size(); ++i) {
    worst = std::max(worst, std::abs(std::get<0>(got).data()[i] - std::get<0>(want).data()[i]));
    largest = std::max(largest, std::abs(std::get<0>(want).data()[i]));
  }
  GPU_CHECK_MSG(worst <= 1e-10 * largest, "lu_factor's factors differ by " + std::to_string(worst) + ranks);
}

}  // namespace

int main(int argc, char** argv) { return gpu_test::run_over_ranks(argc, argv, "gpu_test_dist_jit", same_results); }
