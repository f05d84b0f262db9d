// The CUDA JIT on the GPU: the examples' fof, bfs and apsp and the stdlib's components compiled by
// gql::Compiler for Target::cuda (NVRTC and the host compiler) and Target::openmp (host compiler),
// their results compared exactly on generated inputs:
// graphs equal entry for entry, BFS depths equal, shortest distances equal bit for bit (integer
// weights, so every path sum is exact whatever order the closure adds in). The OpenMP JIT is itself
// checked against reference code by test/unit/jit. Prints each CUDA kernel's time until ready: cold
// (into an empty cache), from the disk cache (a new Compiler after the loaded libraries are
// forgotten, as in a new process) and in-process (the same Compiler again). Then fof and components
// again with their results taken on the device and called on streams of the test's, closures under
// each design their schedules choose (shared tiles, 8x16 register tiles over i32, streamed out of
// core, predecessors, reachability over bool), the stdlib's single-source paths, and the stdlib's LU
// checked by its residual.
//
//   test_jit_cuda [--small] [--cache DIR]
// --small: small inputs (compute-sanitizer). --cache DIR: the kernel cache to use and keep (default:
// a fresh folder, removed at the end), so a second run (the sanitizer's) compiles nothing.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <future>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "gql/device.hpp"
#include "gql/generate.hpp"
#include "gql/gql.hpp"
#include "gql/jit.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using gql::gpu_test::same_graph;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The examples' specs, and the stdlib's connected components (vector products between CPU ops).
const char* const spec_names[] = {"fof", "bfs", "apsp", "components"};
constexpr int spec_count = 4;
std::string spec_path(const char* name) {
  const std::string folder = std::string(name) == "components" ? "/stdlib/std/" : "/examples/";
  return std::string(GQL_SOURCE_DIR) + folder + name + ".gql";
}

using Fof = gql::BoundKernel<gql::Csr<uint64_t>(const gql::Csr<bool>&)>;
using Bfs = gql::BoundKernel<gql::Vector<int32_t>(const gql::Csr<bool>&, int32_t)>;
using Apsp = gql::BoundKernel<gql::Matrix<float>(const gql::Matrix<float>&)>;
using Components = gql::BoundKernel<gql::Vector<int64_t>(const gql::Csr<bool>&)>;

// A spec that did not compile is a failed check; the others are still compared.
struct Kernels {
  std::optional<Fof> fof;
  std::optional<Bfs> bfs;
  std::optional<Apsp> apsp;
  std::optional<Components> components;
};

Kernels bind_kernels(const std::vector<std::optional<gql::Module>>& m) {
  Kernels k;
  if (m[0]) k.fof = m[0]->kernel("fof").bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  if (m[1]) k.bfs = m[1]->kernel("bfs").bind<gql::Vector<int32_t>(const gql::Csr<bool>&, int32_t)>();
  if (m[2]) k.apsp = m[2]->kernel("apsp").bind<gql::Matrix<float>(const gql::Matrix<float>&)>();
  if (m[3]) k.components = m[3]->kernel("components").bind<gql::Vector<int64_t>(const gql::Csr<bool>&)>();
  return k;
}

// Compiles the specs for one target, one thread each; `seconds[s]` gets spec s's time.
std::vector<std::optional<gql::Module>> compile_all(const gql::Compiler& compiler, const char* target, double* seconds) {
  std::vector<std::thread> threads;
  std::vector<std::optional<gql::Module>> built(spec_count);
  std::vector<std::string> errors(spec_count);
  for (int s = 0; s < spec_count; ++s)
    threads.emplace_back([&, s] {
      const auto t = Clock::now();
      try {
        built[static_cast<size_t>(s)] = compiler.compile_file(spec_path(spec_names[s]));
      } catch (const std::exception& e) {
        errors[static_cast<size_t>(s)] = e.what();
      }
      seconds[s] = since(t);
    });
  for (auto& t : threads) t.join();
  for (size_t s = 0; s < spec_count; ++s)
    GPU_CHECK_MSG(errors[s].empty(), std::string(spec_names[s]) + " for " + target + ": " + errors[s]);
  return built;
}

