// bench_jit [--target openmp|cuda] [--spec FILE] [--kernel NAME] [--runs 7] [--json FILE]: how long
// until a kernel is ready to call (default examples/fof.gql, fof). One record per stage (workload "jit").
//   cold     a fresh cache: front end + code generation + host compiler + dlopen, the runtime headers
//            precompiled first; then kernels new to a cache that holds that precompiled header (the
//            same spec under other names, so other keys); then one with GQL_JIT_PCH=0. Each also
//            in CPU seconds of this process and the compilers it ran: the compile is single-threaded,
//            so on an idle core that is its wall time. --target cuda: the same stages with the NVRTC
//            path (host code by the host compiler, with the precompiled headers, while NVRTC builds
//            the GPU kernels on all cores), then one kernel through nvcc (GQL_JIT_NVRTC=0).
//   warm     a new process (this program re-run) whose cache holds the kernel: from main() to ready,
//            and the whole process as its parent sees it
//   hot      the same Compiler asked again in-process (memoized module), and kernel lookup + bind
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "bench_args.hpp"
#include "host_context.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }


// The kernel made callable: fof bound with its C++ signature (the bind's check timed too), any other
// kernel looked up.
void make_callable(const gql::Module& m, const std::string& kernel) {
  if (kernel == "fof") (void)m.kernel(kernel).bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  else (void)m.kernel(kernel);
}

void ready(const gql::Compiler& compiler, const std::string& spec, const std::string& kernel) {
  make_callable(compiler.compile_file(spec), kernel);
}

// User + system seconds of this process and of its waited-for children (the host compilers).
double cpu_seconds() {
  double total = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    getrusage(who, &u);
    total += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
  }
  return total;
}

struct Cold {
  std::vector<double> wall, cpu;
};

