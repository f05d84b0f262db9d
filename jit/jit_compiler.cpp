// gql::Compiler and gql::Module: spec -> front end -> generated OpenMP C++ or CUDA C++ + entry
// shims -> the cache key -> the in-process table -> the disk cache (built on a miss with the host
// compiler or nvcc) -> dlopen. CUDA specs whose GPU ops are all products take the NVRTC path: the
// host code by the host compiler and the products' semiring kernels by NVRTC, at once.
#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <map>
#include <mutex>
#include <new>
#include <optional>

#include "build_id.hpp"
#include "cpu_kernel_build.hpp"
#include "cuda_arch.hpp"
#include "disk_cache.hpp"
#include "entry_shims.hpp"
#include "file_stamp.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/compiler/compiler.hpp"
#include "gql/compiler/install_layout.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/jit.hpp"
#include "host_compiler.hpp"
#include "nvcc_compiler.hpp"
#include "once_table.hpp"
#include "spec_error.hpp"

#ifdef GQL_JIT_HAVE_NVRTC
#include "gql/device/product_shapes.hpp"
#include "nvrtc_products.hpp"
#endif

namespace gql {

namespace jit_detail {
// A loaded kernel library; stays loaded for the life of the process (the in-process table keeps it).
struct Library {
  void* handle = nullptr;
  std::string path;
  std::vector<KernelSignature> signatures;
  std::vector<Entry> entries;
  std::shared_ptr<const void> device_kernels;  // the NVRTC path's loaded GPU kernels, kept as long as the code
};
}  // namespace jit_detail

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using jit_detail::Library;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::string format_duration(double s) {
  char buf[32];
  if (s < 1e-3) std::snprintf(buf, sizeof buf, "%.1f us", s * 1e6);
  else if (s < 1) std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  else std::snprintf(buf, sizeof buf, "%.2f s", s);
  return buf;
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  return v && *v && std::string(v) != "0";
}

// Every process shares one table, so that all Compiler objects load a library once.
jit::OnceTable<jit::CacheKey, Library, jit::CacheKeyHash>& loaded_libraries() {
  static jit::OnceTable<jit::CacheKey, Library, jit::CacheKeyHash> table;
  return table;
}

// A library built for several processes is handed the caller's ranks and, for CUDA, their GPUs
// (jit::use_ranks_symbol).
std::shared_ptr<Library> load_library(const std::string& path, const compiler::ir::Module& module,
                                      const dist::World* ranks, const dist::DeviceWorld* devices) {
  auto library = std::make_shared<Library>();
  library->path = path;
  library->handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library->handle) throw Error(ErrorKind::jit, std::string("cannot load the kernel library: ") + ::dlerror(), {path});
  for (const compiler::ir::Kernel& k : module.kernels) {
    void* entry = ::dlsym(library->handle, jit::entry_symbol(k.name).c_str());
    if (!entry) throw Error(ErrorKind::jit, "the kernel library has no entry for '" + k.name + "'", {path});
    library->signatures.push_back(jit::signature_of(k, module.target));
    library->entries.push_back(reinterpret_cast<jit_detail::Entry>(entry));
  }
  if (module.distributed) {
    void* use_ranks = ::dlsym(library->handle, jit::use_ranks_symbol);
    if (!use_ranks) throw Error(ErrorKind::jit, "the kernel library has no entry for its MPI ranks", {path});
    reinterpret_cast<void (*)(const void*, const void*)>(use_ranks)(ranks, devices);
  }
  return library;
}

#ifdef GQL_JIT_HAVE_NVRTC
// Why the NVRTC path cannot build a CUDA module ("" when it can): it builds closures, single-source
// paths and products (mxm, vxm, mxv), these over the shapes whose host driver the runtime library
// holds.
std::string nvrtc_unfit(const compiler::CudaDeviceParts& parts) {
  for (const compiler::GpuProduct& p : parts.products) {
    if (p.kind == "mxm" && !spgemm_shape_precompiled(p.a_type, p.b_type, p.value_type))
      return "the product over " + p.semiring + " has a shape (" + p.a_type + ", " + p.b_type + " -> " + p.value_type +
             ") without a precompiled host driver";
    if (p.kind != "mxm" && !vxm_shape_precompiled(p.vector_type, p.graph_type, p.value_type, p.result_type))
      return "the " + p.kind + " over " + p.semiring + " has a shape (vector " + p.vector_type + ", graph " +
             p.graph_type + ", " + p.value_type + " into " + p.result_type + ") without a precompiled host driver";
  }
  return "";
}

