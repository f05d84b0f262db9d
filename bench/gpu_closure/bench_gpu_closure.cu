// GPU closures and LU on one device, in one run: Floyd-Warshall (min_plus) with the register-tiled
// design (fp32 and int32 with DPX, each with thread tiles 8x8 and 8x16 and k-blocks 128 and 256;
// int32 also without DPX; fp32 at the large sizes with 8x8 and k-blocks 128 and 256), the seed's
// shared-memory design (64 x 64 tiles, 4 entries per thread) and global-memory design, the
// global-memory kernel with predecessors (paths), out of core with the budget capped to a quarter
// of the matrix against in core (both from pinned host memory), and LU fp64 against cuSOLVER dgetrf
// with both residuals. Rates: updates = n^3 per closure; LU flops = 2 n^3 / 3. Variant names carry
// the GEMM's build-time tuning (GQL_CLOSURE_GEMM_CHUNK, _UNROLL and _STAGE_IN).
//
//   bench_gpu_closure [--json FILE] [--sizes 8192,16384] [--large 32768] [--lu 16384,32768]
//                     [--lu-panels 256,128] [--ooc 32768] [--paths 8192] [--designs register|all]
//   (an empty list skips that part)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <cusolverDn.h>

#include "../../test/gpu/test_closure_semirings.hpp"
#include "../gpu_spgemm/bench_record.hpp"
#include "random_graph.cuh"
#include "gql/device.hpp"
#include "gql/device/closure/closure.hpp"
#include "gql/device/dense/lu.hpp"
#include "gql/device/dense/lu_residual.hpp"

namespace {

using namespace gql;
using closure_semirings::MinPlus;
using closure_semirings::MinPlusDpx;
using closure_bench::random_graph;

template <class T>
__global__ void random_dense(T* d, long long count) {
  const long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (e >= count) return;
  unsigned long long h = static_cast<unsigned long long>(e) * 0x9e3779b97f4a7c15ull + 12345;
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  d[e] = static_cast<T>(static_cast<double>(h % 2000001) / 1000000.0 - 1.0);
}

unsigned blocks_for(long long count) { return static_cast<unsigned>((count + 255) / 256); }

std::vector<long long> parse_sizes(const char* text) {
  std::vector<long long> out;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long long v = std::strtoll(p, &end, 10);
    if (end == p) break;
    if (v > 0) out.push_back(v);
    p = *end == ',' ? end + 1 : end;
  }
  return out;
}

struct Bench {
  bench::JsonLines& out;
  bench::RunContext context;

  void record(const std::string& workload, const std::string& variant, long long n, const bench::TimeSummary& t,
              double work, const std::string& unit, const std::string& note = "") {
    bench::Record r;
    r.text("workload", workload).text("variant", variant).integer("n", n).times(t);
    r.number(unit, work / t.median);
    if (!note.empty()) r.text("note", note);
    bench::stamp(r, context);
    out.write(r);
  }
};

template <class Run>
bench::TimeSummary time_it(int repeats, Run run) {
  Stream stream;
  Event start, stop;
  std::vector<double> seconds;
  run(stream.get());  // warm-up: shared-memory opt-ins, first launches
  stream.synchronize();
  for (int r = 0; r < repeats; ++r) {
    start.record(stream);
    run(stream.get());
    stop.record(stream);
    stop.synchronize();
    seconds.push_back(Event::elapsed_ms(start, stop) / 1000.0);
  }
  return bench::summarize(seconds);
}

// In-core Floyd-Warshall, the matrix resident on the device (closing a closed matrix costs the same).
template <class S>
void closure_in_core(Bench& b, const std::string& variant, long long n, const gpu::DeviceClosureOptions& options,
                     int repeats) {
  using V = typename S::value_type;
  const gpu::ClosurePlan plan = gpu::plan_closure<S>(n, options, false);
  const long long ld = plan.padded;
  DeviceBuffer<V> d(static_cast<size_t>(ld * ld));
  random_graph<V><<<blocks_for(ld * ld), 256>>>(d.data(), n, ld);
  GQL_CUDA_CHECK_LAUNCH();
  GQL_CUDA_CHECK(cudaDeviceSynchronize());
  const auto t = time_it(repeats, [&](cudaStream_t s) { gpu::closure_on_device<S>(d.data(), nullptr, n, ld, 0, plan, s); });
  b.record("floyd_warshall", variant, n, t, static_cast<double>(n) * n * n, "updates_per_s", plan.describe());
}

