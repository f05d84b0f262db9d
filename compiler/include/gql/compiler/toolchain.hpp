// Building generated source into a program with the host compiler (OpenMP) or nvcc (CUDA).
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"

namespace gql::compiler {

struct BuildOptions {
  ir::Target target = ir::Target::openmp;
  std::string output;        // the executable to write
  std::string compiler;      // empty: $GQL_CXX (openmp) / $GQL_NVCC (cuda), else the build's compiler
  bool keep_source = false;  // leave OUTPUT.cpp (or .cu) next to the executable
};

// nvcc's code generation flags for generated CUDA source (programs and the JIT's kernel libraries):
// C++20, optimized, SASS for compute capability `arch` (90 = sm_90) and its PTX, which the driver
// compiles for newer GPUs.
std::vector<std::string> nvcc_flags(int arch);

// Compiles `source` and links it against the runtime. Throws gql::Error(jit) with the compiler's
// messages when the compiler fails, Error(io) when files cannot be written.
void build_executable(const std::string& source, const BuildOptions& options);

}  // namespace gql::compiler