// Binds the library's products to the NVRTC path's kernels, which its first product loads onto the
// GPU (without a GPU, the library's entries say so when called).
void bind_device_kernels(Library& library, const std::string& device_entry) {
  if (device_entry.empty()) return;
  auto kernels = std::make_shared<const jit::NvrtcKernels>(jit::read_nvrtc_products(device_entry));
  using Binding = void (*)(const DeviceKernelResolver*, std::exception_ptr*);
  auto bind = reinterpret_cast<Binding>(::dlsym(library.handle, jit::device_kernel_binding_symbol));
  if (!bind) throw Error(ErrorKind::jit, "the kernel library has no binding of its GPU products", {library.path});
  std::exception_ptr error;
  bind(kernels.get(), &error);
  if (error) std::rethrow_exception(error);
  library.device_kernels = std::move(kernels);
}
#endif

// How a CUDA spec is built: by NVRTC and the host compiler (with the device source, its kernels'
// name expressions and the binding shim the host code gets), or by nvcc, and why.
struct CudaRoute {
  bool nvrtc = false;
  std::string nvcc_reason;
  std::string device_source;
  std::vector<std::string> device_kernels;
  std::string binding;
};

CudaRoute choose_cuda_route([[maybe_unused]] const compiler::ir::Module& ir,
                            [[maybe_unused]] const compiler::CodegenOptions& codegen, [[maybe_unused]] bool nvrtc_on) {
  CudaRoute route;
  if (ir.distributed) {
    route.nvcc_reason = "its ops run over the ranks' GPUs (gql/dist/device_*.hpp, which nvcc compiles)";
    return route;
  }
#ifdef GQL_JIT_HAVE_NVRTC
  if (!nvrtc_on) {
    route.nvcc_reason = "the NVRTC path is off (GQL_JIT_NVRTC=0)";
    return route;
  }
  const compiler::CudaDeviceParts parts = compiler::cuda_device_parts(ir, codegen);
  route.nvcc_reason = nvrtc_unfit(parts);
  route.nvrtc = route.nvcc_reason.empty();
  if (route.nvrtc) {
    route.binding = jit::generate_device_kernel_binding(parts);
    route.device_source = parts.source;
    route.device_kernels = jit::device_kernel_expressions(parts);
  }
#else
  route.nvcc_reason = "this gql was built without NVRTC";
#endif
  return route;
}

}  // namespace

void jit_detail::forget_loaded_libraries() { loaded_libraries().clear(); }

struct Module::State {
  std::shared_ptr<const Library> library;
  std::string plan;
  std::string source;
};

struct Compiler::Impl {
  CompilerOptions options;
  compiler::RuntimeLayout layout;
  jit::HostCompiler host;    // Target::openmp, and the host code of Target::cuda's NVRTC path
  jit::CudaArch cuda_arch;   // Target::cuda
  std::vector<std::string> flags;
  // Target::cuda: the NVRTC path (GQL_JIT_NVRTC=0 turns it off), its host code's flags, and nvcc for
  // the specs it cannot build (found when one needs it).
  bool nvrtc = false;
  std::vector<std::string> host_cuda_flags;
  std::once_flag nvcc_once;
  jit::Nvcc nvcc;
  std::exception_ptr nvcc_missing;
  const jit::Nvcc& need_nvcc() {
    std::call_once(nvcc_once, [&] {
      try {
        nvcc = jit::find_nvcc(options.nvcc);
      } catch (...) {
        nvcc_missing = std::current_exception();
      }
    });
    if (nvcc_missing) std::rethrow_exception(nvcc_missing);
    return nvcc;
  }
  bool precompile_prelude = true;  // GQL_JIT_PCH=0 turns it off
  std::unique_ptr<jit::DiskCache> cache;

