// Which GPU architecture the CUDA JIT compiles for: the device's when there is one (read through the
// driver API), else the one asked for, so that machines without a GPU can fill a cache for others.
#pragma once

#include <string>

namespace gql::jit {

struct CudaArch {
  int arch = 90;       // compute capability, major * 10 + minor
  std::string origin;  // for GQL_JIT_VERBOSE: "the device's", or why the requested one was taken
};

// The device's compute capability; without a usable GPU, `requested` when non-zero, else
// $GQL_CUDA_ARCH, else 90. Throws gql::Error(usage) when $GQL_CUDA_ARCH is not a number such as 90.
CudaArch target_cuda_arch(int requested);

}  // namespace gql::jit
