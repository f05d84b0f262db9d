// closure(D over S) on the GPU beyond the kernels: out of core (the budget capped so the matrix is
// streamed in ragged super tiles) equal to in core and to gql::cpu::closure, predecessors that spell
// shortest paths, the DIMACS road graph rome99 densified (from GQL_DATA_DIR; skipped with a message
// when absent), options that are not built refused, and the ops of generated code on a kernel's values
// (the matrix on the device or the host; the closure in core and streamed, the closure with paths in
// core) equal to gql::cpu::closure.
#include <cstdint>
#include <random>
#include <string>
#include <vector>
#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <tuple>

#include "gpu_check.hpp"
#include "gql/device/closure/closure_ops.hpp"
#include "test_closure_check.hpp"

namespace {

using namespace gql;
using namespace closure_semirings;
using namespace closure_check;
using gpu_test::small_inputs;

// The budget capped so the matrix is streamed in several ragged super tiles: the same result as in core.
template <class S, class T>
void check_out_of_core(const std::string& what, const Matrix<T>& input, size_t cap, int streams) {
  gpu::DeviceClosureOptions in_core;
  in_core.out_of_core = gpu::OutOfCore::off;
  Matrix<T> expected = input.clone();
  gpu::closure<S>(expected, in_core);
  gpu::DeviceClosureOptions streamed;
  streamed.out_of_core = gpu::OutOfCore::on;  // the cap sets the super tile even where the matrix would fit
  streamed.streams = streams;
  MemoryBudget::global().set_limit(cap);
  Matrix<T> got = input.clone();
  gpu::ClosurePlan plan;
  try {
    plan = gpu::closure<S>(got, streamed);
  } catch (...) {
    MemoryBudget::global().set_limit(std::nullopt);
    throw;
  }
  MemoryBudget::global().set_limit(std::nullopt);
  GPU_CHECK_MSG(plan.out_of_core && plan.super_tile < input.n_rows(), what + ": planned " + plan.describe());
  GPU_CHECK_MSG(std::equal(expected.data().begin(), expected.data().end(), got.data().begin()),
                what + ": out of core (" + plan.describe() + ") differs from in core");
  Matrix<T> reference = input.clone();
  cpu::closure<S>(reference);
  GPU_CHECK_MSG(count_differences(reference, got) == 0, what + ": out of core differs from the OpenMP closure");
}

void out_of_core_equals_in_core() {
  const int64_t n = small_inputs() ? 300 : 1000;
  const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 1000) + 1; };
  const double density = 8.0 / static_cast<double>(n);
  // Caps that give 128 x 128 super tiles on 3 streams and 256 x 256 ones on 2.
  const size_t cap128 = 3 * 3 * 128 * 128 * 4 * 10 / 9 + 4096;
  const size_t cap256 = 3 * 2 * 256 * 256 * 4 * 10 / 9 + 4096;
  check_out_of_core<MinPlus<float>>("out of core f32, 3 streams", random_matrix<MinPlus<float>, float>(n, density, 11, weight, 0),
                                    cap128, 3);
  check_out_of_core<MinPlusDpx>("out of core i32 DPX, 2 streams", random_matrix<MinPlusDpx, int>(n, density, 12, weight, 0),
                                cap256, 2);
  check_out_of_core<OrAnd>("out of core bool, 3 streams",
                           random_matrix<OrAnd, bool>(n, 1.2 / static_cast<double>(n), 13, [](std::mt19937_64&) { return 1; }, 1),
                           3 * 3 * 128 * 128 * 10 / 9 + 4096, 3);
  // Predecessors need the matrix in device memory: refused, not silently wrong.
  MemoryBudget::global().set_limit(size_t{1} << 16);
  bool refused = false;
  try {
    Matrix<int> d = random_matrix<MinPlusDpx, int>(n, density, 14, weight, 0);
    Matrix<int32_t> pred = cpu::initial_predecessors<MinPlusDpx>(d);
    gpu::closure<MinPlusDpx>(d, gpu::DeviceClosureOptions{}, &pred);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::oom;
  }
  MemoryBudget::global().set_limit(std::nullopt);
  GPU_CHECK_MSG(refused, "predecessors with a matrix larger than the budget: an oom error");
}

