// What every generated kernel receives besides its arguments: work counters for --stats and a
// place to say which plan each operation chose (--explain, GQL_JIT_VERBOSE).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace gql {

// What a kernel did, for --stats: the rates are derived from these counts and the time.
struct WorkCounts {
  int64_t products = 0;  // scalar con applications (the SpGEMM community's measure)
  int64_t edges = 0;     // edges traversed (traversals)
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
  // Records one line of the plan chosen (printed after the run when --explain is given).
  void explain(std::string line) {
    if (explain_) plan_.push_back(std::move(line));
  }
  std::span<const std::string> plan() const noexcept { return plan_; }

  // State an operation keeps across the iterations of its loop (e.g. a traversal's direction and
  // its graph's transpose), made on first use from `args` and owned by the context.
  template <class State, class... Args>
  State& op_state(const std::string& key, Args&&... args) {
    auto& slot = op_state_[key];
    if (!slot) slot = std::make_shared<State>(std::forward<Args>(args)...);
    return *std::static_pointer_cast<State>(slot);
  }

 private:
  std::map<std::string, std::shared_ptr<void>> op_state_;
  bool explain_;
  WorkCounts work_;
  std::vector<std::string> plan_;
};

}  // namespace gql
