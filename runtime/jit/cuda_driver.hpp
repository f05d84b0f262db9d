// The slice of the CUDA driver API the JIT needs (module load, function lookup, device
// architecture), opened with dlopen: programs that link gql run on machines without a driver and
// fail only when they ask for a CUDA kernel.
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
  // Loads a CUBIN or PTX image into the current context (the device's primary context when none
  // is current); returns the CUmodule.
  void* load_module(const std::string& image);
  void unload_module(void* module) noexcept;
  // The CUfunction `name` of a loaded module; throws gql::Error(jit) when it is missing.
  void* function(void* module, const std::string& name);

 private:
  CudaDriver();
  struct Api;
  Api* api_;
};

}  // namespace gql::jit
