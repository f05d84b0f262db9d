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
using CUmodule = void*;
using CUfunction = void*;
constexpr int attribute_compute_capability_major = 75;
constexpr int attribute_compute_capability_minor = 76;

}  // namespace

struct CudaDriver::Api {
  void* handle = nullptr;
  CUresult (*cuInit)(unsigned) = nullptr;
  CUresult (*cuCtxGetCurrent)(CUcontext*) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuCtxGetDevice)(CUdevice*) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice*, int) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void*) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;

  void check(CUresult r, const char* what) const {
    if (r == 0) return;
    const char* text = nullptr;
    if (cuGetErrorString) cuGetErrorString(r, &text);
    throw Error(ErrorKind::cuda, std::string(what) + " failed: " + (text ? text : "error " + std::to_string(r)));
  }
  // Makes sure a context is current: the device's primary context, as the CUDA runtime would use.
  CUdevice current_device() const {
    CUcontext ctx = nullptr;
    check(cuCtxGetCurrent(&ctx), "cuCtxGetCurrent");
    if (!ctx) {
      CUdevice dev = 0;
      check(cuDeviceGet(&dev, 0), "cuDeviceGet");
      check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
      check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
    }
    CUdevice dev = 0;
    check(cuCtxGetDevice(&dev), "cuCtxGetDevice");
    return dev;
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
  load(a.cuCtxSetCurrent, "cuCtxSetCurrent");
  load(a.cuCtxGetDevice, "cuCtxGetDevice");
  load(a.cuDeviceGet, "cuDeviceGet");
  load(a.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  load(a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  load(a.cuModuleLoadData, "cuModuleLoadData");
  load(a.cuModuleUnload, "cuModuleUnload");
  load(a.cuModuleGetFunction, "cuModuleGetFunction");
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

void* CudaDriver::load_module(const std::string& image) {
  api_->current_device();
  CUmodule module = nullptr;
  api_->check(api_->cuModuleLoadData(&module, image.c_str()), "cuModuleLoadData");
  return module;
}

void CudaDriver::unload_module(void* module) noexcept { api_->cuModuleUnload(module); }

void* CudaDriver::function(void* module, const std::string& name) {
  CUfunction f = nullptr;
  if (api_->cuModuleGetFunction(&f, module, name.c_str()) != 0)
    throw Error(ErrorKind::jit, "the CUDA module has no kernel '" + name + "'");
  return f;
}

}  // namespace gql::jit