template <class T>
bool same_vector(const gql::Vector<T>& a, const gql::Vector<T>& b) {
  return a.size() == b.size() && a.is_dense() == b.is_dense() &&
         std::equal(a.indices().begin(), a.indices().end(), b.indices().begin(), b.indices().end()) &&
         std::equal(a.values().begin(), a.values().end(), b.values().begin(), b.values().end());
}

bool same_bits(const gql::Matrix<float>& a, const gql::Matrix<float>& b) {
  return a.n_rows() == b.n_rows() && a.n_cols() == b.n_cols() &&
         std::memcmp(a.data().data(), b.data().data(), a.data().size() * sizeof(float)) == 0;
}

// An n x n distance matrix with `degree` edges per vertex, integer weights 1..100, +inf elsewhere.
gql::Matrix<float> random_distances(int64_t n, int degree, uint32_t seed) {
  gql::Matrix<float> d(n, n, std::numeric_limits<float>::infinity());
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> vertex(0, n - 1);
  std::uniform_int_distribution<int> weight(1, 100);
  for (int64_t i = 0; i < n; ++i)
    for (int e = 0; e < degree; ++e) d(i, vertex(rng)) = static_cast<float>(weight(rng));
  return d;
}

int32_t highest_degree_vertex(const gql::Csr<bool>& g) {
  int32_t best = 0;
  for (int64_t v = 1; v < g.n_rows(); ++v)
    if (g.row_degree(v) > g.row_degree(best)) best = static_cast<int32_t>(v);
  return best;
}

void compare(const Kernels& cuda, const Kernels& openmp) {
  const bool small = gql::gpu_test::small_inputs();
  const std::vector<std::string> fof_graphs =
      small ? std::vector<std::string>{"kron:6", "grid:4x5"} : std::vector<std::string>{"kron:12", "urand:12:8", "grid:40x50"};
  for (const std::string& spec : fof_graphs) {
    if (!cuda.fof || !openmp.fof) break;
    const auto g = gql::generate_graph<bool>(spec);
    const auto t = Clock::now();
    const gql::Csr<uint64_t> on_gpu = (*cuda.fof)(g);
    const double gpu_seconds = since(t);
    const gql::Csr<uint64_t> on_cpu = (*openmp.fof)(g);
    GPU_CHECK_MSG(same_graph(on_gpu, on_cpu), "fof on " + spec);
    std::printf("fof %s: %lld entries, equal (GPU call %.1f ms)\n", spec.c_str(), static_cast<long long>(on_cpu.nvals()),
                gpu_seconds * 1e3);
  }
  const std::vector<std::string> bfs_graphs =
      small ? std::vector<std::string>{"kron:8", "grid:6x7"} : std::vector<std::string>{"kron:16", "urand:14", "grid:100x120"};
  for (const std::string& spec : bfs_graphs) {
    if (!cuda.bfs || !openmp.bfs) break;
    const auto g = gql::generate_graph<bool>(spec);
    for (const int32_t source : {int32_t{0}, highest_degree_vertex(g)}) {
      const gql::Vector<int32_t> on_gpu = (*cuda.bfs)(g, source);
      const gql::Vector<int32_t> on_cpu = (*openmp.bfs)(g, source);
      GPU_CHECK_MSG(same_vector(on_gpu, on_cpu), "bfs on " + spec + " from " + std::to_string(source));
      std::printf("bfs %s from %d: %lld reached, equal\n", spec.c_str(), source, static_cast<long long>(on_cpu.nvals()));
    }
  }
  for (const int64_t n : small ? std::vector<int64_t>{40, 70} : std::vector<int64_t>{300, 1000}) {
    if (!cuda.apsp || !openmp.apsp) break;
    const gql::Matrix<float> d = random_distances(n, 4, static_cast<uint32_t>(n));
    const gql::Matrix<float> on_gpu = (*cuda.apsp)(d);
    const gql::Matrix<float> on_cpu = (*openmp.apsp)(d);
    GPU_CHECK_MSG(same_bits(on_gpu, on_cpu), "apsp n=" + std::to_string(n));
    std::printf("apsp n=%lld: equal bit for bit\n", static_cast<long long>(n));
  }
  const std::vector<std::string> component_graphs =
      small ? std::vector<std::string>{"urand:8:2", "grid:6x7"} : std::vector<std::string>{"urand:14:2", "kron:14", "grid:60x70"};
  for (const std::string& spec : component_graphs) {
    if (!cuda.components || !openmp.components) break;
    const auto g = gql::generate_graph<bool>(spec);
    const gql::Vector<int64_t> on_gpu = (*cuda.components)(g);
    const gql::Vector<int64_t> on_cpu = (*openmp.components)(g);
    GPU_CHECK_MSG(same_vector(on_gpu, on_cpu), "components on " + spec);
    std::printf("components %s: %lld labelled, equal\n", spec.c_str(), static_cast<long long>(on_cpu.nvals()));
  }
}

