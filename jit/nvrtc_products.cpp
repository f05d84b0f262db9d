#include "nvrtc_products.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <set>
#include <sstream>
#include <thread>

#include "gql/device.hpp"
#include "gql/error.hpp"
#include "nvrtc_compiler.hpp"

namespace gql::jit {
namespace {

constexpr const char* manifest_magic = "gql-nvrtc-products 2";

// The manifest: magic, "ARCH KIND KERNELS", then per kernel its expression and "IMAGE BYTES" and
// mangled name; then the images, one per kernel, back to back.
std::string encode(const std::vector<CudaBinary>& binaries, const std::vector<std::string>& expressions) {
  std::string out = std::string(manifest_magic) + "\n" + std::to_string(binaries.at(0).arch) + " " +
                    (binaries[0].is_cubin ? "cubin" : "ptx") + " " + std::to_string(expressions.size()) + "\n";
  for (size_t n = 0; n < expressions.size(); ++n)
    out += expressions[n] + "\n" + std::to_string(binaries[n].bytes.size()) + " " + binaries[n].lowered_names.at(0) + "\n";
  for (const CudaBinary& b : binaries) out += b.bytes;
  return out;
}

// Each expression's kernel compiled by its own NVRTC program, at most `cores` at a time.
std::vector<CudaBinary> compile_each(const std::string& source, const std::string& name, int arch,
                                     const std::vector<std::string>& expressions) {
  std::vector<CudaBinary> out(expressions.size());
  std::vector<std::exception_ptr> errors(expressions.size());
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t n; (n = next++) < expressions.size();) {
      try {
        out[n] = nvrtc_compile(source, name, arch, nvrtc_default_options(), {expressions[n]});
      } catch (...) {
        errors[n] = std::current_exception();
      }
    }
  };
  const size_t cores = std::max<size_t>(1, std::thread::hardware_concurrency());
  std::vector<std::thread> threads;
  for (size_t t = 1; t < std::min(cores, expressions.size()); ++t) threads.emplace_back(work);
  work();
  for (std::thread& t : threads) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  return out;
}

// The semiring a product runs with on the device: ByteValued for an mxm's bool values (gql/device/
// byte_valued.cuh), the operands swapped for mxv (gql/swapped_operands.hpp).
std::string device_name(const compiler::GpuProduct& p) {
  const std::string semiring = "gqlgen::" + p.semiring;
  if (p.kind == "mxv") return "gql::cpu::SwappedOperands<" + semiring + ">";
  if (p.kind == "vxm") return semiring;
  return device_semiring_name(semiring, p.value_type == "bool");
}

// A closure's schedule as the generated code gives it (gql/device/closure/closure_plan.hpp).
gpu::ClosureSchedule closure_schedule(const compiler::GpuClosure& c) {
  gpu::ClosureSchedule schedule;
  schedule.tile = c.tile;
  schedule.register_tile = {c.register_rows, c.register_cols};
  schedule.per_thread = c.per_thread;
  return schedule;
}

std::string cpp_literal(const gpu::ClosureSchedule& s) {
  return "gql::gpu::ClosureSchedule{" + std::to_string(s.tile) + ", {" + std::to_string(s.register_tile.rows) + ", " +
         std::to_string(s.register_tile.cols) + "}, " + std::to_string(s.per_thread) + "}";
}

std::vector<ClosureKernelName> closure_names(const compiler::GpuClosure& c) {
  return closure_kernel_names("gqlgen::" + c.semiring, c.value_type, static_cast<size_t>(c.value_bytes),
                              closure_schedule(c), c.predecessors);
}

gpu::SsspSchedule paths_schedule(const compiler::GpuPaths& p) {
  gpu::SsspSchedule schedule;
  schedule.kernel = p.delta_stepping ? gpu::PathsKernel::delta_stepping : gpu::PathsKernel::bellman_ford;
  schedule.balance = p.balance;
  return schedule;
}

// The kernels' choice of a paths schedule (delta's width does not choose any).
std::string cpp_literal(const gpu::SsspSchedule& s) {
  return std::string("gql::gpu::SsspSchedule{gql::gpu::PathsKernel::") +
         (s.kernel == gpu::PathsKernel::delta_stepping ? "delta_stepping" : "bellman_ford") +
         ", 0, gql::LoadBalance::" + balance_name(s.balance) + "}";
}

std::vector<PathsKernelName> paths_names(const compiler::GpuPaths& p) {
  return paths_kernel_names("gqlgen::" + p.semiring, p.value_type, p.graph_type, paths_schedule(p));
}

}  // namespace

std::vector<std::string> device_kernel_expressions(const compiler::CudaDeviceParts& parts) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  const auto add = [&](const std::string& e) {
    if (seen.insert(e).second) out.push_back(e);
  };
  for (const compiler::GpuProduct& p : parts.products) {
    if (p.kind != "mxm") {
      add(vxm_push_kernel_name(device_name(p), p.vector_type, p.graph_type, p.balance));
      continue;
    }
    for (const SpgemmKernelName& k :
         spgemm_semiring_kernel_names(device_name(p), static_cast<size_t>(p.value_bytes), p.sorted_chunk).kernels)
      add(k.expression);
  }
  for (const compiler::GpuClosure& c : parts.closures)
    for (const ClosureKernelName& name : closure_names(c)) add(name.expression);
  for (const compiler::GpuPaths& p : parts.paths)
    for (const PathsKernelName& name : paths_names(p)) add(name.expression);
  return out;
}

