// Where a GPU benchmark runs: the device, its multiprocessors and the host's threads. Stamped on
// every GPU record.
#pragma once

#include <string>
#include <thread>

#include "bench_record.hpp"
#include "gql/device.hpp"

namespace gql::bench {

inline std::string gpu_machine() {
  cudaDeviceProp props{};
  int device = 0;
  GQL_CUDA_CHECK(cudaGetDevice(&device));
  GQL_CUDA_CHECK(cudaGetDeviceProperties(&props, device));
  return std::string(props.name) + ", " + std::to_string(props.multiProcessorCount) + " SMs, " +
         std::to_string(std::thread::hardware_concurrency()) + " host threads";
}

inline RunContext gpu_context() { return {gpu_machine(), utc_now(), env_or("GQL_BENCH_COMMIT", "unknown")}; }

}  // namespace gql::bench
