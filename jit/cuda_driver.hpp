// The slice of the CUDA driver API the JIT needs (the device's architecture), opened with dlopen:
// programs that link gql run on machines without a driver, and asking costs no CUDA context.
#pragma once

#include <string>

namespace gql::jit {

class CudaDriver {
 public:
  // The process-wide driver, initialized on first use. Throws gql::Error(cuda) when there is no
  // driver or no device.
  static CudaDriver& get();

  // The compute capability of the current context's device, else of device 0 (major * 10 + minor).
  int device_arch();

 private:
  CudaDriver();
  struct Api;
  Api* api_;
};

}  // namespace gql::jit