// The global-memory kernel with predecessors, the design closure(D over min_plus, paths) runs: one
// timed run (no warm-up; its launches are all alike).
void closure_paths(Bench& b, long long n) {
  using S = MinPlus<float>;
  gpu::DeviceClosureOptions o;
  const gpu::ClosurePlan plan = gpu::plan_closure<S>(n, o, true);
  const long long ld = plan.padded;
  DeviceBuffer<float> d(static_cast<size_t>(ld * ld));
  DeviceBuffer<int32_t> pred(static_cast<size_t>(ld * ld));
  random_graph<float><<<blocks_for(ld * ld), 256>>>(d.data(), n, ld);
  GQL_CUDA_CHECK_LAUNCH();
  device::closure::fill<int32_t><<<1024, 256>>>(pred.data(), ld * ld, 0);
  GQL_CUDA_CHECK_LAUNCH();
  GQL_CUDA_CHECK(cudaDeviceSynchronize());
  Stream stream;
  Event start, stop;
  start.record(stream);
  gpu::closure_on_device<S>(d.data(), pred.data(), n, ld, 0, plan, stream.get());
  stop.record(stream);
  stop.synchronize();
  b.record("floyd_warshall", "fp32 global-memory kernel with predecessors (paths)", n,
           bench::summarize({Event::elapsed_ms(start, stop) / 1000.0}), static_cast<double>(n) * n * n, "updates_per_s",
           plan.describe());
}

// Out of core (budget capped to a quarter of the matrix) against in core, both from pinned memory.
void closure_out_of_core(Bench& b, long long n) {
  using S = MinPlus<float>;
  const size_t bytes = static_cast<size_t>(n) * n * sizeof(float);
  HostBuffer<float> host(static_cast<size_t>(n) * n);
  {
    DeviceBuffer<float> d(static_cast<size_t>(n) * n);
    random_graph<float><<<blocks_for(n * n), 256>>>(d.data(), n, n);
    GQL_CUDA_CHECK_LAUNCH();
    GQL_CUDA_CHECK(cudaMemcpy(host.data(), d.data(), bytes, cudaMemcpyDeviceToHost));
  }
  std::vector<float> original(host.data(), host.data() + host.size());
  const auto run = [&](const gpu::DeviceClosureOptions& o, std::vector<float>* result) {
    std::memcpy(host.data(), original.data(), bytes);
    const gpu::ClosurePlan plan = gpu::plan_closure<S>(n, o, false);
    const auto start = std::chrono::steady_clock::now();
    if (plan.out_of_core) {
      gpu::detail::closure_out_of_core(gpu::detail::closure_kernel_table<S>(), host.data(), plan, gql::Stream());
    } else {
      Stream stream;
      DeviceBuffer<float> d(static_cast<size_t>(plan.padded * plan.padded));
      gpu::detail::copy_block(d.data(), plan.padded, host.data(), n, n, n, cudaMemcpyHostToDevice, stream.get());
      gpu::closure_on_device<S>(d.data(), nullptr, n, plan.padded, 0, plan, stream.get());
      gpu::detail::copy_block(host.data(), n, d.data(), plan.padded, n, n, cudaMemcpyDeviceToHost, stream.get());
      stream.synchronize();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result) result->assign(host.data(), host.data() + host.size());
    return std::make_pair(plan, seconds);
  };
  gpu::DeviceClosureOptions in_core;
  in_core.out_of_core = gpu::OutOfCore::off;
  std::vector<float> expected, got;
  const auto [plan_in, t_in] = run(in_core, &expected);
  MemoryBudget::global().set_limit(bytes / 4);
  gpu::DeviceClosureOptions streamed;
  streamed.out_of_core = gpu::OutOfCore::automatic;
  std::pair<gpu::ClosurePlan, double> outcome;
  try {
    outcome = run(streamed, &got);
  } catch (...) {
    MemoryBudget::global().set_limit(std::nullopt);
    throw;
  }
  MemoryBudget::global().set_limit(std::nullopt);
  const bool same = expected == got;
  b.record("floyd_warshall", "in core from pinned host memory", n, bench::summarize({t_in}),
           static_cast<double>(n) * n * n, "updates_per_s", plan_in.describe());
  b.record("floyd_warshall", "out of core, budget a quarter of the matrix", n, bench::summarize({outcome.second}),
           static_cast<double>(n) * n * n, "updates_per_s",
           outcome.first.describe() + (same ? "; identical to in core" : "; DIFFERS from in core"));
  if (!same) std::fprintf(stderr, "out of core result differs from in core at n=%lld\n", n);
}