// Predecessors spell shortest paths: the last edge p -> j of the path to j has D(i, j) = D(i, p) + w(p, j).
void predecessors_spell_paths() {
  const int64_t n = small_inputs() ? 60 : 260;
  const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 50) + 1; };
  const Matrix<int> w = random_matrix<MinPlusDpx, int>(n, 3.0 / static_cast<double>(n), 21, weight, 0);
  Matrix<int> expected = w.clone();
  cpu::closure<MinPlusDpx>(expected);
  Matrix<int> d = w.clone();
  Matrix<int32_t> pred = cpu::initial_predecessors<MinPlusDpx>(w);
  gpu::closure<MinPlusDpx>(d, gpu::DeviceClosureOptions{}, &pred);
  GPU_CHECK_MSG(count_differences(expected, d) == 0, "distances with predecessors differ from the OpenMP closure");
  int64_t bad = 0, reachable = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == j || d(i, j) == MinPlusDpx::zero()) {
        bad += i != j && pred(i, j) != -1;
        continue;
      }
      ++reachable;
      const int32_t p = pred(i, j);
      bad += p < 0 || p >= n || w(p, j) == MinPlusDpx::zero() || d(i, j) != (p == i ? 0 : d(i, p)) + w(p, j);
    }
  GPU_CHECK_MSG(reachable > 0 && bad == 0, std::to_string(bad) + " of " + std::to_string(reachable) +
                                               " predecessors do not end a shortest path");
}

// rome99.gr (DIMACS, 1-based arcs "a u v w"), densified: i32 (DPX) and f64 shortest paths.
void road_graph() {
  const char* dir = std::getenv("GQL_DATA_DIR");
  if (small_inputs()) return;
  if (dir == nullptr) {
    std::printf("road graph: GQL_DATA_DIR not set; skipped\n");
    return;
  }
  std::ifstream in(std::string(dir) + "/rome99.gr");
  if (!in) {
    std::printf("road graph: %s/rome99.gr absent; skipped\n", dir);
    return;
  }
  int64_t n = 0;
  std::vector<std::tuple<int64_t, int64_t, int>> arcs;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string tag;
    words >> tag;
    if (tag == "p") {
      std::string kind;
      int64_t m = 0;
      words >> kind >> n >> m;
    } else if (tag == "a") {
      int64_t u = 0, v = 0;
      int weight = 0;
      words >> u >> v >> weight;
      arcs.emplace_back(u - 1, v - 1, weight);
    }
  }
  GPU_CHECK_MSG(n > 0 && !arcs.empty(), "rome99.gr: a problem line and arcs");
  Matrix<int> d(n, n, MinPlusDpx::zero());
  Matrix<double> f(n, n, MinPlus<double>::zero());
  for (int64_t i = 0; i < n; ++i) d(i, i) = 0, f(i, i) = 0;
  for (const auto& [u, v, weight] : arcs) {
    d(u, v) = std::min(d(u, v), weight);
    f(u, v) = std::min(f(u, v), static_cast<double>(weight));
  }
  Matrix<int> expected = d.clone();
  cpu::closure<MinPlusDpx>(expected);
  Matrix<int> got = d.clone();
  gpu::closure<MinPlusDpx>(got);
  GPU_CHECK_MSG(count_differences(expected, got) == 0, "rome99 i32 shortest paths differ from the OpenMP closure");
  Matrix<double> got_f = f.clone();
  gpu::closure<MinPlus<double>>(got_f);
  int64_t bad = 0;
  for (size_t e = 0; e < got_f.data().size(); ++e)
    bad += !same_value(got_f.data()[e], expected.data()[e] == MinPlusDpx::zero() ? MinPlus<double>::zero()
                                                                                  : static_cast<double>(expected.data()[e]));
  GPU_CHECK_MSG(bad == 0, "rome99 f64 shortest paths differ from the i32 ones");
  std::printf("road graph: rome99, %lld vertices, %zu arcs checked\n", static_cast<long long>(n), arcs.size());
}

// Options that are not built: a usage error, nothing run.
void bad_options_refused() {
  const auto refused = [](auto semiring, gpu::DeviceClosureOptions o) {
    using S = decltype(semiring);
    using V = typename S::value_type;
    try {
      Matrix<V> d(10, 10, V{1});
      gpu::closure<S>(d, o);
    } catch (const Error& e) {
      return e.kind() == ErrorKind::usage;
    }
    return false;
  };
  gpu::DeviceClosureOptions registers;
  registers.tile = 512;
  GPU_CHECK_MSG(refused(MinPlus<float>{}, registers), "register tiles with k-block 512 are not built: a usage error");
  gpu::DeviceClosureOptions shared;
  shared.kernel = gpu::ClosureKernel::shared_tiles;
  shared.tile = 128;
  GPU_CHECK_MSG(refused(MinPlus<float>{}, shared), "shared tiles of 128 are not built: a usage error");
  gpu::DeviceClosureOptions square;
  square.register_tile = {16, 16};
  GPU_CHECK_MSG(refused(MinPlus<float>{}, square), "16x16 register tiles are not built: a usage error");
  gpu::DeviceClosureOptions wide;
  wide.register_tile = {8, 16};
  GPU_CHECK_MSG(refused(MinPlus<double>{}, wide), "8x16 register tiles of 8-byte values are not built: a usage error");
}