// Results taken on the device, arguments passed from there, and calls on the caller's streams: the
// values of the host calls.
// fof's product leaves its result on the device (its plan says so); components' result is copied
// there. Two streams run at once, and a host-result call queued behind a device-result one on the
// same stream.
void compare_placements(const std::vector<std::optional<gql::Module>>& m, const Kernels& cuda, const Kernels& openmp) {
  if (!m[0] || !m[3] || !cuda.fof || !openmp.fof || !openmp.components) return;
  const bool small = gql::gpu_test::small_inputs();
  auto fof = m[0]->kernel("fof").bind<gql::DeviceCsr<uint64_t>(const gql::Csr<bool>&)>();
  auto components = m[3]->kernel("components").bind<gql::DeviceVector<int64_t>(const gql::Csr<bool>&)>();
  const auto g = gql::generate_graph<bool>(small ? "kron:8" : "kron:12");
  const auto h = gql::generate_graph<bool>(small ? "urand:8:2" : "urand:14:2");
  const gql::Csr<uint64_t> want_fof = (*openmp.fof)(g);
  const gql::Vector<int64_t> want_components = (*openmp.components)(h);

  gql::KernelContext explained(true);
  const gql::DeviceCsr<uint64_t> on_device = fof.run(explained, g);
  bool kept = false;
  for (const std::string& line : explained.plan()) kept |= line.find("result on the device") != std::string::npos;
  GPU_CHECK_MSG(kept, "fof's product did not keep its result on the device");
  const gql::Stream copies;
  GPU_CHECK_MSG(same_graph(on_device.to_host(copies), want_fof), "fof taken on the device");
  // The graph passed from the device too: device in, device out.
  auto device_fof = m[0]->kernel("fof").bind<gql::DeviceCsr<uint64_t>(const gql::DeviceCsr<bool>&)>();
  const gql::DeviceCsr<bool> device_g = gql::to_device(g, copies);
  copies.synchronize();
  GPU_CHECK_MSG(same_graph(device_fof(device_g).to_host(copies), want_fof), "fof from and to the device");

  const gql::Stream first, second;
  std::future<gql::DeviceCsr<uint64_t>> product = fof.async_on(first.get(), g);
  std::future<gql::DeviceVector<int64_t>> labels = components.async_on(second.get(), h);
  std::future<gql::Csr<uint64_t>> host_product = cuda.fof->async_on(first.get(), g);
  GPU_CHECK_MSG(same_graph(product.get().to_host(copies), want_fof), "fof on a stream, taken on the device");
  GPU_CHECK_MSG(same_vector(labels.get().to_host(copies), want_components), "components on a stream, on the device");
  GPU_CHECK_MSG(same_graph(host_product.get(), want_fof), "fof on a stream, taken on the host");
  std::printf("fof and components taken on the device (fof also from it) and called on two streams: equal\n");
}

