// Just-in-time kernels from C++ host programs: load a .gql spec at run time, get its kernels
// compiled for this machine (through one on-disk cache, so a second run compiles nothing) and call
// them like functions.
//
//   gql::Compiler compiler({.target = gql::Target::openmp});
//   gql::Module m = compiler.compile_file("fof.gql");
//   auto fof = m.kernel("fof").bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
//   gql::Csr<uint64_t> C = fof(G);
//
// Target::openmp builds the kernels with the host compiler; Target::cuda builds the host code with
// it and the GPU kernels with NVRTC (nvcc for the ops NVRTC does not build yet), and the GPU ops run
// on the device the CUDA runtime selects.
//
// A CUDA kernel's result can be taken on the device, and its arguments passed from there: bind it
// with the device twins of the types (gql::DeviceCsr, DeviceMatrix, DeviceVector from
// gql/device.hpp), e.g. bind<gql::DeviceCsr<uint64_t>(const gql::DeviceCsr<bool>&)>(). Device
// arguments go straight into the kernel's device ops, and a result the device made is returned
// without a copy (gql/device/resident.hpp says where each op reads its values). async() and async_on(stream) run a
// call on another thread and return a std::future at once; on a stream, every device operation of
// the call is issued on that stream, and calls on one stream run in the order they were made.
//
// Errors are gql::Error: parse or type with the spec's rendered diagnostics, usage for a signature
// that does not match the kernel's, jit when the generated code cannot be built or loaded, cuda
// when a CUDA kernel is called on a machine without a GPU.
// The spec's warnings (a user-written agg that is not associative, commutative or has no identity)
// go to Options::log, else stderr, whenever a spec is compiled.
// GQL_JIT_VERBOSE=1 (or Options::verbose) reports what was compiled or reused, how long it took,
// and the plan of every operation.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/error.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"
#include "gql/target.hpp"

struct CUstream_st;  // cudaStream_t is CUstream_st*; declared so that host programs need no CUDA headers

