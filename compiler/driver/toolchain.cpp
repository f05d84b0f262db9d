// Runs the host compiler (or nvcc) on generated source. The source is written next to the output
// (OUTPUT.gql.cpp) so that a failed build can be inspected; it is removed after a successful build
// unless keep_source is set.
#include "gql/compiler/toolchain.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
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

std::vector<std::string> nvcc_flags(int arch) {
  const std::string cc = std::to_string(arch);
  return {"-std=c++20", "-O3", "-DNDEBUG", "-arch=sm_" + cc, "-gencode=arch=compute_" + cc + ",code=compute_" + cc,
          "-Xcompiler=-fopenmp", "--extended-lambda", "--expt-relaxed-constexpr"};
}

void build_executable(const std::string& source, const BuildOptions& options) {
  const bool cuda = options.target == ir::Target::cuda;
  const RuntimeLayout layout = runtime_layout();
  if (cuda && !layout.have_cuda)
    throw Error(ErrorKind::usage, "this gqlc was built without CUDA: --target cuda cannot build programs");
  const std::string source_path = options.output + (cuda ? ".gql.cu" : ".gql.cpp");
  {
    std::ofstream file(source_path, std::ios::binary | std::ios::trunc);
    file << source;
    if (!file) throw Error(ErrorKind::io, "cannot write the generated source", {source_path});
  }
  std::vector<std::string> argv;
  if (cuda) {
    argv = {options.compiler.empty() ? env_or("GQL_NVCC", layout.cuda_compiler.c_str()) : options.compiler};
    const std::vector<std::string> flags = nvcc_flags(90);
    argv.insert(argv.end(), flags.begin(), flags.end());
  } else {
    argv = {options.compiler.empty() ? env_or("GQL_CXX", layout.host_compiler.c_str()) : options.compiler,
            "-std=c++20", "-O3", "-DNDEBUG", "-march=native", "-fopenmp"};
  }
  argv.insert(argv.end(), layout.compile_definitions.begin(), layout.compile_definitions.end());
  argv.insert(argv.end(), {"-I" + layout.include_dir, source_path, "-o", options.output,
                           layout.runtime_library});
  argv.insert(argv.end(), layout.link_libraries.begin(), layout.link_libraries.end());
  if (cuda) argv.emplace_back("-lgomp");
  std::string log;
  const int status = run_command(argv, log);
  if (status != 0) {
    throw Error(ErrorKind::jit, "building " + options.output + " failed (exit " + std::to_string(status) +
                                    "); the generated source is kept in " + source_path + "\ncommand: " + command_line(argv) +
                                    "\n" + log);
  }
  if (!options.keep_source) std::remove(source_path.c_str());
}

}  // namespace gql::compiler
