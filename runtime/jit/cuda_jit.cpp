#include "cuda_jit.hpp"

#include "cuda_driver.hpp"
#include "gql/error.hpp"
#include "nvrtc_compiler.hpp"
#include "once_table.hpp"

namespace gql::jit {

CudaModule::~CudaModule() { CudaDriver::get().unload_module(module_); }

void* CudaModule::function(const std::string& name) const { return CudaDriver::get().function(module_, name); }

CacheKey cuda_cache_key(const std::string& source, int arch, const std::vector<std::string>& options) {
  CacheKeyBuilder key;
  key.add("source", source).add("target", "cuda").add("nvrtc", nvrtc_version()).add("arch", std::to_string(arch));
  for (const auto& o : options) key.add("option", o);
  key.add("headers", embedded_headers_id());
  return key.finish();
}

std::shared_ptr<const CudaModule> load_cuda_source(DiskCache& cache, const std::string& source, const std::string& name,
                                                   CacheOrigin* origin) {
  static OnceTable<CacheKey, CudaModule, CacheKeyHash> loaded;
  CudaDriver& driver = CudaDriver::get();
  const int arch = driver.device_arch();
  const std::vector<std::string> options = nvrtc_default_options();
  const CacheKey key = cuda_cache_key(source, arch, options);
  return loaded.get(key, [&] {
    bool is_cubin = true;
    int built_arch = arch;
    // The entry holds CUBIN or PTX; which one is decided by NVRTC's supported architectures, which the key covers.
    const CacheEntry entry = cache.get_or_build(key, ".cubin", [&](const std::string& out) {
      CudaBinary binary = nvrtc_compile(source, name, arch, options);
      is_cubin = binary.is_cubin;
      built_arch = binary.arch;
      DiskCache::write_payload(out, binary.bytes);
    });
    if (origin) *origin = entry.origin;
    std::string image;
    if (!DiskCache::read_payload(entry.path, image))
      throw Error(ErrorKind::jit, "the cached CUDA module is unreadable", {entry.path});
    is_cubin = image.rfind("\x7f" "ELF", 0) == 0;
    return std::make_shared<const CudaModule>(driver.load_module(image), built_arch, is_cubin);
  });
}

}  // namespace gql::jit
