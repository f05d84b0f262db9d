// The CUDA JIT's compiler: the CUDA code generator's kernels plus their entry shims -> a shared
// object, with nvcc and the flags gqlc's CUDA programs are built with (compiler/toolchain.hpp).
// Precompiled headers do not apply: nvcc splits each compile into host and device passes of its own.
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/install_layout.hpp"

namespace gql::jit {

struct Nvcc {
  std::string path;      // what is run
  std::string identity;  // nvcc and the compilers under it (cicc, ptxas) and the host compiler: any change, a new key
};

// `requested`, else $GQL_NVCC, else $CUDA_HOME/bin/nvcc, else /usr/local/cuda/bin/nvcc, else nvcc in
// PATH. Throws gql::Error(jit) naming what was tried and how to point at nvcc when none is found.
Nvcc find_nvcc(const std::string& requested);

// The flags every CUDA kernel library is built with for compute capability `arch`, then `extra`.
std::vector<std::string> cuda_shared_object_flags(const compiler::RuntimeLayout& layout, int arch,
                                                  const std::vector<std::string>& extra);

// Compiles `source` into the shared object `output`, linked for several processes when `distributed`
// (compiler::linked_libraries) (the source is written next to it as OUTPUT.cu
// and removed afterwards, or kept as `failed_source` when it does not compile). Throws
// gql::Error(jit) with nvcc's messages and command line on failure.
void build_cuda_shared_object(const Nvcc& nvcc, const std::vector<std::string>& flags,
                              const compiler::RuntimeLayout& layout, bool distributed, const std::string& source,
                              const std::string& output, const std::string& failed_source);

}  // namespace gql::jit
