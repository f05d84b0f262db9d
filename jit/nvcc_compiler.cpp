#include "nvcc_compiler.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "generated_source_build.hpp"
#include "gql/compiler/toolchain.hpp"
#include "gql/error.hpp"
#include "host_compiler.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

Nvcc find_nvcc(const std::string& requested) {
  std::vector<std::string> candidates;
  if (!requested.empty()) {
    candidates = {requested};
  } else {
    if (const char* env = std::getenv("GQL_NVCC"); env && *env) candidates.emplace_back(env);
    if (const char* home = std::getenv("CUDA_HOME"); home && *home) candidates.push_back((fs::path(home) / "bin" / "nvcc").string());
    candidates.insert(candidates.end(), {"/usr/local/cuda/bin/nvcc", "nvcc"});
  }
  for (const std::string& name : candidates) {
    const std::string found = find_program(name);
    if (found.empty()) continue;
    // nvcc drives cicc (device code), ptxas (SASS) and the host compiler: each shapes the library.
    std::error_code ec;
    const fs::path bin = fs::canonical(found, ec).parent_path();
    std::string identity = program_identity(found);
    for (const fs::path& tool : {bin / "ptxas", bin.parent_path() / "nvvm" / "bin" / "cicc"})
      if (fs::exists(tool, ec)) identity += "\n" + program_identity(tool.string());
    if (std::ifstream version(bin.parent_path() / "version.json"); version) {
      std::ostringstream text;
      text << version.rdbuf();
      identity += "\n" + text.str();
    }
    if (const std::string host = find_program("g++"); !host.empty()) identity += "\nhost " + program_identity(host);
    return {found, identity};
  }
  std::string tried;
  for (const auto& c : candidates) tried += (tried.empty() ? "" : ", ") + c;
  throw Error(ErrorKind::jit, "no nvcc found for the CUDA JIT (tried " + tried +
                                  "); set CompilerOptions::nvcc, $GQL_NVCC or $CUDA_HOME to point at the CUDA toolkit");
}

std::vector<std::string> cuda_shared_object_flags(const compiler::RuntimeLayout& layout, int arch,
                                                  const std::vector<std::string>& extra) {
  std::vector<std::string> flags = compiler::nvcc_flags(arch);
  flags.insert(flags.end(), {"-Xcompiler=-fPIC", "-shared",
                             // One CUDA runtime in the process: the host program's (libcudart.so), not a static copy.
                             "-cudart=shared",
                             // The runtime is linked in statically; its symbols stay private to the kernel library.
                             "-Xlinker=--exclude-libs,ALL", "-w"});
  for (const std::string& dir : layout.include_dirs) flags.push_back("-I" + dir);
  flags.insert(flags.end(), layout.compile_definitions.begin(), layout.compile_definitions.end());
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

void build_cuda_shared_object(const Nvcc& nvcc, const std::vector<std::string>& flags,
                              const compiler::RuntimeLayout& layout, bool distributed, const std::string& source,
                              const std::string& output, const std::string& failed_source) {
  const std::string source_path = output + ".cu";
  std::vector<std::string> argv = {nvcc.path};
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.insert(argv.end(), {source_path, "-o", output});
  const std::vector<std::string> libraries = compiler::linked_libraries(layout, distributed);
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  argv.emplace_back("-lgomp");
  compile_generated_source(source, source_path, failed_source, argv, "compiling the generated CUDA kernels");
}

}  // namespace gql::jit
