// bench_jit [SPEC] [KERNEL]: how long until a kernel is ready to call (default examples/fof.gql, fof).
//   cold     a fresh cache: front end + code generation + host compiler + dlopen
//   warm     a new process (this program re-run) whose cache holds the kernel: from main() to ready,
//            and the whole process as its parent sees it
//   hot      the same Compiler asked again in-process (memoized module), and kernel lookup + bind
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <gql/gql.hpp>

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void ready(const gql::Compiler& compiler, const std::string& spec, const std::string& kernel) {
  (void)compiler.compile_file(spec).kernel(kernel).bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
}

}  // namespace

int main(int argc, char** argv) try {
  const auto process_start = Clock::now();
  // Child mode: bench_jit --warm CACHE SPEC KERNEL prints the seconds from main() to ready.
  if (argc == 5 && std::string(argv[1]) == "--warm") {
    gql::Compiler compiler({.cache_dir = argv[2]});
    ready(compiler, argv[3], argv[4]);
    std::printf("%.6f\n", since(process_start));
    return 0;
  }
  const std::string spec = argc > 1 ? argv[1] : GQL_EXAMPLES_DIR "/fof.gql";
  const std::string kernel = argc > 2 ? argv[2] : "fof";
  const std::string cache = (std::filesystem::temp_directory_path() / ("gql-bench-jit-" + std::to_string(getpid()))).string();
  std::filesystem::remove_all(cache);

  gql::Compiler compiler({.cache_dir = cache});
  auto t = Clock::now();
  ready(compiler, spec, kernel);
  const double cold = since(t);

  std::vector<double> warm_main, warm_process;
  for (int run = 0; run < 7; ++run) {
    const std::string command = std::string(argv[0]) + " --warm " + cache + " " + spec + " " + kernel;
    t = Clock::now();
    FILE* child = popen(command.c_str(), "r");
    double inside = -1;
    if (!child || std::fscanf(child, "%lf", &inside) != 1) throw gql::Error(gql::ErrorKind::internal, "warm run failed");
    pclose(child);
    warm_process.push_back(since(t));
    warm_main.push_back(inside);
  }

  constexpr int hot_runs = 100000;
  t = Clock::now();
  for (int n = 0; n < hot_runs; ++n) (void)compiler.compile_file(spec);
  const double hot_compile = since(t) / hot_runs;
  const gql::Module m = compiler.compile_file(spec);
  t = Clock::now();
  for (int n = 0; n < hot_runs; ++n) (void)m.kernel(kernel).bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  const double hot_bind = since(t) / hot_runs;

  std::printf("spec %s, kernel %s, host compiler %s\n", spec.c_str(), kernel.c_str(),
              std::getenv("GQL_CXX") ? std::getenv("GQL_CXX") : "default");
  std::printf("cold compile (fresh cache)          %9.3f s\n", cold);
  std::printf("warm, new process: main() to ready  %9.2f ms (median of 7)\n", median(warm_main) * 1e3);
  std::printf("warm, new process: whole process    %9.2f ms (median of 7)\n", median(warm_process) * 1e3);
  std::printf("hot: compile_file again             %9.2f us\n", hot_compile * 1e6);
  std::printf("hot: kernel lookup + bind           %9.2f us\n", hot_bind * 1e6);
  std::filesystem::remove_all(cache);
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "bench_jit: %s\n", e.what());
  return 1;
}
