// Where a CPU benchmark runs: the processor, the cores and threads, and how loaded the machine was
// (a shared machine's load average says how much of it the run had). Stamped on every CPU record.
#pragma once

#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include <omp.h>

#include "bench_record.hpp"

namespace gql::bench {

inline std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown CPU";
}

inline RunContext host_context() {
  return {cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) + " cores", utc_now(),
          env_or("GQL_BENCH_COMMIT", "unknown")};
}

// Machine, date, commit, threads and the 1-minute load average at the time of the record.
inline Record& stamp_host(Record& record, const RunContext& context) {
  double load[1] = {-1};
  if (getloadavg(load, 1) != 1) load[0] = -1;
  return stamp(record, context).integer("threads", omp_get_max_threads()).number("load_avg_1m", load[0]);
}

}  // namespace gql::bench