  struct Memo {
    std::shared_ptr<const Module::State> state;
    std::vector<jit::FileStamp> files;
  };
  std::mutex memo_mutex;
  std::map<std::string, Memo> memo;  // by spec path (compile_file) or by name + text (compile_source)

  mutable std::mutex log_mutex;  // threads compiling at once report one line at a time
  void log(const std::string& line) const {
    if (options.verbose) say(line);
  }
  // To `log`, else stderr, verbose or not: the front end's warnings (an agg's laws).
  void say(const std::string& line) const {
    std::lock_guard lock(log_mutex);
    if (options.log) options.log(line);
    else std::fprintf(stderr, "gql jit: %s\n", line.c_str());
  }

  // What one compile did, for its report.
  struct Build {
    CudaRoute route;
    std::string compiler_path;  // the host compiler's or nvcc's
    jit::CacheEntry entry, device_entry;
    jit::KernelBuild host_build;
    bool made = false;  // false: the library was already loaded in this process
    double front_seconds = 0, load_seconds = 0, total_seconds = 0;
  };

  // Compiles a file (text == nullptr) or text named `name`; `read` gets the stamps of the files read.
  std::shared_ptr<const Module::State> compile(const std::string& name, const std::string* text,
                                               std::vector<jit::FileStamp>& read);
  // The spec through the front end; throws Error(parse, type or io) with its diagnostics.
  std::unique_ptr<compiler::Compiler> front_end(const std::string& name, const std::string* text,
                                                std::vector<jit::FileStamp>& read) const;
  // GQL_JIT_VERBOSE's lines for one compile.
  void report(const std::string& source_name, const compiler::ir::Module& ir, const Module::State& state,
              const Build& b) const;
  std::shared_ptr<const Module::State> lookup_memo(const std::string& memo_key);
};

std::shared_ptr<const Module::State> Compiler::Impl::lookup_memo(const std::string& memo_key) {
  std::lock_guard lock(memo_mutex);
  auto it = memo.find(memo_key);
  if (it == memo.end()) return nullptr;
  for (jit::FileStamp& f : it->second.files)
    if (!jit::still_matches(f)) return nullptr;
  return it->second.state;
}

std::unique_ptr<compiler::Compiler> Compiler::Impl::front_end(const std::string& name, const std::string* text,
                                                              std::vector<jit::FileStamp>& read) const {
  compiler::Options front_options;
  front_options.include_dirs = options.include_dirs;
  front_options.stdlib_dir = layout.stdlib_dir;
  front_options.target = options.target;
  front_options.distributed = front_options.whole_on_every_rank = options.ranks != nullptr;
  auto front = std::make_unique<compiler::Compiler>(front_options);
  bool ok = false;
  try {
    ok = text ? front->compile_source(name, *text) : front->compile_file(name);
  } catch (const std::bad_alloc&) {
    // A spec the front end runs out of memory on (under a cap) is an error of its own, as gqlc says.
    throw Error(ErrorKind::oom, "out of memory in the front end", {name});
  }
  if (!ok) {
    // Syntax errors in the spec itself are parse errors, a spec that cannot be read an io error;
    // everything else the front end reports (imports, names, types, schedules) is a type error.
    ErrorKind kind = ErrorKind::type;
    if (front->failed_stage() == compiler::Stage::parse) kind = ErrorKind::parse;
    if (front->failed_stage() == compiler::Stage::read) kind = ErrorKind::io;
    throw jit::spec_error(kind, *front, name);
  }
  if (front->diagnostics().warning_count() > 0) {
    std::string warnings = front->rendered_diagnostics();
    while (!warnings.empty() && warnings.back() == '\n') warnings.pop_back();
    say(warnings);
  }
  // Stamped with the text read: a file edited since is seen as changed at the next call.
  for (uint32_t f = text ? 1 : 0; f < front->sources().size(); ++f)
    read.push_back(jit::stamp_file(front->sources().file(f).path, front->sources().file(f).text));
  return front;
}

