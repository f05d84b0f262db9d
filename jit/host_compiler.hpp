// The CPU JIT's compiler: generated OpenMP C++ -> a shared object, with the host compiler.
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/install_layout.hpp"

namespace gql::jit {

struct HostCompiler {
  std::string path;      // what is run
  std::string identity;  // resolved path, size and modification time: changes when the compiler does
  bool clang = false;    // the resolved binary is clang (it takes clang-only flags)
};

// The absolute path of the program `name` (searched in PATH unless it holds a slash), or "".
std::string find_program(const std::string& name);

// A program's resolved path, size and modification time: changes when the program does.
std::string program_identity(const std::string& path);

// `requested`, else $GQL_CXX, else clang++ when present, else g++.
// Throws gql::Error(jit) when none can be found.
HostCompiler find_host_compiler(const std::string& requested);

// The flags every CPU kernel library is built with for `compiler`, then `extra`.
std::vector<std::string> shared_object_flags(const HostCompiler& compiler, const compiler::RuntimeLayout& layout,
                                             const std::vector<std::string>& extra);

// Compiles `source` into the shared object `output`, linked with `libraries`
// (compiler::linked_libraries); the source is written next to it as
// OUTPUT.cpp and removed afterwards, or kept as `failed_source` when it does not compile
// (generated_source_build.hpp). A non-empty `prelude` is included before the source (`-include`);
// clang++ and g++ both read its precompiled form PRELUDE.gch when it is there. Throws
// gql::Error(jit) with the compiler's messages on failure.
void build_shared_object(const HostCompiler& compiler, const std::vector<std::string>& flags,
                         const std::vector<std::string>& libraries, const std::string& source, const std::string& output,
                         const std::string& failed_source, const std::string& prelude = "");

// Precompiles the header `header` into `output` with the flags of shared_object_flags (minus the
// linker's), so that kernels built with those flags can use it. Throws gql::Error(jit) on failure.
void build_precompiled_header(const HostCompiler& compiler, const std::vector<std::string>& flags,
                              const std::string& header, const std::string& output);

// What the generated code is specialized for (-march=native): the CPU model and feature flags.
std::string host_cpu_identity();

}  // namespace gql::jit