namespace gql {

// The MPI ranks of a run and their GPUs (gql/dist/world.hpp, gql/dist/device_world.hpp: the library
// gql::dist).
namespace dist {
class World;
class DeviceWorld;
}

// The device containers of gql/device.hpp, as kernel arguments and results.
template <class T> class DeviceCsr;
template <class T> class DeviceMatrix;
template <class T> class DeviceVector;

struct CompilerOptions {
  // Every member has an initializer, so designated initializers may name any subset warning-free.
  std::vector<std::string> include_dirs{};  // searched for imports after the importing file's folder
  Target target = Target::openmp;
  std::string cache_dir{};                // empty: $GQL_CACHE_DIR, else $XDG_CACHE_HOME/gql, else ~/.cache/gql
  bool verbose = false;                   // report to `log`; $GQL_JIT_VERBOSE=1 turns it on too
  std::function<void(const std::string&)> log{};  // where warnings and verbose lines go (one call at a time); empty: stderr
  std::string cxx{};                      // CPU: empty: $GQL_CXX, else clang++ when present, else g++
  std::vector<std::string> cxx_flags{};   // CPU: added to the host compiler's command line
  std::string nvcc{};                     // CUDA: empty: $GQL_NVCC, $CUDA_HOME/bin/nvcc, /usr/local/cuda/bin/nvcc, PATH
  std::vector<std::string> nvcc_flags{};  // CUDA: added to nvcc's command line
  // CUDA: the architecture (90 = sm_90) to compile for when this machine has no GPU (with one, the
  // device's is taken); 0: $GQL_CUDA_ARCH, else 90.
  int cuda_arch = 0;
  uint64_t cache_max_bytes = 0;           // 0: $GQL_CACHE_MAX_BYTES, else 2 GiB; least recently used go first
  // The kernels run over these MPI ranks, as a program built with `gqlc --mpi` runs (its
  // distributed ops divide their work among the ranks): every rank compiles the same spec (one
  // process builds, the others wait for it) and calls each kernel in the same order with the same
  // whole arguments, and every rank gets the whole result. The World must outlive the kernels' calls.
  // Null: one process.
  const dist::World* ranks = nullptr;
  // CUDA over `ranks`: their GPUs, the DeviceWorld made from that World (before any other CUDA call
  // of the process), as a `gqlc --target cuda --mpi` program runs; such a spec is built by nvcc. It
  // must outlive the kernels' calls too.
  const dist::DeviceWorld* devices = nullptr;
  // The gql installation whose headers and stdlib kernels are built with; empty: $GQL_ROOT, else
  // `package_root`, else the build tree this library came from. A Compiler's options() hold the one
  // it took (empty for the build tree).
  std::string root{};
  // The installation find_package(gql) found: its CMake package defines GQL_PACKAGE_ROOT.
#ifdef GQL_PACKAGE_ROOT
  std::string package_root = GQL_PACKAGE_ROOT;
#else
  std::string package_root{};
#endif
};

// A kernel's parameters and result as the language spells them: "graph<bool>", "vertex", "u64",
// "(matrix<f32>, vector<i32>)".
struct KernelSignature {
  std::string name;
  std::vector<std::string> parameter_names;
  std::vector<std::string> parameter_types;
  std::string result_type;
  Target target = Target::openmp;  // what the kernel was compiled for
  // "fof(G: graph<bool>) -> graph<u64>"
  std::string to_string() const;
};

namespace jit_detail {

struct Library;  // a loaded shared object (CPU) or module (CUDA); kept alive by every handle into it

// The type-erased entry of a kernel: args[i] points to the i-th argument, `result` to a
// default-constructed result that the kernel move-assigns. Returns null or the exception thrown.
using Entry = void (*)(const void* const* args, void* result, KernelContext* context, std::exception_ptr* error);

template <class T> struct dependent_false : std::false_type {};

template <class T>
constexpr const char* scalar_name() {
  if constexpr (std::is_same_v<T, bool>) return "bool";
  else if constexpr (std::is_same_v<T, int8_t>) return "i8";
  else if constexpr (std::is_same_v<T, int16_t>) return "i16";
  else if constexpr (std::is_same_v<T, int32_t>) return "i32";
  else if constexpr (std::is_same_v<T, int64_t>) return "i64";
  else if constexpr (std::is_same_v<T, uint8_t>) return "u8";
  else if constexpr (std::is_same_v<T, uint16_t>) return "u16";
  else if constexpr (std::is_same_v<T, uint32_t>) return "u32";
  else if constexpr (std::is_same_v<T, uint64_t>) return "u64";
  else if constexpr (std::is_same_v<T, float>) return "f32";
  else if constexpr (std::is_same_v<T, double>) return "f64";
  else static_assert(dependent_false<T>::value, "not an element type of the gql language");
}

// The language's name of a C++ argument or result type (references and const removed).
template <class T> struct type_name {
  static std::string get() { return scalar_name<T>(); }
};
template <class T> struct type_name<Csr<T>> {
  static std::string get() { return std::string("graph<") + scalar_name<T>() + ">"; }
};
template <class T> struct type_name<Matrix<T>> {
  static std::string get() { return std::string("matrix<") + scalar_name<T>() + ">"; }
};
template <class T> struct type_name<Vector<T>> {
  static std::string get() { return std::string("vector<") + scalar_name<T>() + ">"; }
};
template <class T> struct type_name<DeviceCsr<T>> : type_name<Csr<T>> {};
template <class T> struct type_name<DeviceMatrix<T>> : type_name<Matrix<T>> {};
template <class T> struct type_name<DeviceVector<T>> : type_name<Vector<T>> {};
template <class... T> struct type_name<std::tuple<T...>> {
  static std::string get() {
    std::string out = "(";
    ((out += (out.size() > 1 ? ", " : "") + type_name<T>::get()), ...);
    return out + ")";
  }
};
template <class T> std::string name_of() { return type_name<std::remove_cvref_t<T>>::get(); }

// Where a type holds its containers: 1 on the device, 0 on the host, -1 neither (a scalar).
template <class T> struct placement : std::integral_constant<int, -1> {};
template <class T> struct placement<Csr<T>> : std::integral_constant<int, 0> {};
template <class T> struct placement<Matrix<T>> : std::integral_constant<int, 0> {};
template <class T> struct placement<Vector<T>> : std::integral_constant<int, 0> {};
template <class T> struct placement<DeviceCsr<T>> : std::integral_constant<int, 1> {};
template <class T> struct placement<DeviceMatrix<T>> : std::integral_constant<int, 1> {};
template <class T> struct placement<DeviceVector<T>> : std::integral_constant<int, 1> {};
template <class... T> struct placement<std::tuple<T...>> {
  static constexpr bool any_host = ((placement<T>::value == 0) || ...);
  static constexpr bool any_device = ((placement<T>::value == 1) || ...);
  static_assert(!(any_host && any_device), "a tuple result is taken on the host or on the device as a whole");
  static constexpr int value = any_device ? 1 : any_host ? 0 : -1;
};
template <class R> constexpr bool result_on_device = placement<R>::value == 1;
// Bit n set when argument n is a device container.
template <class... Args>
constexpr uint64_t device_arguments() {
  uint64_t mask = 0, bit = 1;
  ((mask |= placement<std::remove_cvref_t<Args>>::value == 1 ? bit : 0, bit <<= 1), ...);
  return mask;
}

// Throws Error(usage) unless arguments or a result in device memory are a CUDA kernel's.
void check_placement(const KernelSignature& kernel, bool result_on_device, uint64_t device_arguments);

// Runs `call` on a worker thread for `queue` (a stream, or null for calls without one): calls on
// one queue run one at a time in the order they were made, different queues at once. A queue's
// thread lasts while it has calls.
void run_in_order(const void* queue, std::function<void()> call);

// Throws Error(usage) naming both signatures unless the requested types are the kernel's (a
// `vertex` parameter is passed as an int32_t, gql::index_t).
void check_signature(const KernelSignature& kernel, const std::vector<std::string>& parameter_types,
                     const std::string& result_type);

// Empties the process-wide table of loaded kernel libraries, so that the next compile looks in the
// disk cache as a new process would (tests and benchmarks). Handles already given out stay valid.
void forget_loaded_libraries();

}  // namespace jit_detail

template <class Signature> class BoundKernel;

// A typed kernel: call it like the function it was bound as.
template <class R, class... Args>
class BoundKernel<R(Args...)> {
 public:
  R operator()(Args... args) const {
    KernelContext context;
    return run(context, std::forward<Args>(args)...);
  }
  // With a context of one's own: its work counts, and its plan lines when it explains.
  R run(KernelContext& context, Args... args) const {
    context.set_result_on_device(jit_detail::result_on_device<R>);
    context.set_device_arguments(jit_detail::device_arguments<Args...>());
    const void* pointers[sizeof...(Args) + 1] = {static_cast<const void*>(&args)...};
    R result{};
    std::exception_ptr error;
    entry_(pointers, &result, &context, &error);
    if (error) std::rethrow_exception(error);
    return result;
  }
  // Runs the call on another thread and returns at once; the future holds the result or the error.
  // The arguments are used where they are (not copied): keep them alive and unchanged until the
  // future is ready, and wait for it before the program ends.
  std::future<R> async(Args... args) const { return async_on(nullptr, std::forward<Args>(args)...); }
  // As async(), with every device operation of the call on `stream` (a cudaStream_t; CUDA kernels):
  // its work follows what was issued on the stream before, and calls on one stream run in order.
  // A result taken on the device is complete when the future is ready.
  std::future<R> async_on(CUstream_st* stream, Args... args) const {
    if (stream != nullptr && signature_->target != Target::cuda)
      throw Error(ErrorKind::usage, "kernel '" + signature_->name + "' runs on the CPU: a stream is for CUDA kernels",
                  {signature_->name});
    auto call = std::make_shared<std::packaged_task<R()>>(
        [self = *this, stream, held = std::tuple<Args...>(std::forward<Args>(args)...)]() mutable {
          KernelContext context;
          context.set_gpu_stream(stream);
          return std::apply([&](auto&&... a) { return self.run(context, std::forward<decltype(a)>(a)...); }, held);
        });
    std::future<R> result = call->get_future();
    jit_detail::run_in_order(stream, [call] { (*call)(); });
    return result;
  }
  const KernelSignature& signature() const noexcept { return *signature_; }