// Closures under the schedules that pick each kernel variant, through NVRTC, against the OpenMP JIT:
// distances equal bit for bit (integer weights), reachability equal, and every predecessor on a
// shortest path (dist(i, p) + w(p, j) == dist(i, j)).
const char* const closure_variants = R"(
semiring min_plus(a: f32, b: f32) -> f32 { con(a, b) = a + b; agg = min; }
semiring min_plus_i(a: i32, b: i32) -> i32 { con(a, b) = a + b; agg = min; }
semiring or_and(a: bool, b: bool) -> bool { con(a, b) = a && b; agg = or; }
kernel shared(D: matrix<f32>) -> matrix<f32> { return closure(D over min_plus); } schedule cuda { tile 32; per_thread 2 packed; }
kernel wide(D: matrix<i32>) -> matrix<i32> { return closure(D over min_plus_i); } schedule cuda { tile 64; register_tile 8x16; }
kernel streamed(D: matrix<f32>) -> matrix<f32> { return closure(D over min_plus); } schedule cuda { out_of_core on(streams = 2); }
kernel paths(D: matrix<f32>) -> (matrix<f32>, matrix<i32>) { return closure(D over min_plus, paths); }
kernel reach(R: matrix<bool>) -> matrix<bool> { return closure(R over or_and); } schedule cuda { tile 128; }
)";

template <class T>
bool same_entries(const gql::Matrix<T>& a, const gql::Matrix<T>& b) {
  return a.n_rows() == b.n_rows() && a.n_cols() == b.n_cols() &&
         std::equal(a.data().begin(), a.data().end(), b.data().begin(), b.data().end());
}

void check_closures(const gql::Compiler& cuda_compiler, const gql::Compiler& openmp_compiler) {
  using F = gql::Matrix<float>;
  using I = gql::Matrix<int32_t>;
  using B = gql::Matrix<bool>;
  using Paths = std::tuple<F, I>;
  const gql::Module on_gpu = cuda_compiler.compile_source(closure_variants, "jit_closure_variants.gql");
  const gql::Module on_cpu = openmp_compiler.compile_source(closure_variants, "jit_closure_variants.gql");
  const int64_t n = gql::gpu_test::small_inputs() ? 70 : 500;  // not a multiple of any tile
  const F d = random_distances(n, 4, 7);
  I d_int(n, n, 1 << 29);
  B reachable(n, n, false);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (d(i, j) != std::numeric_limits<float>::infinity()) {
        d_int(i, j) = static_cast<int32_t>(d(i, j));
        reachable(i, j) = (i + j) % 3 != 0;  // a sparser pattern than d's
      }
  for (const char* name : {"shared", "streamed"}) {
    const F got = on_gpu.kernel(name).bind<F(const F&)>()(d);
    GPU_CHECK_MSG(same_bits(got, on_cpu.kernel(name).bind<F(const F&)>()(d)), std::string("closure ") + name);
  }
  GPU_CHECK_MSG(same_entries(on_gpu.kernel("wide").bind<I(const I&)>()(d_int),
                             on_cpu.kernel("wide").bind<I(const I&)>()(d_int)),
                "closure wide (i32, 8x16 register tiles)");
  GPU_CHECK_MSG(same_entries(on_gpu.kernel("reach").bind<B(const B&)>()(reachable),
                             on_cpu.kernel("reach").bind<B(const B&)>()(reachable)),
                "closure reach (bool)");
  const auto [dist, pred] = on_gpu.kernel("paths").bind<Paths(const F&)>()(d);
  const auto [want, unused] = on_cpu.kernel("paths").bind<Paths(const F&)>()(d);
  GPU_CHECK_MSG(same_bits(dist, want), "closure paths: distances");
  int64_t off_path = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      if (i == j || dist(i, j) == std::numeric_limits<float>::infinity()) continue;
      const int32_t p = pred(i, j);  // p == i: the edge i -> j itself
      if (p < 0 || p >= n || (p == i ? d(i, j) : dist(i, p) + d(p, j)) != dist(i, j)) ++off_path;
    }
  GPU_CHECK_MSG(off_path == 0, "closure paths: " + std::to_string(off_path) + " predecessors off a shortest path");
  std::printf("closures n=%lld through NVRTC (shared tiles, i32 8x16, out of core, paths, bool): equal\n",
              static_cast<long long>(n));
}

