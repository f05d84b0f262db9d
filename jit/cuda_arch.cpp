#include "cuda_arch.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cache_key.hpp"
#include "cuda_driver.hpp"
#include "gql/error.hpp"

namespace gql::jit {
namespace {
namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// The GPUs as the NVIDIA kernel module lists them, with what selects the CUDA device 0; empty when
// the module lists none (no GPU, or no NVIDIA driver).
std::string gpu_identity() {
  std::error_code ec;
  std::vector<fs::path> gpus;
  for (auto it = fs::directory_iterator("/proc/driver/nvidia/gpus", ec); !ec && it != fs::directory_iterator();
       it.increment(ec))
    gpus.push_back(it->path() / "information");
  if (gpus.empty()) return "";
  std::sort(gpus.begin(), gpus.end());
  CacheKeyBuilder key;
  key.add("driver", read_file("/proc/driver/nvidia/version"));
  for (const fs::path& gpu : gpus) key.add("gpu", read_file(gpu));
  for (const char* env : {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER"}) {
    const char* value = std::getenv(env);
    key.add(env, value ? value : "(unset)");
  }
  return key.finish().hex();
}

int remembered_arch(const fs::path& file) {
  std::ifstream in(file);
  int arch = 0;
  return (in >> arch) && arch >= 10 && arch <= 1000 ? arch : 0;
}

void remember_arch(const fs::path& file, int arch) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const fs::path tmp = file.string() + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(tmp);
    out << arch << "\n";
    if (!out) return;  // only a cache: the next process asks the driver again
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
}

}  // namespace

CudaArch target_cuda_arch(int requested, const std::string& cache_root) {
  const std::string identity = cache_root.empty() ? "" : gpu_identity();
  const fs::path file = identity.empty() ? fs::path() : fs::path(cache_root) / "devices" / identity;
  if (!file.empty())
    if (const int arch = remembered_arch(file); arch > 0) return {arch, "the device's, remembered"};
  std::string no_device;
  try {
    const int arch = CudaDriver::get().device_arch();
    if (!file.empty()) remember_arch(file, arch);
    return {arch, "the device's"};
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