 private:
  friend class Kernel;
  BoundKernel(std::shared_ptr<const jit_detail::Library> library, const KernelSignature* signature,
              jit_detail::Entry entry)
      : library_(std::move(library)), signature_(signature), entry_(entry) {}

  std::shared_ptr<const jit_detail::Library> library_;
  const KernelSignature* signature_;
  jit_detail::Entry entry_;
};

// One kernel of a compiled module; bind it to a C++ signature to call it.
class Kernel {
 public:
  const KernelSignature& signature() const noexcept { return *signature_; }
  const std::string& name() const noexcept { return signature_->name; }

  // Throws Error(usage) when Signature is not the kernel's, naming both.
  template <class Signature>
  BoundKernel<Signature> bind() const {
    return bind_as(static_cast<Signature*>(nullptr));
  }

 private:
  friend class Module;
  Kernel(std::shared_ptr<const jit_detail::Library> library, const KernelSignature* signature, jit_detail::Entry entry)
      : library_(std::move(library)), signature_(signature), entry_(entry) {}

  template <class R, class... Args>
  BoundKernel<R(Args...)> bind_as(R (*)(Args...)) const {
    jit_detail::check_signature(*signature_, {jit_detail::name_of<Args>()...}, jit_detail::name_of<R>());
    static_assert(sizeof...(Args) <= 64, "a kernel takes at most 64 arguments");
    jit_detail::check_placement(*signature_, jit_detail::result_on_device<R>, jit_detail::device_arguments<Args...>());
    return BoundKernel<R(Args...)>(library_, signature_, entry_);
  }

