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
  // The mangled name of each name expression asked for ("&ns::kernel<S, 64>"), in the order asked.
  std::vector<std::string> lowered_names;
};

// `arch` is the device's compute capability (major * 10 + minor); `name_expressions` are the kernel
// template instantiations to build (and name). Throws gql::Error(jit) with NVRTC's log when the
// source does not compile.
CudaBinary nvrtc_compile(const std::string& source, const std::string& name, int arch,
                         const std::vector<std::string>& options,
                         const std::vector<std::string>& name_expressions = {});

// "13.0": part of the cache key.
std::string nvrtc_version();

// The options every kernel is compiled with (before the architecture).
std::vector<std::string> nvrtc_default_options();

// A hash of the embedded headers: part of the cache key.
std::string embedded_headers_id();

}  // namespace gql::jit
