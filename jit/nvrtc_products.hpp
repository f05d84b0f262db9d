// The semiring kernels of a spec's GPU ops (products, closures, paths) through NVRTC and the cache: device source + name
// expressions -> key (the source, the expressions, NVRTC's version and options, the architecture,
// the embedded headers) -> disk cache (NVRTC on a miss) -> a CUDA library loaded with
// cudaLibraryLoadData, whose kernels are found by their name expressions.
// Each kernel is its own NVRTC program, all compiled at once on their own threads, so the build takes
// about as long as the slowest kernel (one program optimizes its kernels one after another, and
// --split-compile could not spread the slowest one). An entry holds a manifest (the images' kind and
// architecture, and each expression's image and mangled name, which NVRTC reports only when it
// compiles) followed by the CUBIN or PTX images.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "disk_cache.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/device/jit_kernels.hpp"

namespace gql::jit {

// The name expressions of the semiring kernels of the parts' products, closures and paths, each once.
std::vector<std::string> device_kernel_expressions(const compiler::CudaDeviceParts& parts);

// The symbol, and the source appended to the host code, of the kernel library's binding of its
// GPU ops to loaded kernels: extern "C" void SYMBOL(const gql::DeviceKernelResolver*,
// std::exception_ptr*) calls gql::bind_spgemm_kernels, bind_vxm_kernels, bind_closure_kernels or
// bind_paths_kernels for each op's semiring.
inline constexpr const char* device_kernel_binding_symbol = "gql_bind_device_kernels";
std::string generate_device_kernel_binding(const compiler::CudaDeviceParts& parts);

struct NvrtcKernelSymbol {
  size_t image = 0;     // which of the images holds it
  std::string lowered;  // its mangled name there
};

struct NvrtcImages {
  int arch = 0;
  bool is_cubin = true;
  std::map<std::string, NvrtcKernelSymbol> kernels;  // by name expression
  std::vector<std::string> images;
};

CacheKey nvrtc_cache_key(const std::string& source, const std::vector<std::string>& name_expressions, int arch);

// The entry for the source and its kernels, compiled by NVRTC on a miss: a program per kernel, on up
// to as many threads as there are cores.
CacheEntry build_nvrtc_products(DiskCache& cache, const CacheKey& key, const std::string& source,
                                const std::string& name, const std::vector<std::string>& name_expressions, int arch);

// An entry's contents; throws gql::Error(jit) when it is unreadable.
NvrtcImages read_nvrtc_products(const std::string& entry_path);

// The images' kernels by name expression, for the shims of gql/device/jit_kernels.hpp. The images
// are loaded (cudaLibraryLoadData, into the current device's context) when the first kernel is asked
// for, and stay loaded as long as this object (the JIT keeps it for the life of the process).
class NvrtcKernels : public DeviceKernelResolver {
 public:
  explicit NvrtcKernels(NvrtcImages images) : images_(std::move(images)) {}
  ~NvrtcKernels() override;
  NvrtcKernels(const NvrtcKernels&) = delete;
  NvrtcKernels& operator=(const NvrtcKernels&) = delete;
  // Throws gql::Error(cuda) when the CUDA runtime refuses the image, Error(jit) for an unknown kernel.
  const void* kernel(const std::string& name_expression) const override;

 private:
  NvrtcImages images_;
  mutable std::once_flag loaded_;
  mutable std::vector<void*> libraries_;  // cudaLibrary_t, one per image
};

}  // namespace gql::jit
