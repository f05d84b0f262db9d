// Runs the host compiler (or nvcc) on generated source. The source is written next to the output
// (OUTPUT.gql.cpp) so that a failed build can be inspected; it is removed after a successful build
// unless keep_source is set.
#include "gql/compiler/toolchain.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "gql/compiler/install_layout.hpp"
#include "gql/compiler/run_command.hpp"
#include "gql/error.hpp"

namespace gql::compiler {
namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

std::vector<std::string> nvcc_flags(int arch) { return nvcc_flags(std::vector<int>{arch}); }

std::vector<std::string> nvcc_flags(const std::vector<int>& archs) {
  std::vector<std::string> flags = {"-std=c++20", "-O3", "-DNDEBUG"};
  for (const int arch : archs) {
    const std::string cc = std::to_string(arch);
    flags.push_back("-gencode=arch=compute_" + cc + ",code=sm_" + cc);
  }
  const std::string newest = std::to_string(*std::max_element(archs.begin(), archs.end()));
  flags.push_back("-gencode=arch=compute_" + newest + ",code=compute_" + newest);
  flags.insert(flags.end(), {"-Xcompiler=-fopenmp", "--extended-lambda", "--expt-relaxed-constexpr"});
  return flags;
}

std::vector<int> parse_cuda_archs(const std::string& text, const std::string& what) {
  std::vector<int> archs;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    int arch = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), arch);
    if (ec != std::errc() || end != item.data() + item.size() || arch < 50 || arch > 199)
      throw Error(ErrorKind::usage, what + " '" + text + "': expected compute capabilities such as 80,86,90");
    archs.push_back(arch);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return archs;
}

std::vector<int> cuda_build_archs(const std::vector<int>& asked) {
  if (!asked.empty()) return asked;
  if (const char* env = std::getenv("GQL_CUDA_ARCH"); env && *env) return parse_cuda_archs(env, "GQL_CUDA_ARCH");
  // The GPUs present: nvidia-smi prints one compute capability a line ("9.0").
  std::string log;
  if (run_command({"nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"}, log) == 0) {
    std::vector<int> present;
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);) {
      int major = 0, minor = 0;
      if (std::sscanf(line.c_str(), "%d.%d", &major, &minor) == 2) {
        const int arch = major * 10 + minor;
        if (std::find(present.begin(), present.end(), arch) == present.end()) present.push_back(arch);
      }
    }
    if (!present.empty()) return present;
  }
  return {80, 86, 89, 90};
}

void build_executable(const std::string& source, const BuildOptions& options) try {
  const bool cuda = options.target == ir::Target::cuda;
  const RuntimeLayout layout = runtime_layout();
  if (cuda && !layout.have_cuda)
    throw Error(ErrorKind::usage, "this gqlc was built without CUDA: --target cuda cannot build programs");
  if (options.distributed && !layout.have_mpi)
    throw Error(ErrorKind::usage, "this gqlc was built without MPI: --mpi cannot build programs");
  const std::string source_path = options.output + (cuda ? ".gql.cu" : ".gql.cpp");
  {
    std::ofstream file(source_path, std::ios::binary | std::ios::trunc);
    file << source;
    file.close();  // a full disk may say so only when the file is closed
    if (!file) throw Error(ErrorKind::io, "cannot write the generated source", {source_path});
  }
  std::vector<std::string> argv;
  if (cuda) {
    argv = {options.compiler.empty() ? env_or("GQL_NVCC", layout.cuda_compiler.c_str()) : options.compiler};
    const std::vector<std::string> flags = nvcc_flags(cuda_build_archs(options.cuda_archs));
    argv.insert(argv.end(), flags.begin(), flags.end());
  } else {
    argv = {options.compiler.empty() ? env_or("GQL_CXX", layout.host_compiler.c_str()) : options.compiler,
            "-std=c++20", "-O3", "-DNDEBUG", "-march=native", "-ffp-contract=off", "-fopenmp"};
  }
  argv.insert(argv.end(), layout.compile_definitions.begin(), layout.compile_definitions.end());
  for (const std::string& dir : layout.include_dirs) argv.push_back("-I" + dir);
  if (options.distributed)
    for (const std::string& dir : layout.mpi_include_dirs) argv.push_back("-I" + dir);
  argv.insert(argv.end(), {source_path, "-o", options.output});
  const std::vector<std::string> libraries = linked_libraries(layout, options.distributed);
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  if (cuda) argv.emplace_back("-lgomp");
  std::string log;
  const int status = run_command(argv, log);
  if (status != 0) {
    throw Error(ErrorKind::jit, "building " + options.output + " failed (exit " + std::to_string(status) +
                                    "); the generated source is kept in " + source_path + "\ncommand: " + command_line(argv) +
                                    "\n" + log);
  }
  if (!options.keep_source) std::remove(source_path.c_str());
} catch (const Error& e) {
  rethrow_in_stage(Stage::build, e);
}

}  // namespace gql::compiler
