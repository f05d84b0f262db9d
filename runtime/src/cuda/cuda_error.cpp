// Maps failed CUDA runtime calls to gql::Error.
#include <string>

#include "gql/device.hpp"

namespace gql {

void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line) {
  // Clear the error unless it is sticky (a broken context keeps reporting it anyway), so that a
  // caller who recovers (e.g. retries a smaller allocation) does not see it again at the next check.
  cudaGetLastError();
  std::string reason = std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                       cudaGetErrorString(status) + ")";
  // CUDA says "driver version is insufficient" also when no NVIDIA driver is loaded, as on a machine
  // without a GPU: say first what it means for the caller.
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
    reason = "no CUDA GPU can be used on this machine (no GPU, no NVIDIA driver, or one older than the CUDA "
             "runtime): " + reason;
  const ErrorKind kind = status == cudaErrorMemoryAllocation ? ErrorKind::oom : ErrorKind::cuda;
  throw Error(kind, std::move(reason), Location{file, line});
}

int device_count() noexcept {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

}  // namespace gql
