// Times the front end over the whole stdlib: every file under stdlib/std is read, parsed, checked
// and lowered to the IR (imports included), for both targets. Prints the median of many runs.
//   bench_frontend [runs] [stdlib dir]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "gql/compiler/compiler.hpp"

int main(int argc, char** argv) {
  int runs = argc > 1 ? std::atoi(argv[1]) : 101;
  std::string dir = argc > 2 ? argv[2] : GQL_STDLIB_SOURCE_DIR;
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
  std::sort(ms.begin(), ms.end());
  std::printf("front end over the stdlib: %zu files x 2 targets, %d runs: median %.3f ms (min %.3f, max %.3f), %zu bytes of IR\n",
              files.size(), runs, ms[ms.size() / 2], ms.front(), ms.back(), bytes);
  return 0;
}