std::shared_ptr<const Module::State> Compiler::Impl::compile(const std::string& name, const std::string* text,
                                                             std::vector<jit::FileStamp>& read) {
  const auto start = Clock::now();
  const std::unique_ptr<compiler::Compiler> front = front_end(name, text, read);
  const compiler::ir::Module& ir = *front->module();
  Build b;
  b.front_seconds = seconds_since(start);
  const bool cuda = options.target == Target::cuda;

  auto state = std::make_shared<Module::State>();
  compiler::CodegenOptions codegen;
  codegen.source_name = fs::path(name).filename().string();
  codegen.with_main = false;
  state->source = (cuda ? compiler::generate_cuda(ir, codegen) : compiler::generate_openmp(ir, codegen)) +
                  jit::generate_entry_shims(ir);
  state->plan = compiler::plan::print_plan(compiler::plan::plan_module(ir));

  b.route = cuda ? choose_cuda_route(ir, codegen, nvrtc) : CudaRoute{};
  state->source += b.route.binding;
  const bool by_nvrtc = b.route.nvrtc;
  const bool by_nvcc = cuda && !by_nvrtc;
  const jit::Nvcc* const nvcc_tool = by_nvcc ? &need_nvcc() : nullptr;
  const std::vector<std::string>& build_flags = by_nvrtc ? host_cuda_flags : flags;
  b.compiler_path = by_nvcc ? nvcc_tool->path : host.path;

  // Everything but the source: the kernels' keys and their precompiled prelude's key both start so.
  jit::CacheKeyBuilder setup;
  setup.add("target", by_nvcc ? "cuda" : by_nvrtc ? "cuda-host" : "openmp")
      .add("compiler", by_nvcc ? nvcc_tool->identity : host.identity);
  for (const std::string& f : build_flags) setup.add("flag", f);
  // CPU code is built for this CPU (-march=native); nvcc's code for the architecture (its flags name it too).
  if (by_nvcc) setup.add("arch", std::to_string(cuda_arch.arch));
  else setup.add("cpu", jit::host_cpu_identity());
  setup.add("build", jit::build_id(layout));
  if (options.ranks != nullptr) setup.add("over ranks", jit::library_identity(layout.dist_library));
  const jit::CacheKey host_key = jit::CacheKeyBuilder(setup).add("source", state->source).finish();
  jit::CacheKey key = host_key;
#ifdef GQL_JIT_HAVE_NVRTC
  const jit::CacheKey device_key = jit::nvrtc_cache_key(b.route.device_source, b.route.device_kernels, cuda_arch.arch);
  if (by_nvrtc) key = jit::CacheKeyBuilder().add("host", host_key.hex()).add("device", device_key.hex()).finish();
#endif

  const auto load_start = Clock::now();
  state->library = loaded_libraries().get(
      key,
      [&] {
        // NVRTC runs on its own thread while the host compiler builds the host code.
        std::future<jit::CacheEntry> device_build;
#ifdef GQL_JIT_HAVE_NVRTC
        if (by_nvrtc && !b.route.device_kernels.empty())
          device_build = std::async(std::launch::async, [&] {
            return jit::build_nvrtc_products(*cache, device_key, b.route.device_source, codegen.source_name,
                                             b.route.device_kernels, cuda_arch.arch);
          });
#endif
        b.entry = cache->get_or_build(host_key, ".so", [&](const std::string& output) {
          if (by_nvcc)
            jit::build_cuda_shared_object(*nvcc_tool, flags, layout, ir.distributed, state->source, output,
                                          cache->failed_source_path(host_key, ".cu"));
          else
            b.host_build = jit::build_kernel_library(*cache, precompile_prelude ? std::optional(setup) : std::nullopt,
                                                     host, build_flags, compiler::linked_libraries(layout, options.ranks != nullptr),
                                                     state->source, output,
                                                     cache->failed_source_path(host_key, ".cpp"));
        });
        if (device_build.valid()) b.device_entry = device_build.get();
        std::shared_ptr<Library> library = load_library(b.entry.path, ir, options.ranks, options.devices);
#ifdef GQL_JIT_HAVE_NVRTC
        if (by_nvrtc) bind_device_kernels(*library, b.device_entry.path);
#endif
        return std::shared_ptr<const Library>(std::move(library));
      },
      &b.made);
  b.load_seconds = seconds_since(load_start);
  b.total_seconds = seconds_since(start);
  if (options.verbose) report(codegen.source_name, ir, *state, b);
  return state;
}

