#include "host_compiler.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "generated_source_build.hpp"
#include "gql/compiler/run_command.hpp"
#include "gql/error.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

std::string find_program(const std::string& name) {
  if (name.find('/') != std::string::npos) return fs::exists(name) ? name : "";
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
  }
  return "";
}

std::string program_identity(const std::string& path) {
  std::error_code ec;
  const fs::path real = fs::canonical(path, ec);
  const fs::path binary = ec ? fs::path(path) : real;
  struct stat st {};
  ::stat(binary.c_str(), &st);
  return binary.string() + " " + std::to_string(st.st_size) + " " + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec);
}

HostCompiler find_host_compiler(const std::string& requested) {
  std::vector<std::string> candidates;
  if (!requested.empty()) candidates = {requested};
  else if (const char* env = std::getenv("GQL_CXX"); env && *env) candidates = {env};
  else candidates = {"clang++", "g++"};
  for (const std::string& name : candidates) {
    const std::string found = find_program(name);
    if (found.empty()) continue;
    std::error_code ec;
    const fs::path real = fs::canonical(found, ec);
    const fs::path binary = ec ? fs::path(found) : real;
    return {found, program_identity(found), binary.filename().string().find("clang") != std::string::npos};
  }
  std::string tried;
  for (const auto& c : candidates) tried += (tried.empty() ? "" : ", ") + c;
  throw Error(ErrorKind::jit, "no host compiler found (tried " + tried + "; set GQL_CXX)");
}

std::vector<std::string> shared_object_flags(const HostCompiler& compiler, const compiler::RuntimeLayout& layout,
                                             const std::vector<std::string>& extra) {
  std::vector<std::string> flags = {"-std=c++20", "-O3", "-DNDEBUG", "-march=native", "-ffp-contract=off", "-fopenmp", "-fPIC", "-shared",
                                    // The runtime is linked in statically; keep its symbols private to the
                                    // kernel library so they never interpose on the host program's.
                                    "-Wl,--exclude-libs,ALL", "-Wl,--as-needed", "-w"};
  for (const std::string& dir : layout.include_dirs) flags.push_back("-I" + dir);
  // clang's OpenMP optimizer works for offloading; on host kernels it costs 8% of a compile and
  // gains nothing measurable (docs/performance.md, JIT).
  if (compiler.clang) flags.insert(flags.end(), {"-mllvm", "-openmp-opt-disable"});
  // lld links a kernel library in half the time of ld.bfd.
  if (!find_program("ld.lld").empty()) flags.push_back("-fuse-ld=lld");
  flags.insert(flags.end(), layout.compile_definitions.begin(), layout.compile_definitions.end());
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

void build_shared_object(const HostCompiler& compiler, const std::vector<std::string>& flags,
                         const std::vector<std::string>& libraries, const std::string& source, const std::string& output,
                         const std::string& failed_source, const std::string& prelude) {
  const std::string source_path = output + ".cpp";
  std::vector<std::string> argv = {compiler.path};
  argv.insert(argv.end(), flags.begin(), flags.end());
  if (!prelude.empty()) argv.insert(argv.end(), {"-include", prelude});
  argv.insert(argv.end(), {source_path, "-o", output});
  argv.insert(argv.end(), libraries.begin(), libraries.end());
  compile_generated_source(source, source_path, failed_source, argv, "compiling the generated kernels");
}

void build_precompiled_header(const HostCompiler& compiler, const std::vector<std::string>& flags,
                              const std::string& header, const std::string& output) {
  std::vector<std::string> argv = {compiler.path};
  // Linker flags make clang expect several outputs; the header's code generation flags must be the kernels'.
  for (const std::string& f : flags)
    if (f != "-shared" && f.rfind("-Wl,", 0) != 0 && f.rfind("-fuse-ld=", 0) != 0) argv.push_back(f);
  // Instantiates in the header what the header itself uses, once, instead of in every kernel.
  if (compiler.clang) argv.push_back("-fpch-instantiate-templates");
  argv.insert(argv.end(), {"-x", "c++-header", header, "-o", output});
  std::string log;
  const int status = compiler::run_command(argv, log);
  if (status != 0)
    throw Error(ErrorKind::jit, "precompiling the runtime headers failed (exit " + std::to_string(status) +
                                    ")\ncommand: " + compiler::command_line(argv) + "\n" + log);
}

std::string host_cpu_identity() {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model, flags;
  while (std::getline(in, line) && (model.empty() || flags.empty())) {
    if (model.empty() && line.rfind("model name", 0) == 0) model = line;
    if (flags.empty() && line.rfind("flags", 0) == 0) flags = line;
  }
  return model + "\n" + flags;
}

}  // namespace gql::jit
