#include "nvrtc_compiler.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <memory>

#include "cache_key.hpp"
#include "embedded_headers.hpp"
#include "gql/error.hpp"

namespace gql::jit {
namespace {

void check(nvrtcResult r, const char* what) {
  if (r != NVRTC_SUCCESS) throw Error(ErrorKind::jit, std::string(what) + ": " + nvrtcGetErrorString(r));
}

// The architecture to compile for: the device's when NVRTC supports it, else (PTX) the newest below it.
std::pair<int, bool> choose_arch(int device_arch) {
  int count = 0;
  check(nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  std::vector<int> archs(static_cast<size_t>(count));
  check(nvrtcGetSupportedArchs(archs.data()), "nvrtcGetSupportedArchs");
  if (std::find(archs.begin(), archs.end(), device_arch) != archs.end()) return {device_arch, true};
  int best = 0;
  for (int a : archs)
    if (a <= device_arch) best = std::max(best, a);
  if (best == 0) throw Error(ErrorKind::jit, "NVRTC supports no architecture up to sm_" + std::to_string(device_arch));
  return {best, false};
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  check(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_default_options() {
  // One kernel per program (nvrtc_products.cpp), the programs on threads of their own.
  return {"-std=c++20", "-default-device", "-DNDEBUG", "-lineinfo"};
}

std::string embedded_headers_id() {
  CacheKeyBuilder key;
  for (const EmbeddedHeader& h : embedded_headers()) key.add(h.name, h.text);
  return key.finish().hex();
}

CudaBinary nvrtc_compile(const std::string& source, const std::string& name, int arch,
                         const std::vector<std::string>& options, const std::vector<std::string>& name_expressions) {
  const auto [target, cubin] = choose_arch(arch);
  std::vector<const char*> header_texts, header_names;
  for (const EmbeddedHeader& h : embedded_headers()) {
    header_texts.push_back(h.text);
    header_names.push_back(h.name);
  }
  nvrtcProgram program = nullptr;
  check(nvrtcCreateProgram(&program, source.c_str(), name.c_str(), static_cast<int>(header_texts.size()),
                           header_texts.data(), header_names.data()),
        "nvrtcCreateProgram");
  std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(&program, [](nvrtcProgram* p) { nvrtcDestroyProgram(p); });

  for (const std::string& e : name_expressions)
    check(nvrtcAddNameExpression(program, e.c_str()), "nvrtcAddNameExpression");

  std::vector<std::string> all = options;
  all.push_back((cubin ? "-arch=sm_" : "-arch=compute_") + std::to_string(target));
  std::vector<const char*> argv;
  for (const auto& o : all) argv.push_back(o.c_str());
  const nvrtcResult compiled = nvrtcCompileProgram(program, static_cast<int>(argv.size()), argv.data());

  CudaBinary out;
  out.is_cubin = cubin;
  out.arch = target;
  size_t log_size = 0;
  check(nvrtcGetProgramLogSize(program, &log_size), "nvrtcGetProgramLogSize");
  out.log.resize(log_size);
  if (log_size) check(nvrtcGetProgramLog(program, out.log.data()), "nvrtcGetProgramLog");
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  if (compiled != NVRTC_SUCCESS)
    throw Error(ErrorKind::jit, "NVRTC could not compile " + name + " for " + (cubin ? "sm_" : "compute_") +
                                    std::to_string(target) + ":\n" + out.log);
  for (const std::string& e : name_expressions) {
    const char* lowered = nullptr;
    check(nvrtcGetLoweredName(program, e.c_str(), &lowered), "nvrtcGetLoweredName");
    out.lowered_names.emplace_back(lowered);
  }
  size_t size = 0;
  if (cubin) {
    check(nvrtcGetCUBINSize(program, &size), "nvrtcGetCUBINSize");
    out.bytes.resize(size);
    check(nvrtcGetCUBIN(program, out.bytes.data()), "nvrtcGetCUBIN");
  } else {
    check(nvrtcGetPTXSize(program, &size), "nvrtcGetPTXSize");
    out.bytes.resize(size);
    check(nvrtcGetPTX(program, out.bytes.data()), "nvrtcGetPTX");
  }
  return out;
}

}  // namespace gql::jit