// The stdlib's single-source paths through NVRTC (its Bellman-Ford loop recognized as one device
// traversal, whose --explain line says so) against the OpenMP JIT: distances equal bit for bit
// (the fixpoint does not depend on the order of the relaxations), on weighted generated graphs.
void check_sssp(const gql::Compiler& cuda_compiler, const gql::Compiler& openmp_compiler) {
  using Sssp = gql::BoundKernel<gql::Vector<float>(const gql::Csr<float>&, int32_t)>;
  const std::string spec = std::string(GQL_SOURCE_DIR) + "/stdlib/std/sssp.gql";
  Sssp on_gpu = cuda_compiler.compile_file(spec).kernel("sssp").bind<gql::Vector<float>(const gql::Csr<float>&, int32_t)>();
  Sssp on_cpu = openmp_compiler.compile_file(spec).kernel("sssp").bind<gql::Vector<float>(const gql::Csr<float>&, int32_t)>();
  const bool small = gql::gpu_test::small_inputs();
  const int scale = small ? 8 : 14;
  const std::vector<std::pair<std::string, gql::Csr<float>>> graphs = [&] {
    std::vector<std::pair<std::string, gql::Csr<float>>> out;
    out.emplace_back("kron:" + std::to_string(scale) + " weighted", gql::kronecker<float>({.scale = scale, .weighted = true}));
    out.emplace_back("urand:" + std::to_string(scale) + ":4 weighted",
                     gql::urand<float>({.scale = scale, .edge_factor = 4, .weighted = true}));
    return out;
  }();
  for (const auto& [name, g] : graphs) {
    gql::KernelContext explained(true);
    const gql::Vector<float> got = on_gpu.run(explained, g, 0);
    bool traversal = false;
    for (const std::string& line : explained.plan()) traversal |= line.find("single-source paths") != std::string::npos;
    GPU_CHECK_MSG(traversal, "sssp on " + name + ": the device traversal did not run");
    GPU_CHECK_MSG(same_vector(got, on_cpu(g, 0)), "sssp on " + name);
    std::printf("sssp %s through NVRTC: %lld reached, equal\n", name.c_str(), static_cast<long long>(got.nvals()));
  }
}

// The stdlib's LU through the JIT on the GPU (the library's factorization, no nvcc): P A = L U to
// a relative residual of 1e-12 in f64, the straightforward products computed here.
void check_lu(const gql::Compiler& cuda_compiler) {
  using Lu = std::tuple<gql::Matrix<double>, gql::Vector<int32_t>>;
  const gql::Module m = cuda_compiler.compile_file(std::string(GQL_SOURCE_DIR) + "/stdlib/std/lu.gql");
  auto lu = m.kernel("lu_factor").bind<Lu(const gql::Matrix<double>&)>();
  const int64_t n = gql::gpu_test::small_inputs() ? 40 : 300;
  gql::Matrix<double> A(n, n, 0.0);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) A(i, j) = value(rng);
  const auto [factors, pivots] = lu(A);
  gql::Matrix<double> PA = A.clone();  // the rows swapped as LAPACK's pivots say, in order
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) std::swap(PA(i, j), PA(pivots.values()[static_cast<size_t>(i)], j));
  double worst = 0, scale = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double lu_ij = 0;  // (L U)(i, j), L's unit diagonal implied
      for (int64_t k = 0; k <= std::min(i, j); ++k) lu_ij += (k == i ? 1.0 : factors(i, k)) * factors(k, j);
      worst = std::max(worst, std::abs(PA(i, j) - lu_ij));
      scale = std::max(scale, std::abs(A(i, j)));
    }
  GPU_CHECK_MSG(worst <= 1e-12 * static_cast<double>(n) * scale, "lu: residual " + std::to_string(worst));
  std::printf("lu n=%lld through the JIT: P A = L U, residual %.2e\n", static_cast<long long>(n), worst);
}