void Compiler::Impl::report(const std::string& source_name, const compiler::ir::Module& ir, const Module::State& state,
                            const Build& b) const {
  const bool cuda = options.target == Target::cuda, by_nvrtc = b.route.nvrtc, by_nvcc = cuda && !by_nvrtc;
  std::string what = b.made ? std::string(jit::to_string(b.entry.origin)) : "reused (already loaded in this process)";
  if (b.made && b.entry.build_seconds > 0)
    what += " by " + fs::path(b.compiler_path).filename().string() + " in " + format_duration(b.entry.build_seconds) +
            " " + (by_nvcc ? std::string("(no precompiled headers with nvcc)") : jit::describe(b.host_build));
  if (b.made && by_nvrtc && b.route.device_kernels.empty()) {
    what += "; no GPU kernels of its own (its GPU ops, if any, run the runtime library's)";
  } else if (b.made && by_nvrtc) {
    what += "; its " + std::to_string(b.route.device_kernels.size()) + " GPU kernel(s) ";
    if (b.device_entry.build_seconds > 0) what += "built by NVRTC in " + format_duration(b.device_entry.build_seconds);
    else what += jit::to_string(b.device_entry.origin);
  }
  if (cuda) what += " for sm_" + std::to_string(cuda_arch.arch) + " (" + cuda_arch.origin + ")";
  if (b.made && b.entry.build_seconds > 0 && by_nvcc && !b.route.nvcc_reason.empty())
    what += "; nvcc because " + b.route.nvcc_reason;
  log(source_name + ": " + std::to_string(ir.kernels.size()) + " kernel(s) " + what + "; front end " +
      format_duration(b.front_seconds) + ", ready after " + format_duration(b.total_seconds) + " (load " +
      format_duration(b.load_seconds) + ")\n  entry " + state.library->path +
      (by_nvrtc && !b.device_entry.path.empty() ? "\n  GPU kernels " + b.device_entry.path : std::string()));
  if (!state.plan.empty()) log("plan of " + source_name + ":\n" + state.plan);
}

