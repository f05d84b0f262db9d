// The CUDA JIT's compiler: CUDA C++ -> CUBIN for one architecture with NVRTC (PTX when NVRTC does
// not know the architecture: the driver compiles PTX for the device at load), with the runtime's
// device headers from memory.
#pragma once

#include <string>
#include <vector>

namespace gql::jit {

struct CudaBinary {
  bool is_cubin = true;  // false: PTX text
  int arch = 0;          // what it was compiled for: 90 = sm_90 (CUBIN) or compute_90 (PTX)
  std::string bytes;
  std::string log;       // NVRTC's messages (warnings)
};

// `arch` is the device's compute capability (major * 10 + minor). Throws gql::Error(jit) with
// NVRTC's log when the source does not compile.
CudaBinary nvrtc_compile(const std::string& source, const std::string& name, int arch,
                         const std::vector<std::string>& options);

// "13.0": part of the cache key.
std::string nvrtc_version();

// The options every kernel is compiled with (before the architecture).
std::vector<std::string> nvrtc_default_options();

// A hash of the embedded headers: part of the cache key.
std::string embedded_headers_id();

}  // namespace gql::jit