void run(const std::string& cache_arg) {
  const bool fresh = cache_arg.empty();
  const std::string cache =
      fresh ? (fs::temp_directory_path() / ("gql-test-jit-cuda-" + std::to_string(::getpid()))).string() : cache_arg;
  if (fresh) fs::remove_all(cache);
  std::error_code ec;
  const bool cold_cache = !fs::exists(cache, ec) || fs::is_empty(cache, ec);
  const bool verbose = std::getenv("GQL_JIT_VERBOSE") != nullptr;
  {
    gql::Compiler cuda_compiler({.target = gql::Target::cuda, .cache_dir = cache, .verbose = verbose});
    gql::Compiler openmp_compiler({.target = gql::Target::openmp, .cache_dir = cache, .verbose = verbose});
    double cold[spec_count], cold_openmp[spec_count];
    // Both targets at once: the six compiles are single-threaded.
    std::vector<std::optional<gql::Module>> openmp_modules;
    std::thread openmp_thread([&] { openmp_modules = compile_all(openmp_compiler, "openmp", cold_openmp); });
    const std::vector<std::optional<gql::Module>> cuda_modules = compile_all(cuda_compiler, "cuda", cold);
    openmp_thread.join();

    // As a new process would: the loaded libraries forgotten, a new Compiler finds the kernels on disk,
    // and the GPU's architecture where the first Compiler remembered it (no driver query).
    gql::jit_detail::forget_loaded_libraries();
    std::string said;
    gql::Compiler from_disk({.target = gql::Target::cuda, .cache_dir = cache, .verbose = true,
                             .log = [&](const std::string& line) { said += line + "\n"; }});
    double disk[spec_count], in_process[spec_count];
    for (int s = 0; s < spec_count; ++s) {
      if (!cuda_modules[static_cast<size_t>(s)]) continue;
      auto t = Clock::now();
      (void)from_disk.compile_file(spec_path(spec_names[s]));
      disk[s] = since(t);
      t = Clock::now();
      (void)from_disk.compile_file(spec_path(spec_names[s]));
      in_process[s] = since(t);
    }
    GPU_CHECK_MSG(said.find("(the device's, remembered)") != std::string::npos, "architecture not remembered: " + said);
    if (verbose) std::fputs(said.c_str(), stderr);
    for (int s = 0; s < spec_count; ++s)
      if (cuda_modules[static_cast<size_t>(s)])
        std::printf("jit cuda %s: %s %.2f s (openmp %.2f s), disk cache hit %.2f ms, in-process hit %.2f us\n",
                  spec_names[s], cold_cache ? "cold" : "first compile_file", cold[s], cold_openmp[s], disk[s] * 1e3,
                  in_process[s] * 1e6);

    const Kernels cuda = bind_kernels(cuda_modules);
    const Kernels openmp = bind_kernels(openmp_modules);
    compare(cuda, openmp);
    compare_placements(cuda_modules, cuda, openmp);
    check_closures(cuda_compiler, openmp_compiler);
    check_sssp(cuda_compiler, openmp_compiler);
    check_lu(cuda_compiler);
  }
  if (fresh) fs::remove_all(cache);
}

}  // namespace

int main(int argc, char** argv) {
  std::string cache;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--cache") == 0) cache = argv[i + 1];
  return gql::gpu_test::run_main(argc, argv, "test_jit_cuda", [&] { run(cache); });
}