  std::shared_ptr<const jit_detail::Library> library_;
  const KernelSignature* signature_;
  jit_detail::Entry entry_;
};

// The kernels of one spec, compiled and loaded. Cheap to copy; the code stays loaded while any
// Module, Kernel or BoundKernel into it lives.
class Module {
 public:
  // Throws Error(usage) listing the module's kernels when there is no kernel `name`.
  Kernel kernel(const std::string& name) const;
  std::vector<std::string> kernel_names() const;
  // The plan chosen for every operation (what GQL_JIT_VERBOSE prints).
  const std::string& plan() const noexcept;
  // The generated source that was compiled (or found in the cache).
  const std::string& source() const noexcept;

 private:
  friend class Compiler;
  struct State;
  explicit Module(std::shared_ptr<const State> state) : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;
};

// Compiles specs into loaded modules. Thread-safe: threads asking for the same kernels at once
// share one compilation; processes share the on-disk cache, and one compiles while the others wait.
class Compiler {
 public:
  explicit Compiler(CompilerOptions options = {});
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  // Throws Error(parse or type) with the rendered diagnostics when the spec has errors.
  Module compile_file(const std::string& path) const;
  // `text` is a spec named `name` in diagnostics; imports are searched from the working folder.
  Module compile_source(const std::string& text, const std::string& name = "<source>") const;

  const CompilerOptions& options() const noexcept;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gql