Compiler::Compiler(CompilerOptions options) : impl_(std::make_unique<Impl>()) {
  Impl& s = *impl_;
  s.options = std::move(options);
  if (env_flag("GQL_JIT_VERBOSE")) s.options.verbose = true;
  s.layout = compiler::runtime_layout(s.options.root, s.options.package_root);
  s.options.root = s.layout.root;
  const bool cuda = s.options.target == Target::cuda;
  if (cuda && s.options.ranks != nullptr && s.options.devices == nullptr)
    throw Error(ErrorKind::usage, "CompilerOptions::ranks: CUDA kernels over MPI ranks need their GPUs too "
                                  "(CompilerOptions::devices, a gql::dist::DeviceWorld made from the ranks' World)");
  if (s.options.devices != nullptr && (!cuda || s.options.ranks == nullptr))
    throw Error(ErrorKind::usage, "CompilerOptions::devices: the ranks' GPUs serve gql::Target::cuda over "
                                  "CompilerOptions::ranks (the World the DeviceWorld was made from)");
  if (s.options.ranks != nullptr && !s.layout.have_mpi)
    throw Error(ErrorKind::usage, "CompilerOptions::ranks needs a gql built with MPI; this one (" +
                                      s.layout.runtime_library + ") was built without it");
  if (s.options.cache_dir.empty()) s.options.cache_dir = jit::default_cache_dir();
  if (s.options.cache_max_bytes == 0) s.options.cache_max_bytes = jit::default_cache_max_bytes();
  s.cache = std::make_unique<jit::DiskCache>(s.options.cache_dir, s.options.cache_max_bytes);
  if (!s.cache->unwritable_reason().empty())
    s.log("the cache folder cannot be written (" + s.cache->unwritable_reason() +
          "): its entries are used, and kernels it lacks are built in " + s.cache->private_folder() +
          ", removed with this Compiler");
  if (s.options.target == Target::cuda) {
    if (!s.layout.have_cuda)
      throw Error(ErrorKind::usage, "gql::Target::cuda needs a gql built with the CUDA toolkit; this one (" +
                                        s.layout.runtime_library + ") was built without it");
    s.cuda_arch = jit::target_cuda_arch(s.options.cuda_arch, s.cache->root());
    s.flags = jit::cuda_shared_object_flags(s.layout, s.cuda_arch.arch, s.options.nvcc_flags);
#ifdef GQL_JIT_HAVE_NVRTC
    s.nvrtc = !(std::getenv("GQL_JIT_NVRTC") && std::string(std::getenv("GQL_JIT_NVRTC")) == "0");
    if (s.nvrtc) {
      s.host = jit::find_host_compiler(s.options.cxx);
      s.host_cuda_flags = jit::shared_object_flags(s.host, s.layout, s.options.cxx_flags);
      for (const std::string& dir : s.layout.cuda_include_dirs) s.host_cuda_flags.push_back("-I" + dir);
    }
#endif
    if (!s.nvrtc) (void)s.need_nvcc();  // nvcc builds every CUDA spec: say now when there is none
  } else {
    s.host = jit::find_host_compiler(s.options.cxx);
    s.flags = jit::shared_object_flags(s.host, s.layout, s.options.cxx_flags);
  }
  if (const char* pch = std::getenv("GQL_JIT_PCH"); pch && std::string(pch) == "0") s.precompile_prelude = false;
}

Compiler::~Compiler() = default;

const CompilerOptions& Compiler::options() const noexcept { return impl_->options; }

Module Compiler::compile_file(const std::string& path) const {
  // Keyed by the path as given (no canonicalization: a hot lookup stays a few system calls); other
  // spellings of the same file get their own memo entry and share the loaded library.
  const std::string memo_key = "file:" + path;
  if (auto state = impl_->lookup_memo(memo_key)) return Module(std::move(state));
  std::vector<jit::FileStamp> read;
  auto state = impl_->compile(path, nullptr, read);
  std::lock_guard lock(impl_->memo_mutex);
  impl_->memo[memo_key] = Impl::Memo{state, std::move(read)};
  return Module(std::move(state));
}

Module Compiler::compile_source(const std::string& text, const std::string& name) const {
  const std::string memo_key = "text:" + name + "\n" + text;
  if (auto state = impl_->lookup_memo(memo_key)) return Module(std::move(state));
  std::vector<jit::FileStamp> read;
  auto state = impl_->compile(name, &text, read);
  std::lock_guard lock(impl_->memo_mutex);
  impl_->memo[memo_key] = Impl::Memo{state, std::move(read)};
  return Module(std::move(state));
}

Kernel Module::kernel(const std::string& name) const {
  const Library& lib = *state_->library;
  for (size_t n = 0; n < lib.signatures.size(); ++n)
    if (lib.signatures[n].name == name) return Kernel(state_->library, &lib.signatures[n], lib.entries[n]);
  std::string names;
  for (const auto& s : lib.signatures) names += (names.empty() ? "" : ", ") + s.name;
  throw Error(ErrorKind::usage, "the module has no kernel '" + name + "' (it has: " + names + ")");
}

std::vector<std::string> Module::kernel_names() const {
  std::vector<std::string> names;
  for (const auto& s : state_->library->signatures) names.push_back(s.name);
  return names;
}

const std::string& Module::plan() const noexcept { return state_->plan; }
const std::string& Module::source() const noexcept { return state_->source; }

}  // namespace gql
