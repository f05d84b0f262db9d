#include "cuda_arch.hpp"

#include <cstdlib>

#include "cuda_driver.hpp"
#include "gql/error.hpp"

namespace gql::jit {

CudaArch target_cuda_arch(int requested) {
  std::string no_device;
  try {
    return {CudaDriver::get().device_arch(), "the device's"};
  } catch (const Error& e) {
    no_device = e.reason();
  }
  if (requested > 0) return {requested, "CompilerOptions::cuda_arch; no GPU here: " + no_device};
  if (const char* env = std::getenv("GQL_CUDA_ARCH"); env && *env) {
    char* end = nullptr;
    const long arch = std::strtol(env, &end, 10);
    if (*end != '\0' || arch < 10 || arch > 1000)
      throw Error(ErrorKind::usage, std::string("GQL_CUDA_ARCH must be a compute capability such as 90 (sm_90), not '") +
                                        env + "'");
    return {static_cast<int>(arch), "$GQL_CUDA_ARCH; no GPU here: " + no_device};
  }
  return {90, "the default; no GPU here: " + no_device};
}

}  // namespace gql::jit