std::string generate_device_kernel_binding(const compiler::CudaDeviceParts& parts) {
  std::string out =
      "\n// Binds the GPU products, closures and paths to the kernels NVRTC built (gql/device/jit_kernels.hpp).\n"
      "#include <gql/device/jit_kernels.hpp>\n\n"
      "extern \"C\" __attribute__((visibility(\"default\"))) void " + std::string(device_kernel_binding_symbol) +
      "(const gql::DeviceKernelResolver* kernels, std::exception_ptr* error) {\n  try {\n";
  for (const compiler::GpuProduct& p : parts.products) {
    if (p.kind == "mxm")
      out += "    gql::bind_spgemm_kernels<gql::device::device_semiring_t<gqlgen::" + p.semiring + ">>(*kernels, \"" +
             device_name(p) + "\", " + std::to_string(p.sorted_chunk) + ");\n";
    else
      out += "    gql::bind_vxm_kernels<" + device_name(p) + ", " + p.vector_type + ", " + p.graph_type +
             ">(*kernels, \"" + device_name(p) + "\", \"" + p.vector_type + "\", \"" + p.graph_type +
             "\", gql::LoadBalance::" + balance_name(p.balance) + ");\n";
  }
  for (const compiler::GpuClosure& c : parts.closures)
    out += "    gql::bind_closure_kernels<gqlgen::" + c.semiring + ">(*kernels, \"gqlgen::" + c.semiring + "\", \"" +
           c.value_type + "\", " + cpp_literal(closure_schedule(c)) + ", " + (c.predecessors ? "true" : "false") + ");\n";
  for (const compiler::GpuPaths& p : parts.paths)
    out += "    gql::bind_paths_kernels<gqlgen::" + p.semiring + ", " + p.graph_type + ">(*kernels, \"gqlgen::" +
           p.semiring + "\", \"" + p.value_type + "\", \"" + p.graph_type + "\", " + cpp_literal(paths_schedule(p)) +
           ");\n";
  return out + "  } catch (...) {\n    *error = std::current_exception();\n  }\n}\n";
}

CacheKey nvrtc_cache_key(const std::string& source, const std::vector<std::string>& name_expressions, int arch) {
  CacheKeyBuilder key;
  key.add("source", source).add("target", "cuda-nvrtc").add("nvrtc", nvrtc_version()).add("arch", std::to_string(arch));
  for (const auto& o : nvrtc_default_options()) key.add("option", o);
  for (const auto& e : name_expressions) key.add("kernel", e);
  key.add("headers", embedded_headers_id());
  return key.finish();
}

CacheEntry build_nvrtc_products(DiskCache& cache, const CacheKey& key, const std::string& source,
                                const std::string& name, const std::vector<std::string>& name_expressions, int arch) {
  if (name_expressions.empty()) throw Error(ErrorKind::internal, "NVRTC was asked for no kernels of " + name);
  return cache.get_or_build(key, ".cubin", [&](const std::string& out) {
    DiskCache::write_payload(out, encode(compile_each(source, name, arch, name_expressions), name_expressions));
  });
}

NvrtcImages read_nvrtc_products(const std::string& entry_path) {
  std::string payload;
  if (!DiskCache::read_payload(entry_path, payload))
    throw Error(ErrorKind::jit, "the cached GPU kernels are unreadable", {entry_path});
  std::istringstream in(payload);
  std::string magic, kind;
  NvrtcImages out;
  size_t count = 0;
  if (!std::getline(in, magic) || magic != manifest_magic || !(in >> out.arch >> kind >> count) ||
      (kind != "cubin" && kind != "ptx"))
    throw Error(ErrorKind::jit, "the cached GPU kernels have no valid manifest", {entry_path});
  in.ignore(1);
  out.is_cubin = kind == "cubin";
  std::vector<size_t> sizes;
  for (size_t n = 0; n < count; ++n) {
    std::string expression, lowered;
    size_t bytes = 0;
    if (!std::getline(in, expression) || !(in >> bytes) || in.get() != ' ' || !std::getline(in, lowered))
      throw Error(ErrorKind::jit, "the cached GPU kernels' manifest is truncated", {entry_path});
    out.kernels[expression] = {n, lowered};
    sizes.push_back(bytes);
  }
  size_t at = static_cast<size_t>(in.tellg());
  for (const size_t bytes : sizes) {
    if (bytes > payload.size() - at)
      throw Error(ErrorKind::jit, "the cached GPU kernels are shorter than their manifest says", {entry_path});
    out.images.push_back(payload.substr(at, bytes));
    at += bytes;
  }
  return out;
}

NvrtcKernels::~NvrtcKernels() {
  for (void* library : libraries_) cudaLibraryUnload(static_cast<cudaLibrary_t>(library));
}

const void* NvrtcKernels::kernel(const std::string& name_expression) const {
  std::call_once(loaded_, [this] {
    for (const std::string& image : images_.images) {
      cudaLibrary_t library = nullptr;
      GQL_CUDA_CHECK(cudaLibraryLoadData(&library, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
      libraries_.push_back(library);
    }
  });
  const auto it = images_.kernels.find(name_expression);
  if (it == images_.kernels.end())
    throw Error(ErrorKind::jit, "the GPU kernels built by NVRTC lack " + name_expression);
  cudaKernel_t kernel = nullptr;
  GQL_CUDA_CHECK(cudaLibraryGetKernel(&kernel, static_cast<cudaLibrary_t>(libraries_.at(it->second.image)),
                                      it->second.lowered.c_str()));
  return reinterpret_cast<const void*>(kernel);
}

}  // namespace gql::jit
