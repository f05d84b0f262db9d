#include "cuda_driver.hpp"

#include <dlfcn.h>

#include <mutex>

#include "gql/error.hpp"

namespace gql::jit {
namespace {

// Driver API types and constants, as cuda.h declares them (stable ABI).
using CUresult = int;
using CUdevice = int;
using CUcontext = void*;
constexpr int attribute_compute_capability_major = 75;
constexpr int attribute_compute_capability_minor = 76;

}  // namespace

struct CudaDriver::Api {
  void* handle = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext*) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;

  void check(CUresult r, const char* what) const {
    if (r == 0) return;
    const char* text = nullptr;
    if (cuGetErrorString) cuGetErrorString(r, &text);
    throw Error(ErrorKind::cuda, std::string(what) + " failed: " + (text ? text : "error " + std::to_string(r)));
  }
};

CudaDriver& CudaDriver::get() {
  static std::once_flag once;
  static CudaDriver* driver = nullptr;
  static std::exception_ptr failure;
  std::call_once(once, [] {
    try {
      driver = new CudaDriver();  // lives as long as the process: modules may outlive static destructors
    } catch (...) {
      failure = std::current_exception();
    }
  });
  if (failure) std::rethrow_exception(failure);
  return *driver;
}

CudaDriver::CudaDriver() : api_(new Api) {
  Api& a = *api_;
  a.handle = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!a.handle) throw Error(ErrorKind::cuda, std::string("no CUDA driver (libcuda.so.1): ") + ::dlerror());
  auto load = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(::dlsym(a.handle, name));
    if (!fn) throw Error(ErrorKind::cuda, std::string("the CUDA driver lacks ") + name);
  };
  load(a.cuInit, "cuInit");
  load(a.cuCtxGetCurrent, "cuCtxGetCurrent");
  load(a.cuCtxGetDevice, "cuCtxGetDevice");
  load(a.cuDeviceGet, "cuDeviceGet");
  load(a.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  load(a.cuGetErrorString, "cuGetErrorString");
  a.check(a.cuInit(0), "cuInit");
}

int CudaDriver::device_arch() {
  // The current context's device, else device 0 (what the CUDA runtime starts on), without creating
  // a context: that costs far more than the query and is the kernels' business.
  CUcontext ctx = nullptr;
  api_->check(api_->cuCtxGetCurrent(&ctx), "cuCtxGetCurrent");
  CUdevice dev = 0;
  if (ctx) api_->check(api_->cuCtxGetDevice(&dev), "cuCtxGetDevice");
  else api_->check(api_->cuDeviceGet(&dev, 0), "cuDeviceGet");
  int major = 0, minor = 0;
  api_->check(api_->cuDeviceGetAttribute(&major, attribute_compute_capability_major, dev), "cuDeviceGetAttribute");
  api_->check(api_->cuDeviceGetAttribute(&minor, attribute_compute_capability_minor, dev), "cuDeviceGetAttribute");
  return major * 10 + minor;
}

}  // namespace gql::jit
