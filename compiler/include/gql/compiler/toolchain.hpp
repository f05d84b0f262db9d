// Building generated source into a program with the host compiler (OpenMP) or nvcc (CUDA).
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"
#include "gql/compiler/stage.hpp"

namespace gql::compiler {

struct BuildOptions {
  ir::Target target = ir::Target::openmp;
  std::string output;        // the executable to write
  std::string compiler;      // empty: $GQL_CXX (openmp) / $GQL_NVCC (cuda), else the build's compiler
  bool keep_source = false;  // leave OUTPUT.cpp (or .cu) next to the executable
  // CUDA: the compute capabilities to build for (80 = sm_80); empty: cuda_build_archs' choice.
  std::vector<int> cuda_archs;
  // OpenMP, for several processes (gqlc --mpi): links libgql_dist and MPI.
  bool distributed = false;
};

// The architectures a CUDA program is built for: `asked` when given, else $GQL_CUDA_ARCH (e.g.
// "80,86,90"), else the GPUs of this machine (as nvidia-smi reports them), else 80, 86, 89 and 90.
// The newest also gets PTX, which the driver compiles for newer GPUs.
std::vector<int> cuda_build_archs(const std::vector<int>& asked);

// A list of compute capabilities ("80,86,90"); Error(usage) naming `what` when it is not one.
std::vector<int> parse_cuda_archs(const std::string& text, const std::string& what);

// nvcc's code generation flags for generated CUDA source (programs and the JIT's kernel libraries):
// C++20, optimized, SASS for compute capability `arch` (90 = sm_90) and its PTX, which the driver
// compiles for newer GPUs.
std::vector<std::string> nvcc_flags(int arch);
// The same for several architectures: SASS for each, PTX for the newest.
std::vector<std::string> nvcc_flags(const std::vector<int>& archs);

// Compiles `source` and links it against the runtime. Throws gql::Error(jit) with the compiler's
// messages when the compiler fails, Error(io) when files cannot be written; each as a
// StageError(Stage::build).
void build_executable(const std::string& source, const BuildOptions& options);

}  // namespace gql::compiler