// The op generated code calls, on Residents: the argument borrowed on the device (a JIT caller's) or
// on the host (a program's), sizes that are multiples of 128 (the kernels run on the result as it
// lies) and not (a padded copy), in core (the result left on the device) and streamed through host
// memory: every entry equal to the OpenMP closure's, the argument unchanged.
void op_on_kernel_values() {
  const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 100) + 1; };
  const Stream stream;
  for (const int64_t n : small_inputs() ? std::vector<int64_t>{128, 140} : std::vector<int64_t>{256, 300}) {
    const Matrix<float> input = random_matrix<MinPlus<float>, float>(n, 6.0 / static_cast<double>(n), 9, weight, 0);
    Matrix<float> expected = input.clone();
    cpu::closure<MinPlus<float>>(expected);
    const DeviceMatrix<float> on_device = to_device(input, stream);
    for (const bool device_argument : {true, false})
      for (const gpu::OutOfCore where : {gpu::OutOfCore::automatic, gpu::OutOfCore::on}) {
        const std::string what = "closure op, n=" + std::to_string(n) + (device_argument ? ", device" : ", host") +
                                 " argument" + (where == gpu::OutOfCore::on ? ", out of core" : "");
        KernelContext ctx(/*explain=*/true);
        auto D = device_argument ? gpu::Resident<Matrix<float>>::borrow(on_device)
                                 : gpu::Resident<Matrix<float>>::borrow(input);
        gpu::Resident<Matrix<float>> out;
        gpu::closure<MinPlus<float>>(out, D, gpu::ClosureSchedule{0, {8, 8}, 0, true, where, 2, "op"}, ctx);
        GPU_CHECK_MSG(out.on_device() == (where != gpu::OutOfCore::on), what + ": the result is on the " +
                                                                            (out.on_device() ? "device" : "host"));
        const Matrix<float> got = gpu::take_host(std::move(out), stream);
        GPU_CHECK_MSG(count_differences(expected, got) == 0, what + ": differs from the OpenMP closure (" +
                                                                  ctx.plan().front() + ")");
        const Matrix<float> argument = on_device.to_host(stream);
        GPU_CHECK_MSG(std::equal(argument.data().begin(), argument.data().end(), input.data().begin()),
                      what + ": the argument was written");
      }
  }
}

// pred(i, j) ends a best path from i to j of the closed matrix `d` over the input `w` wherever j is
// reached from i (i != j): d(i, j) = d(i, p) + w(p, j), d(i, i) taken as 0; -1 elsewhere. Returns how
// many entries break that.
template <class T>
int64_t predecessors_off_paths(const Matrix<T>& w, const Matrix<T>& d, const Matrix<int32_t>& pred, T unreached) {
  const int64_t n = d.n_rows();
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int32_t p = pred(i, j);
      if (i == j || d(i, j) == unreached) {
        bad += p != -1;
        continue;
      }
      bad += p < 0 || p >= n || w(p, j) == unreached || d(i, j) != (p == i ? T{} : d(i, p)) + w(p, j);
    }
  return bad;
}