// LU fp64: gql's against cuSOLVER dgetrf, with both residuals ||PA - LU|| / ||A||.
void lu_against_cusolver(Bench& b, long long n, const std::vector<long long>& panels) {
  const size_t count = static_cast<size_t>(n) * n;
  DeviceBuffer<double> a(count), f(count);
  DeviceBuffer<int> pivots(static_cast<size_t>(n)), singular(1), info(1);
  random_dense<double><<<blocks_for(static_cast<long long>(count)), 256>>>(a.data(), static_cast<long long>(count));
  GQL_CUDA_CHECK_LAUNCH();
  GQL_CUDA_CHECK(cudaDeviceSynchronize());
  const int none = static_cast<int>(n);
  std::vector<int32_t> host_pivots(static_cast<size_t>(n));
  for (const int64_t panel : panels) {
    Stream stream;
    const gpu::CublasLease handle(stream.get());
    std::vector<double> seconds;
    for (int r = 0; r < 3; ++r) {
      f.copy_from_device(a, stream);
      singular.copy_from_host(std::span<const int>(&none, 1), stream);
      Event start, stop;
      start.record(stream);
      gpu::lu_on_device(f.data(), n, n, pivots.data(), singular.data(), gpu::DeviceLuOptions{panel, true}, handle.get(),
                        stream.get());
      stop.record(stream);
      stop.synchronize();
      if (r > 0) seconds.push_back(Event::elapsed_ms(start, stop) / 1000.0);
    }
    pivots.copy_to_host(std::span<int>(host_pivots.data(), host_pivots.size()), stream);
    stream.synchronize();
    const double residual = gpu::lu_relative_residual(a.data(), f.data(), host_pivots, n, false);
    b.record("lu_f64", "gql: panel " + std::to_string(panel) + " (columns 32 per cooperative launch), cuBLAS trsm + dgemm",
             n, bench::summarize(seconds), 2.0 * n * n * n / 3.0, "flops_per_s", "residual " + bench::json_number(residual));
  }
  {
    Stream stream;
    cusolverDnHandle_t handle = nullptr;
    if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) throw Error(ErrorKind::cuda, "cusolverDnCreate failed");
    cusolverDnSetStream(handle, stream.get());
    int work_size = 0;
    cusolverDnDgetrf_bufferSize(handle, static_cast<int>(n), static_cast<int>(n), f.data(), static_cast<int>(n), &work_size);
    DeviceBuffer<double> work(static_cast<size_t>(work_size));
    std::vector<double> seconds;
    for (int r = 0; r < 3; ++r) {
      f.copy_from_device(a, stream);
      Event start, stop;
      start.record(stream);
      cusolverDnDgetrf(handle, static_cast<int>(n), static_cast<int>(n), f.data(), static_cast<int>(n), work.data(),
                       pivots.data(), info.data());
      stop.record(stream);
      stop.synchronize();
      if (r > 0) seconds.push_back(Event::elapsed_ms(start, stop) / 1000.0);
    }
    pivots.copy_to_host(std::span<int>(host_pivots.data(), host_pivots.size()), stream);
    stream.synchronize();
    cusolverDnDestroy(handle);
    for (auto& p : host_pivots) --p;
    const double theirs = gpu::lu_relative_residual(a.data(), f.data(), host_pivots, n, true);
    b.record("lu_f64", "cuSOLVER dgetrf", n, bench::summarize(seconds), 2.0 * n * n * n / 3.0, "flops_per_s",
             "residual " + bench::json_number(theirs));
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string json;
  std::vector<long long> sizes{8192, 16384}, large, lu_sizes{16384, 32768}, lu_panels{256, 128}, ooc_sizes{32768}, paths_sizes;
  bool all_designs = true;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--json") json = argv[i + 1];
    else if (flag == "--sizes") sizes = parse_sizes(argv[i + 1]);
    else if (flag == "--large") large = parse_sizes(argv[i + 1]);
    else if (flag == "--lu") lu_sizes = parse_sizes(argv[i + 1]);
    else if (flag == "--lu-panels") lu_panels = parse_sizes(argv[i + 1]);
    else if (flag == "--ooc") ooc_sizes = parse_sizes(argv[i + 1]);
    else if (flag == "--paths") paths_sizes = parse_sizes(argv[i + 1]);
    else if (flag == "--designs") all_designs = std::string(argv[i + 1]) == "all";
  }
  try {
    cudaDeviceProp prop{};
    GQL_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    bench::JsonLines out(json);
    Bench b{out, {std::string(prop.name), bench::utc_now(), bench::env_or("GQL_BENCH_COMMIT", "unknown")}};
    const std::string tuning = ", chunk " + std::to_string(device::closure::gemm_chunk) + ", unroll " +
                               std::to_string(device::closure::gemm_unroll) +
                               (device::closure::gemm_stage_in ? ", old values staged" : ", old values first");
    gpu::DeviceClosureOptions automatic;  // register tiles: the runtime's default k-block and thread tile
    gpu::DeviceClosureOptions seed;
    seed.kernel = gpu::ClosureKernel::shared_tiles;
    seed.tile = 64;
    seed.per_thread = 4;
    seed.spread = true;
    gpu::DeviceClosureOptions global;
    global.kernel = gpu::ClosureKernel::global_memory;
    const auto shaped = [](int kb, gpu::RegisterTile tile, bool dpx) {
      gpu::DeviceClosureOptions o;
      o.tile = kb;
      o.register_tile = tile;
      o.dpx = dpx;
      return o;
    };
    const auto name = [&](const char* type, int kb, gpu::RegisterTile tile, const char* extra) {
      return std::string(type) + " register tiles " + tile.text() + ", k-block " + std::to_string(kb) + extra + tuning;
    };
    for (const long long n : sizes) {
      const int repeats = n <= 8192 ? 5 : 2;
      for (const gpu::RegisterTile tile : {gpu::RegisterTile{8, 8}, gpu::RegisterTile{8, 16}})
        for (const int kb : {128, 256}) {
          closure_in_core<MinPlus<float>>(b, name("fp32", kb, tile, ""), n, shaped(kb, tile, true), repeats);
          closure_in_core<MinPlusDpx>(b, name("int32", kb, tile, ", DPX add-min"), n, shaped(kb, tile, true), repeats);
        }
      const gpu::ClosurePlan int32_default = gpu::plan_closure<MinPlusDpx>(n, automatic, false);
      closure_in_core<MinPlusDpx>(b, name("int32", int32_default.tile, int32_default.register_tile, ", plain add and min"),
                                  n, shaped(int32_default.tile, int32_default.register_tile, false), 1);
      if (all_designs)
        closure_in_core<MinPlus<float>>(b, "fp32 seed shared-memory design (64x64, 4 per thread)", n, seed, 1);
    }
    if (all_designs) closure_in_core<MinPlus<float>>(b, "fp32 seed global-memory design", 4096, global, 1);
    for (const long long n : paths_sizes) closure_paths(b, n);
    for (const long long n : large)
      for (const int kb : {128, 256})
        closure_in_core<MinPlus<float>>(b, name("fp32", kb, {8, 8}, ""), n, shaped(kb, {8, 8}, true), 1);
    for (const long long n : ooc_sizes) closure_out_of_core(b, n);
    for (const long long n : lu_sizes) lu_against_cusolver(b, n, lu_panels);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_closure: %s\n", e.what());
    return 1;
  }
  return 0;
}
