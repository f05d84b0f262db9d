// What every generated kernel receives besides its arguments: work counters for --stats and a
// place to say which plan each operation chose (--explain, GQL_JIT_VERBOSE).
#pragma once

#include <cstdint>
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

 private:
  bool explain_;
  WorkCounts work_;
  std::vector<std::string> plan_;
};

}  // namespace gql