// closure(D over S, paths) as generated code calls it, on Residents: the argument borrowed on the
// device (a JIT caller's) or on the host (a program's, uploaded once), the distances and predecessors
// left on the device. Against the OpenMP closure with predecessors run as one tile (plain
// Floyd-Warshall, k ascending: the GPU kernel's order, so every predecessor is the same) and as the
// OpenMP program runs it (tiles of 128: the same distances; among equally short paths it may pick
// another, so its predecessors are checked to end shortest paths, and -1 where the twin's are).
template <class S, class T>
void check_paths_op(const std::string& what, const Matrix<T>& input) {
  const int64_t n = input.n_rows();
  Matrix<T> one_tile = input.clone();
  Matrix<int32_t> one_tile_pred = cpu::initial_predecessors<S>(input);
  cpu::closure<S>(one_tile, cpu::ClosureOptions{.variant = cpu::ClosureVariant::parallel_for, .tile = n},
                  &one_tile_pred);
  Matrix<T> tiled = input.clone();
  Matrix<int32_t> tiled_pred = cpu::initial_predecessors<S>(input);
  cpu::closure<S>(tiled, cpu::ClosureOptions{}, &tiled_pred);
  const Stream stream;
  const DeviceMatrix<T> on_device = to_device(input, stream);
  for (const bool device_argument : {true, false}) {
    const std::string at = what + (device_argument ? ", device" : ", host") + " argument";
    KernelContext ctx(/*explain=*/true);
    auto D = device_argument ? gpu::Resident<Matrix<T>>::borrow(on_device) : gpu::Resident<Matrix<T>>::borrow(input);
    gpu::Resident<Matrix<T>> out;
    gpu::Resident<Matrix<int32_t>> pred;
    gpu::closure_paths<S>(out, pred, D, gpu::ClosureSchedule{.label = "paths"}, ctx);
    GPU_CHECK_MSG(out.on_device() && pred.on_device(), at + ": the distances and predecessors are on the device");
    GPU_CHECK_MSG(D.on_device(), at + ": the argument is read on the device");
    const Matrix<T> got = gpu::take_host(std::move(out), stream);
    const Matrix<int32_t> got_pred = gpu::take_host(std::move(pred), stream);
    GPU_CHECK_MSG(count_differences(one_tile, got) == 0 && count_differences(tiled, got) == 0,
                  at + ": distances differ from the OpenMP closure (" + ctx.plan().front() + ")");
    GPU_CHECK_MSG(std::equal(got_pred.data().begin(), got_pred.data().end(), one_tile_pred.data().begin()),
                  at + ": predecessors differ from the OpenMP closure's plain Floyd-Warshall");
    const int64_t off = predecessors_off_paths(input, got, got_pred, static_cast<T>(S::zero()));
    GPU_CHECK_MSG(off == 0, at + ": " + std::to_string(off) + " predecessors do not end a shortest path");
    int64_t unreached = 0;
    for (size_t e = 0; e < got_pred.data().size(); ++e)
      unreached += (got_pred.data()[e] == -1) != (tiled_pred.data()[e] == -1);
    GPU_CHECK_MSG(unreached == 0, at + ": " + std::to_string(unreached) + " entries reached on one side only");
    GPU_CHECK_MSG(predecessors_off_paths(input, tiled, tiled_pred, static_cast<T>(S::zero())) == 0,
                  at + ": the OpenMP closure's own predecessors end shortest paths");
    const Matrix<T> argument = on_device.to_host(stream);
    GPU_CHECK_MSG(std::equal(argument.data().begin(), argument.data().end(), input.data().begin()),
                  at + ": the argument was written");
  }
}

// The paths op on generated matrices of i32 (DPX-capable min_plus) and f32 with integer weights (exact
// sums), small weights so that equally short paths are common; then a matrix beyond the budget, and
// out_of_core on, refused with Error(oom) (the predecessors' kernel runs in core only).
void paths_op_on_kernel_values() {
  const auto weight = [](std::mt19937_64& r) { return static_cast<int>(r() % 4) + 1; };
  for (const int64_t n : small_inputs() ? std::vector<int64_t>{70, 140} : std::vector<int64_t>{200, 300}) {
    const std::string at = " n=" + std::to_string(n);
    const double density = 4.0 / static_cast<double>(n);
    check_paths_op<MinPlusDpx>("paths op i32" + at, random_matrix<MinPlusDpx, int>(n, density, 31, weight, 0));
    check_paths_op<MinPlus<float>>("paths op f32" + at,
                                   random_matrix<MinPlus<float>, float>(n, density, 32, weight, 0));
  }
  const Matrix<int> input = random_matrix<MinPlusDpx, int>(200, 0.02, 33, weight, 0);
  const auto refused = [&](gpu::OutOfCore where, size_t cap) {
    MemoryBudget::global().set_limit(cap);
    bool oom = false;
    try {
      KernelContext ctx;
      auto D = gpu::Resident<Matrix<int>>::borrow(input);
      gpu::Resident<Matrix<int>> out;
      gpu::Resident<Matrix<int32_t>> pred;
      gpu::closure_paths<MinPlusDpx>(out, pred, D, gpu::ClosureSchedule{.out_of_core = where}, ctx);
    } catch (const Error& e) {
      oom = e.kind() == ErrorKind::oom;
    }
    MemoryBudget::global().set_limit(std::nullopt);
    return oom;
  };
  GPU_CHECK_MSG(refused(gpu::OutOfCore::automatic, size_t{1} << 18),
                "paths op with a matrix beyond the budget: an oom error");
  GPU_CHECK_MSG(refused(gpu::OutOfCore::on, size_t{1} << 30), "paths op with out_of_core on: an oom error");
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_closure_out_of_core", [] {
    out_of_core_equals_in_core();
    predecessors_spell_paths();
    road_graph();
    bad_options_refused();
    op_on_kernel_values();
    paths_op_on_kernel_values();
  });
}
