// PageRank and connected components from the stdlib (std/pagerank.gql, std/components.gql) on the
// GPU against the OpenMP back end in the same run. gqlc writes each spec's kernels for both targets
// (--emit kernels); the CUDA ones (vxm/mxv on the device, the rest on the host) are compiled with
// -Dgqlgen=gqlgen_cuda and the OpenMP ones with -Dgqlgen=gqlgen_openmp, so both live in this one
// program. Per graph: the OpenMP kernel on every host core and the CUDA kernel, each called with a
// fresh KernelContext ("first": the graph uploaded and transposed inside the call) and then
// `repeats` more times with the context kept ("warm": the op state of the loop's products reused,
// as inside a longer program); PageRank values compared within 1e-5 relative per vertex, component
// labels exactly.
//
//   bench_gpu_stdlib [--graphs kron:20,kron:22,FILE...] [--iterations 20] [--repeats 3] [--json FILE]
//
// kron:S is the Graph500 generator's graph (edgefactor 16) symmetrized; FILE a graph under
// GQL_DATA_DIR, symmetrized (components needs an undirected graph).
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "../gpu_spgemm/bench_record.hpp"
#include "../common/bench_args.hpp"
#include "../common/gpu_context.hpp"
#include "../common/run_case.hpp"
#include "gql/device.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "gql/kernel_context.hpp"

// The generated kernels, each target's namespace renamed at compile time (declared here: gqlc's two
// headers are alike but for that name).
namespace gqlgen_cuda {
gql::Vector<double> pagerank(const gql::Csr<bool>& G, int64_t iterations, gql::KernelContext& ctx);
gql::Vector<int64_t> components(const gql::Csr<bool>& G, gql::KernelContext& ctx);
}  // namespace gqlgen_cuda
namespace gqlgen_openmp {
gql::Vector<double> pagerank(const gql::Csr<bool>& G, int64_t iterations, gql::KernelContext& ctx);
gql::Vector<int64_t> components(const gql::Csr<bool>& G, gql::KernelContext& ctx);
}  // namespace gqlgen_openmp

namespace {

using namespace gql;
using Clock = std::chrono::steady_clock;

struct Args {
  std::vector<std::string> graphs{"kron:20", "kron:22"};
  int64_t iterations = 20;
  int repeats = 3;
  std::string json;
};

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--graphs") args.graphs = bench::split_list(value);
    else if (key == "--iterations") args.iterations = std::stoll(value);
    else if (key == "--repeats") args.repeats = std::stoi(value);
    else if (key == "--json") args.json = value;
    else throw Error(ErrorKind::usage, "unknown option " + key);
  }
  return args;
}

Csr<bool> load(const std::string& spec) {
  ReadOptions symmetric;
  symmetric.symmetrize = true;
  if (spec.rfind("kron:", 0) == 0) return generate_graph<bool>(spec, symmetric);
  const char* data = std::getenv("GQL_DATA_DIR");
  if (data == nullptr) throw Error(ErrorKind::usage, spec + ": GQL_DATA_DIR is not set");
  return read_graph<bool>(std::string(data) + "/" + spec, symmetric);
}

// Times of one kernel: the first call (fresh context) and the warm calls (context kept).
struct Timed {
  double first = 0;
  std::vector<double> warm;
};

