// Which GPU architecture the CUDA JIT compiles for: the device's when there is one, else the one
// asked for, so that machines without a GPU can fill a cache for others.
//
// Asking the driver starts it (cuInit: most of a warm start's time on the H200), so the answer is
// remembered in the cache under the machine's GPU identity as the NVIDIA kernel module reports it
// (/proc/driver/nvidia: driver version, each GPU's model, UUID and bus) and the CUDA_VISIBLE_DEVICES
// and CUDA_DEVICE_ORDER the process runs with; any change there asks the driver again.
#pragma once

#include <string>

namespace gql::jit {

struct CudaArch {
  int arch = 90;       // compute capability, major * 10 + minor
  std::string origin;  // for GQL_JIT_VERBOSE: "the device's", or why the requested one was taken
};

// The device's compute capability (remembered under `cache_root`/devices when that is not empty);
// without a usable GPU, `requested` when non-zero, else $GQL_CUDA_ARCH, else 90. Throws
// gql::Error(usage) when $GQL_CUDA_ARCH is not a number such as 90.
CudaArch target_cuda_arch(int requested, const std::string& cache_root = "");

}  // namespace gql::jit
