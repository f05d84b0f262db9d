// What every generated kernel receives besides its arguments: work counters for --stats and a
// place to say which plan each operation chose (--explain, GQL_JIT_VERBOSE).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

namespace gql {

// What a kernel did, for --stats: the rates are derived from these counts and the time.
struct WorkCounts {
  int64_t products = 0;  // scalar con applications (the SpGEMM community's measure)
  int64_t edges = 0;     // edges traversed (traversals)
  int64_t searched_edges = 0;  // BFS: the searched component's input edges, Graph500's count for TEPS
  int64_t updates = 0;   // dense semiring updates (closures, LU)
};

// Passed to every generated kernel: the counters it fills and, with --explain, where it says
// which plan it chose per operation.
class KernelContext {
 public:
  explicit KernelContext(bool explain = false) : explain_(explain) {}
  WorkCounts& work() noexcept { return work_; }
  const WorkCounts& work() const noexcept { return work_; }
  bool explaining() const noexcept { return explain_; }
  // Records the plan operation `op` (its label) chose: one line per op, printed after the run when
  // --explain is given. An op called again (in a loop) replaces its line with the last call's and
  // says how many calls there were.
  void explain(const std::string& op, const std::string& what) {
    if (!explain_) return;
    auto [it, first] = explained_.try_emplace(op, Explained{plan_.size(), 0});
    if (first) plan_.emplace_back();
    const int64_t calls = ++it->second.calls;
    plan_[it->second.line] = op + ": " + what + (calls > 1 ? " (the last of " + std::to_string(calls) + " calls)" : "");
  }
  std::span<const std::string> plan() const noexcept { return plan_; }

  // State an operation keeps across the iterations of its loop (e.g. a traversal's direction), made
  // on first use from `args` and owned by the context. `key` names the op (its label, which the code
  // generator makes unique within a kernel); a key never yields state of another type. What is derived
  // from a value (its transpose, its device copy) belongs to the value instead (gql/derived.hpp).
  template <class State, class... Args>
  State& op_state(const std::string& key, Args&&... args) {
    auto& slot = op_state_[key + '\0' + typeid(State).name()];
    if (!slot) slot = std::make_shared<State>(std::forward<Args>(args)...);
    return *std::static_pointer_cast<State>(slot);
  }

  // GPU kernels: the caller's cudaStream_t that every device operation of the call runs on (null:
  // each operation uses a stream of its own). Kept as void* so that host-only code needs no CUDA.
  void* gpu_stream() const noexcept { return gpu_stream_; }
  void set_gpu_stream(void* stream) noexcept { gpu_stream_ = stream; }

  // GPU kernels whose result the caller takes on the device (the entry hands it over from there).
  bool result_on_device() const noexcept { return result_on_device_; }
  void set_result_on_device(bool on_device) noexcept { result_on_device_ = on_device; }

  // GPU kernels whose caller passes device containers: bit n set when argument n is one (the kernel
  // reads it there; gql/device/placement.hpp).
  bool argument_on_device(int n) const noexcept { return n < 64 && (device_arguments_ >> n & 1u) != 0; }
  void set_device_arguments(uint64_t mask) noexcept { device_arguments_ = mask; }

 private:
  std::map<std::string, std::shared_ptr<void>> op_state_;
  void* gpu_stream_ = nullptr;
  bool result_on_device_ = false;
  uint64_t device_arguments_ = 0;
  bool explain_;
  WorkCounts work_;
  struct Explained {
    size_t line;    // its index in plan_
    int64_t calls;
  };
  std::map<std::string, Explained> explained_;  // by op label
  std::vector<std::string> plan_;
};

}  // namespace gql