template <class Result>
Timed time_kernel(int repeats, Result& result, const std::function<Result(KernelContext&)>& call) {
  Timed t;
  KernelContext ctx;
  Clock::time_point start = Clock::now();
  result = call(ctx);
  t.first = std::chrono::duration<double>(Clock::now() - start).count();
  for (int r = 0; r < repeats; ++r) {
    start = Clock::now();
    result = call(ctx);
    t.warm.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  return t;
}

// The largest relative difference |g - c| / |c| over the entries (infinity when the entry sets
// differ); exact: equal bit for bit.
template <class T>
double worst_relative(const Vector<T>& gpu, const Vector<T>& cpu, bool& exact) {
  exact = false;
  if (gpu.size() != cpu.size() || gpu.nvals() != cpu.nvals() || gpu.is_dense() != cpu.is_dense() ||
      !std::equal(gpu.indices().begin(), gpu.indices().end(), cpu.indices().begin(), cpu.indices().end()))
    return INFINITY;
  double worst = 0;
  exact = true;
  for (size_t k = 0; k < cpu.values().size(); ++k) {
    const double g = static_cast<double>(gpu.values()[k]), c = static_cast<double>(cpu.values()[k]);
    if (g != c) exact = false;
    const double scale = std::max(std::fabs(c), 1e-300);
    worst = std::max(worst, std::fabs(g - c) / scale);
  }
  return worst;
}

void record(const std::string& workload, const std::string& graph, const Csr<bool>& g, const Timed& gpu,
            const Timed& cpu, double worst, bool exact, bool agree, const bench::RunContext& context,
            bench::JsonLines& out, int64_t iterations) {
  const bench::TimeSummary warm_gpu = bench::summarize(gpu.warm), warm_cpu = bench::summarize(cpu.warm);
  bench::Record r;
  r.text("workload", workload).text("graph", graph).text("variant", "stdlib, generated cuda vs openmp");
  r.times(warm_gpu)
      .integer("n", g.n_rows())
      .integer("nvals", g.nvals())
      .number("gpu_first_call_s", gpu.first)
      .number("cpu_first_call_s", cpu.first)
      .number("cpu_time_min_s", warm_cpu.min)
      .number("cpu_time_median_s", warm_cpu.median)
      .number("cpu_time_max_s", warm_cpu.max)
      .integer("cpu_threads", omp_get_max_threads())
      .number("speedup_median", warm_cpu.median / warm_gpu.median)
      .number("speedup_first_call", cpu.first / gpu.first)
      .number("max_relative_difference", worst)
      .boolean("bitwise_equal", exact)
      .boolean("agrees_with_cpu", agree);
  if (iterations > 0) r.integer("iterations", iterations);
  out.write(bench::stamp(r, context));
  std::printf("  %-10s %-28s gpu first %8.3f s warm %8.4f s | openmp first %8.3f s warm %8.4f s | %s (max rel %.2e)\n",
              workload.c_str(), graph.c_str(), gpu.first, warm_gpu.median, cpu.first, warm_cpu.median,
              agree ? "agree" : "DIFFER", worst);
}

bool run_graph(const std::string& spec, const Args& args, const bench::RunContext& context, bench::JsonLines& out) {
  const Csr<bool> g = load(spec);
  std::printf("%s: n=%lld stored=%lld\n", spec.c_str(), static_cast<long long>(g.n_rows()),
              static_cast<long long>(g.nvals()));
  bool ok = true;
  {
    Vector<double> gpu_rank, cpu_rank;
    const Timed gpu = time_kernel<Vector<double>>(
        args.repeats, gpu_rank, [&](KernelContext& ctx) { return gqlgen_cuda::pagerank(g, args.iterations, ctx); });
    const Timed cpu = time_kernel<Vector<double>>(
        args.repeats, cpu_rank, [&](KernelContext& ctx) { return gqlgen_openmp::pagerank(g, args.iterations, ctx); });
    bool exact = false;
    const double worst = worst_relative(gpu_rank, cpu_rank, exact);
    const bool agree = worst <= 1e-5;
    record("pagerank", spec, g, gpu, cpu, worst, exact, agree, context, out, args.iterations);
    ok = ok && agree;
  }
  {
    Vector<int64_t> gpu_label, cpu_label;
    const Timed gpu = time_kernel<Vector<int64_t>>(
        args.repeats, gpu_label, [&](KernelContext& ctx) { return gqlgen_cuda::components(g, ctx); });
    const Timed cpu = time_kernel<Vector<int64_t>>(
        args.repeats, cpu_label, [&](KernelContext& ctx) { return gqlgen_openmp::components(g, ctx); });
    bool exact = false;
    const double worst = worst_relative(gpu_label, cpu_label, exact);
    record("components", spec, g, gpu, cpu, worst, exact, exact, context, out, 0);
    ok = ok && exact;
  }
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse_args(argc, argv);
    if (device_count() == 0) {
      std::fprintf(stderr, "bench_gpu_stdlib: no CUDA device\n");
      return 1;
    }
    const bench::RunContext context = bench::gpu_context();
    bench::JsonLines out(args.json);
    bool ok = true;
    for (const auto& spec : args.graphs)
      ok = bench::run_case("graph", spec, [&] { return run_graph(spec, args, context, out); }) && ok;
    std::printf("bench_gpu_stdlib: %s\n", ok ? "every GPU result agrees with OpenMP" : "FAILED");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_stdlib: %s\n", e.what());
    return 1;
  }
}
