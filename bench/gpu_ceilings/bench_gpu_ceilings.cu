// The GPU's ceilings for the benchmarks' figures, measured in the same run:
//   device-to-device copy      cudaMemcpyAsync of a 2 GiB buffer; GB/s counts bytes read + written
//   min-plus fp32              acc = fminf(acc, a + b) on registers only: updates/s (add + min each)
//   min-plus int32 DPX         acc = __viaddmin_s32(a, b, acc): one instruction per update on sm_90
// Each: one warm-up, then repeats timed with CUDA events; records go to --json FILE (workload "ceiling").
//
//   bench_gpu_ceilings [--repeats 10] [--copy-mib 2048] [--iterations 262144] [--json FILE]
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "bench_record.hpp"

namespace {

using namespace gql::bench;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

constexpr int kAccumulators = 8;  // independent chains per thread: enough to hide each op's latency

struct MinPlusF32 {
  using T = float;
  static __device__ T update(T a, T b, T acc) { return fminf(acc, a + b); }
};

struct MinPlusI32Dpx {
  using T = int;
  static __device__ T update(T a, T b, T acc) { return __viaddmin_s32(a, b, acc); }  // min(a + b, acc)
};

// Every thread runs kAccumulators independent min-plus chains in registers; b falls by one per
// iteration so that no update repeats a previous one (nothing for the compiler to fold).
template <class Op>
__global__ void min_plus_loop(typename Op::T* out, int iterations, typename Op::T sentinel) {
  using T = typename Op::T;
  const int tid = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  T a[kAccumulators], acc[kAccumulators];
#pragma unroll
  for (int k = 0; k < kAccumulators; ++k) {
    a[k] = static_cast<T>((tid * 7 + k * 13) & 1023);
    acc[k] = static_cast<T>(1 << 20);
  }
  T b = static_cast<T>(tid & 255);
  for (int it = 0; it < iterations; ++it) {
#pragma unroll
    for (int k = 0; k < kAccumulators; ++k) acc[k] = Op::update(a[k], b, acc[k]);
    b = b - static_cast<T>(1);
  }
  T result = acc[0];
#pragma unroll
  for (int k = 1; k < kAccumulators; ++k) result = result < acc[k] ? result : acc[k];
  if (result == sentinel) out[tid] = result;  // never true: keeps the loop's result alive
}

class Events {
 public:
  Events() {
    check(cudaEventCreate(&start_), "cudaEventCreate");
    check(cudaEventCreate(&stop_), "cudaEventCreate");
  }
  ~Events() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  Events(const Events&) = delete;
  Events& operator=(const Events&) = delete;
  template <class F>
  TimeSummary time(int repeats, F&& launch) {
    launch();  // warm-up
    check(cudaDeviceSynchronize(), "warm-up");
    std::vector<double> seconds;
    for (int r = 0; r < repeats; ++r) {
      check(cudaEventRecord(start_), "cudaEventRecord");
      launch();
      check(cudaEventRecord(stop_), "cudaEventRecord");
      check(cudaEventSynchronize(stop_), "cudaEventSynchronize");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
      seconds.push_back(ms * 1e-3);
    }
    return summarize(seconds);
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

template <class Op>
TimeSummary time_loop(Events& events, int repeats, int blocks, int threads, int iterations) {
  typename Op::T* out = nullptr;
  check(cudaMalloc(&out, sizeof(typename Op::T) * static_cast<size_t>(blocks) * threads), "cudaMalloc");
  const TimeSummary t = events.time(repeats, [&] {
    min_plus_loop<Op><<<blocks, threads>>>(out, iterations, static_cast<typename Op::T>(-7));
    check(cudaGetLastError(), "min_plus_loop launch");
  });
  check(cudaFree(out), "cudaFree");
  return t;
}

}  // namespace

int main(int argc, char** argv) try {
  Args args(argc, argv, "usage: bench_gpu_ceilings [--repeats 10] [--copy-mib 2048] [--iterations 262144] [--json FILE]");
  const int repeats = static_cast<int>(args.integer("repeats", 10));
  const auto copy_bytes = static_cast<size_t>(args.integer("copy-mib", 2048)) << 20;
  const int iterations = static_cast<int>(args.integer("iterations", 262144));
  JsonLines out(args.text("json", ""));
  args.check_all_used();

  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const RunContext context{std::string(prop.name) + ", " + std::to_string(std::thread::hardware_concurrency()) + " host cores",
                           utc_now(), env_or("GQL_BENCH_COMMIT", "unknown")};
  Events events;

  {
    void* src = nullptr;
    void* dst = nullptr;
    check(cudaMalloc(&src, copy_bytes), "cudaMalloc");
    check(cudaMalloc(&dst, copy_bytes), "cudaMalloc");
    check(cudaMemset(src, 1, copy_bytes), "cudaMemset");
    const TimeSummary t = events.time(repeats, [&] { check(cudaMemcpyAsync(dst, src, copy_bytes, cudaMemcpyDeviceToDevice), "copy"); });
    check(cudaFree(src), "cudaFree");
    check(cudaFree(dst), "cudaFree");
    Record r;
    r.text("workload", "ceiling").text("graph", "-").text("variant", "device-to-device copy (" + std::to_string(copy_bytes >> 20) + " MiB)")
        .text("status", "ok").times(t).number("bytes", 2.0 * static_cast<double>(copy_bytes))
        .number("gb_per_s", 2.0 * static_cast<double>(copy_bytes) / t.median * 1e-9);
    out.write(stamp(r, context));
  }

  const int threads = 256;
  const int blocks = prop.multiProcessorCount * 8;  // enough resident warps on every SM
  const double updates = static_cast<double>(blocks) * threads * kAccumulators * static_cast<double>(iterations);
  const auto loop_record = [&](const char* variant, const TimeSummary& t) {
    Record r;
    r.text("workload", "ceiling").text("graph", "-").text("variant", variant).text("status", "ok").times(t)
        .number("updates", updates).number("updates_per_s", updates / t.median)
        .text("detail", std::to_string(blocks) + " blocks x " + std::to_string(threads) + " threads x " +
                            std::to_string(kAccumulators) + " chains x " + std::to_string(iterations) + " iterations");
    out.write(stamp(r, context));
  };
  loop_record("register min-plus fp32 (fminf(acc, a + b))", time_loop<MinPlusF32>(events, repeats, blocks, threads, iterations));
  loop_record("register min-plus int32 DPX (__viaddmin_s32)",
              time_loop<MinPlusI32Dpx>(events, repeats, blocks, threads, iterations));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_gpu_ceilings: %s\n", e.what());
  return 1;
}