// Times `compile` (which must compile a kernel new to the cache) into `into`.
template <class F>
void time_cold(Cold& into, F&& compile) {
  const double cpu = cpu_seconds();
  const auto t = Clock::now();
  compile();
  into.wall.push_back(since(t));
  into.cpu.push_back(cpu_seconds() - cpu);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

int main(int argc, char** argv) try {
  const auto process_start = Clock::now();
  // Child mode: bench_jit --warm CACHE SPEC KERNEL TARGET prints the seconds from main() to ready.
  if (argc == 6 && std::string(argv[1]) == "--warm") {
    const gql::Target child_target = std::string(argv[5]) == "cuda" ? gql::Target::cuda : gql::Target::openmp;
    gql::Compiler compiler({.target = child_target, .cache_dir = argv[2]});
    const double constructed = since(process_start);
    ready(compiler, argv[3], argv[4]);
    std::printf("%.6f %.6f\n", since(process_start), constructed);
    return 0;
  }
  using namespace gql::bench;
  Args args(argc, argv, "usage: bench_jit [--target openmp|cuda] [--spec FILE] [--kernel NAME] [--runs 7] [--cold-runs 3] [--json FILE]");
  const std::string target_name = args.text("target", "openmp");
  if (target_name != "openmp" && target_name != "cuda") throw gql::Error(gql::ErrorKind::usage, "--target takes openmp or cuda");
  const bool cuda = target_name == "cuda";
  const gql::Target target = cuda ? gql::Target::cuda : gql::Target::openmp;
  const std::string spec = args.text("spec", GQL_EXAMPLES_DIR "/fof.gql");
  const std::string kernel = args.text("kernel", "fof");
  const int runs = static_cast<int>(args.integer("runs", 7));
  const int cold_runs = static_cast<int>(args.integer("cold-runs", 3));
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  const RunContext context = host_context();
  const std::string cache = (std::filesystem::temp_directory_path() / ("gql-bench-jit-" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(cache);

  gql::Compiler compiler({.target = target, .cache_dir = cache});
  Cold fresh, precompiled, plain;
  time_cold(fresh, [&] { ready(compiler, spec, kernel); });
  // The same spec under another name: the generated source names it, so the key is new.
  const std::string text = read_text(spec), stem = std::filesystem::path(spec).stem().string();
  const auto ready_as = [&](const gql::Compiler& c, const std::string& name) {
    make_callable(c.compile_source(text, name), kernel);
  };
  for (int run = 0; run < cold_runs; ++run) time_cold(precompiled, [&] { ready_as(compiler, stem + "-" + std::to_string(run) + ".gql"); });
  if (cuda) {
    ::setenv("GQL_JIT_NVRTC", "0", 1);
    gql::Compiler by_nvcc({.target = target, .cache_dir = cache});
    time_cold(plain, [&] { ready_as(by_nvcc, stem + "-nvcc.gql"); });
    ::unsetenv("GQL_JIT_NVRTC");
  } else {
    ::setenv("GQL_JIT_PCH", "0", 1);
    gql::Compiler without({.cache_dir = cache});
    time_cold(plain, [&] { ready_as(without, stem + "-plain.gql"); });
    ::unsetenv("GQL_JIT_PCH");
  }
  auto t = Clock::now();

  std::vector<double> warm_main, warm_process, warm_construct;
  for (int run = 0; run < runs; ++run) {
    const std::string command = std::string(argv[0]) + " --warm " + cache + " " + spec + " " + kernel + " " + target_name;
    t = Clock::now();
    FILE* child = popen(command.c_str(), "r");
    double inside = -1, constructed = -1;
    if (!child || std::fscanf(child, "%lf %lf", &inside, &constructed) != 2)
      throw gql::Error(gql::ErrorKind::internal, "warm run failed");
    pclose(child);
    warm_process.push_back(since(t));
    warm_main.push_back(inside);
    warm_construct.push_back(constructed);
  }

  constexpr int hot_runs = 100000;
  t = Clock::now();
  for (int n = 0; n < hot_runs; ++n) (void)compiler.compile_file(spec);
  const double hot_compile = since(t) / hot_runs;
  const gql::Module m = compiler.compile_file(spec);
  t = Clock::now();
  for (int n = 0; n < hot_runs; ++n) make_callable(m, kernel);
  const double hot_bind = since(t) / hot_runs;

  const std::string compiler_name = cuda ? "CUDA target"
                                    : std::getenv("GQL_CXX") ? std::getenv("GQL_CXX") : "default host compiler";
  const auto emit = [&](const char* variant, const char* role, const TimeSummary& times, const char* detail) {
    Record r;
    r.text("workload", "jit").text("target", target_name).text("case", kernel).text("graph", std::filesystem::path(spec).filename().string())
        .text("variant", variant).text("role", role).times(times).number("rate", 1 / times.median).text("rate_unit", "kernels ready/s")
        .text("detail", std::string(detail) + "; " + compiler_name);
    out.write(stamp_host(r, context));
  };
  const auto emit_cold = [&](const char* variant, const char* role, const Cold& c, const std::string& detail) {
    const TimeSummary cpu = summarize(c.cpu);
    char text_cpu[96];
    std::snprintf(text_cpu, sizeof text_cpu, "; CPU %.2f s (min %.2f)", cpu.median, cpu.min);
    emit(variant, role, summarize(c.wall), (detail + text_cpu).c_str());
  };
  if (cuda) {
    emit_cold("cold compile (fresh cache)", "gql", fresh,
              "front end + CUDA codegen + precompiling the runtime headers + host compiler, NVRTC at once + load");
    emit_cold("cold compile (precompiled headers cached)", "gql-variant", precompiled,
              "a kernel new to a cache that holds the precompiled runtime headers: host compiler and NVRTC at once");
    emit_cold("cold compile (nvcc, GQL_JIT_NVRTC=0)", "gql-variant", plain, "the whole spec through nvcc");
  } else {
    emit_cold("cold compile (fresh cache)", "gql", fresh, "front end + codegen + precompiling the runtime headers + host compiler + dlopen");
    emit_cold("cold compile (precompiled headers cached)", "gql-variant", precompiled, "a kernel new to a cache that holds the precompiled runtime headers");
    emit_cold("cold compile (GQL_JIT_PCH=0)", "gql-variant", plain, "the runtime headers parsed with the kernel");
  }
  emit("warm: main() to ready", "gql-variant", summarize(warm_main), "new process, kernel in the disk cache");
  emit("warm: whole process", "gql-variant", summarize(warm_process), "as its parent sees it");
  emit("warm: main() to Compiler constructed", "gql-variant", summarize(warm_construct),
       "the part of main() to ready before compile_file (finding the compilers, the GPU's architecture)");
  emit("hot: compile_file again", "gql-variant", summarize({hot_compile}), "memoized module, mean of 100000");
  emit(kernel == "fof" ? "hot: kernel lookup + bind" : "hot: kernel lookup", "gql-variant", summarize({hot_bind}),
       "mean of 100000");
  if (cuda) {
    std::fprintf(stderr,
                 "jit cuda %s: cold %.3f s (CPU %.2f s) in a fresh cache, %.3f s (CPU %.2f s) with the precompiled headers "
                 "cached, %.3f s (CPU %.2f s) through nvcc; warm %.2f ms (main to ready), %.2f ms (whole process); "
                 "hot compile %.2f us, bind %.2f us\n",
                 kernel.c_str(), fresh.wall[0], fresh.cpu[0], summarize(precompiled.wall).median,
                 summarize(precompiled.cpu).median, plain.wall[0], plain.cpu[0], summarize(warm_main).median * 1e3,
                 summarize(warm_process).median * 1e3, hot_compile * 1e6, hot_bind * 1e6);
    std::filesystem::remove_all(cache);
    return 0;
  }
  std::fprintf(stderr,
               "jit %s: cold %.3f s (CPU %.2f s) in a fresh cache, %.3f s (CPU %.2f s) with the precompiled headers cached, "
               "%.3f s (CPU %.2f s) without them; warm %.2f ms (main to ready), hot compile %.2f us, bind %.2f us\n",
               kernel.c_str(), fresh.wall[0], fresh.cpu[0], summarize(precompiled.wall).median, summarize(precompiled.cpu).median,
               plain.wall[0], plain.cpu[0], summarize(warm_main).median * 1e3, hot_compile * 1e6, hot_bind * 1e6);
  std::filesystem::remove_all(cache);
  return 0;
} catch (const std::exception& e) {  // gql::Error, or a usage error from the options
  std::fprintf(stderr, "bench_jit: %s\n", e.what());
  return 1;
}
