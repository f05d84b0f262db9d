// CUDA kernels through the cache: source -> key (source, options, NVRTC version, architecture,
// embedded headers) -> in-process table -> disk cache (NVRTC on a miss) -> driver module.
// The CUDA code generator does not exist yet; this is the path its output will take.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "disk_cache.hpp"

namespace gql::jit {

class CudaModule {
 public:
  CudaModule(void* module, int arch, bool is_cubin) : module_(module), arch_(arch), is_cubin_(is_cubin) {}
  ~CudaModule();
  CudaModule(const CudaModule&) = delete;
  CudaModule& operator=(const CudaModule&) = delete;
  // The CUfunction of an extern "C" __global__ kernel.
  void* function(const std::string& name) const;
  int arch() const noexcept { return arch_; }
  bool is_cubin() const noexcept { return is_cubin_; }

 private:
  void* module_;
  int arch_;
  bool is_cubin_;
};

// The cache key of CUDA source for one architecture.
CacheKey cuda_cache_key(const std::string& source, int arch, const std::vector<std::string>& options);

// Compiles (or finds) `source` for the current device and loads it. Throws gql::Error(cuda)
// without a device, Error(jit) when NVRTC fails.
std::shared_ptr<const CudaModule> load_cuda_source(DiskCache& cache, const std::string& source, const std::string& name,
                                                   CacheOrigin* origin = nullptr);

}  // namespace gql::jit
