// Timing of one variant: warm-up runs (not recorded), then repeats summarized as min/median/max,
// with the process's peak resident memory over those runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "bench_record.hpp"

namespace gql::bench {

struct Repeat {
  int warmup = 1;
  int repeats = 3;
};

// Resets the kernel's record of this process's peak resident set (Linux: clear_refs 5), so that the
// next read of peak_rss_bytes() covers only what ran in between (plus what was already resident).
inline void reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
}

// VmHWM of /proc/self/status in bytes (0 where it cannot be read).
inline int64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // the file says kB
  return 0;
}

struct Measurement {
  TimeSummary time;
  int64_t peak_rss = 0;
};

// Runs `run` warmup + repeats times; `run` does the whole measured work (and keeps its result alive
// outside if the caller needs it).
template <class F>
Measurement measure(const Repeat& r, F&& run) {
  reset_peak_rss();
  for (int k = 0; k < r.warmup; ++k) run();
  std::vector<double> seconds;
  for (int k = 0; k < r.repeats; ++k) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return {summarize(std::move(seconds)), peak_rss_bytes()};
}

inline Record& measured(Record& record, const Measurement& m) {
  return record.times(m.time).integer("peak_rss_bytes", m.peak_rss);
}

}  // namespace gql::bench
