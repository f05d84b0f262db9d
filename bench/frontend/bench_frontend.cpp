// Times the front end over the whole stdlib: every file under stdlib/std is read, parsed, checked
// and lowered to the IR (imports included), for both targets. Prints the median of many runs.
//   bench_frontend [--runs 101] [--stdlib DIR] [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_args.hpp"
#include "gql/compiler/compiler.hpp"
#include "host_context.hpp"

int main(int argc, char** argv) try {
  using namespace gql::bench;
  Args args(argc, argv, "usage: bench_frontend [--runs 101] [--stdlib DIR] [--json FILE]");
  const int runs = static_cast<int>(args.integer("runs", 101));
  const std::string dir = args.text("stdlib", GQL_STDLIB_SOURCE_DIR);
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  const RunContext context = host_context();
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir + "/std")) {
    if (entry.path().extension() == ".gql") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  if (files.empty() || runs < 1) {
    std::fprintf(stderr, "bench_frontend: no .gql files under %s/std\n", dir.c_str());
    return 1;
  }
  std::vector<double> ms;
  size_t bytes = 0;
  for (int r = 0; r < runs; ++r) {
    auto start = std::chrono::steady_clock::now();
    bytes = 0;
    for (const std::string& f : files) {
      for (auto target : {gql::compiler::ir::Target::openmp, gql::compiler::ir::Target::cuda}) {
        gql::compiler::Options options;
        options.stdlib_dir = dir;
        options.target = target;
        gql::compiler::Compiler compiler(options);
        if (!compiler.compile_file(f)) {
          std::fprintf(stderr, "%s", compiler.rendered_diagnostics().c_str());
          return 1;
        }
        bytes += gql::compiler::ir::print_module(*compiler.module()).size();
      }
    }
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::vector<double> s;
  for (const double x : ms) s.push_back(x * 1e-3);
  const TimeSummary t = summarize(s);
  Record r;
  r.text("workload", "frontend").text("case", "parse + check + lower, 2 targets").text("graph", "stdlib/std")
      .integer("n", static_cast<long long>(files.size())).text("variant", "gqlc front end").text("role", "gql").times(t)
      .number("rate", static_cast<double>(files.size()) * 2 / t.median).text("rate_unit", "files/s")
      .integer("ir_bytes", static_cast<long long>(bytes));
  out.write(stamp_host(r, context));
  std::sort(ms.begin(), ms.end());
  std::fprintf(stderr, "front end over the stdlib: %zu files x 2 targets, %d runs: median %.3f ms (min %.3f, max %.3f), %zu bytes of IR\n",
              files.size(), runs, ms[ms.size() / 2], ms.front(), ms.back(), bytes);
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_frontend: %s\n", e.what());
  return 2;
}
