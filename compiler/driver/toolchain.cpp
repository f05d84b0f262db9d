// Runs the host compiler (or nvcc) on generated source. The source is written next to the output
// (OUTPUT.gql.cpp) so that a failed build can be inspected; it is removed after a successful build
// unless keep_source is set.
#include "gql/compiler/toolchain.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "gql/error.hpp"
#include "toolchain_paths.hpp"

namespace gql::compiler {
namespace {

// Runs argv without a shell; returns the exit status and what it printed on stdout and stderr.
int run_command(const std::vector<std::string>& argv, std::string& output) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw Error(ErrorKind::jit, std::string("cannot create a pipe: ") + std::strerror(errno));
  const pid_t pid = fork();
  if (pid < 0) throw Error(ErrorKind::jit, std::string("cannot start ") + argv[0] + ": " + std::strerror(errno));
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    _exit(127);
  }
  close(pipe_fds[1]);
  std::array<char, 4096> buf;
  ssize_t got;
  while ((got = read(pipe_fds[0], buf.data(), buf.size())) > 0) output.append(buf.data(), static_cast<size_t>(got));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}

}  // namespace

void build_executable(const std::string& source, const BuildOptions& options) {
  const bool cuda = options.target == ir::Target::cuda;
  if (cuda && !toolchain_paths::have_cuda)
    throw Error(ErrorKind::usage, "this gqlc was built without CUDA: --target cuda cannot build programs");
  const std::string source_path = options.output + (cuda ? ".gql.cu" : ".gql.cpp");
  {
    std::ofstream file(source_path, std::ios::binary | std::ios::trunc);
    file << source;
    if (!file) throw Error(ErrorKind::io, "cannot write the generated source", {source_path});
  }
  std::vector<std::string> argv;
  if (cuda) {
    argv = {options.compiler.empty() ? env_or("GQL_NVCC", toolchain_paths::cuda_compiler) : options.compiler,
            "-std=c++20", "-O3", "-DNDEBUG", "-arch=sm_90", "-gencode=arch=compute_90,code=compute_90",
            "-Xcompiler=-fopenmp", "--extended-lambda", "--expt-relaxed-constexpr"};
  } else {
    argv = {options.compiler.empty() ? env_or("GQL_CXX", toolchain_paths::host_compiler) : options.compiler,
            "-std=c++20", "-O3", "-DNDEBUG", "-march=native", "-fopenmp"};
  }
  argv.insert(argv.end(), {std::string("-I") + toolchain_paths::runtime_include, source_path, "-o", options.output,
                           toolchain_paths::runtime_library});
  for (const char* lib : toolchain_paths::link_libraries)
    if (*lib) argv.emplace_back(lib);
  if (cuda) argv.emplace_back("-lgomp");
  std::string log;
  const int status = run_command(argv, log);
  if (status != 0) {
    std::string command;
    for (const auto& a : argv) command += (command.empty() ? "" : " ") + a;
    throw Error(ErrorKind::jit, "building " + options.output + " failed (exit " + std::to_string(status) +
                                    "); the generated source is kept in " + source_path + "\ncommand: " + command +
                                    "\n" + log);
  }
  if (!options.keep_source) std::remove(source_path.c_str());
}

}  // namespace gql::compiler
