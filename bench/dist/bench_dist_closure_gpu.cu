// Floyd-Warshall fp32 (min_plus) over the ranks' GPUs (gql/dist/device_closure.hpp) against the
// one-GPU closure, device data in and out, in one run: for each n, the one-GPU closure on rank 0
// (register tiles, its k-block by size), then the row-block closure on every rank with the same
// k-block, its rows joined on every rank's GPU. Three rounds each; every rank's joined result is
// checked equal to rank 0's one-GPU result. On one rank this is the row-block path's own cost (its
// launches without the one-GPU closure's lookahead; NCCL where built with it); on one rank per GPU,
// the speedup the issue's targets name. A random digraph of about 16 edges per vertex, weights 1..100.
//
//   mpiexec -n R bench_dist_closure_gpu [N...]   (default 8192 16384)
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "../../test/gpu/test_closure_semirings.hpp"
#include "../gpu_closure/random_graph.cuh"
#include "gql/device.hpp"
#include "gql/device/closure/closure.hpp"
#include "gql/dist/device_closure.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"

namespace {

using namespace gql;
using S = closure_semirings::MinPlus<float>;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  dist::World world(&argc, &argv);
  try {
    const dist::DeviceWorld devices(world);
    std::vector<int64_t> sizes;
    for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
    if (sizes.empty()) sizes = {8192, 16384};
    const Stream stream;
    for (const int64_t n : sizes) {
      const size_t entries = static_cast<size_t>(n * n);
      DeviceBuffer<float> input(entries), one(entries), joined(entries);
      closure_bench::random_graph<float><<<static_cast<unsigned>((entries + 255) / 256), 256, 0, stream.get()>>>(input.data(), n, n);
      GQL_CUDA_CHECK_LAUNCH();
      gpu::ClosureSchedule schedule;
      const dist::detail::DeviceRowsPlan plan = dist::device_rows_plan<S>(n, schedule);
      gpu::DeviceClosureOptions options;
      options.tile = static_cast<int>(plan.k_block);
      options.out_of_core = gpu::OutOfCore::off;
      const gpu::ClosurePlan one_plan = gpu::plan_closure<S>(n, options, false);
      const double updates = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
      for (int round = 1; round <= 3; ++round) {
        if (world.rank() == 0) {
          GQL_CUDA_CHECK(cudaMemcpyAsync(one.data(), input.data(), input.bytes(), cudaMemcpyDeviceToDevice, stream.get()));
          stream.synchronize();
          const auto t0 = std::chrono::steady_clock::now();
          gpu::closure_of_device_matrix(gpu::detail::closure_kernel_table<S>(), one.data(), one_plan, stream);
          stream.synchronize();
          const double t = seconds_since(t0);
          std::printf("n=%lld round %d one GPU: %.4f s (%.1f Gupdates/s)\n", static_cast<long long>(n), round, t,
                      updates / t * 1e-9);
        }
        world.on_every_rank([] {});  // the ranks start together
        const auto t0 = std::chrono::steady_clock::now();
        dist::close_on_devices<S>(devices, input.data(), cudaMemcpyDeviceToDevice, joined.data(), n, plan, stream);
        world.on_every_rank([] {});
        const double t = seconds_since(t0);
        // Every rank's joined result against rank 0's one-GPU closure.
        std::vector<float> got(entries), expected(entries);
        GQL_CUDA_CHECK(cudaMemcpy(got.data(), joined.data(), joined.bytes(), cudaMemcpyDeviceToHost));
        if (world.rank() == 0) GQL_CUDA_CHECK(cudaMemcpy(expected.data(), one.data(), one.bytes(), cudaMemcpyDeviceToHost));
        world.broadcast(std::as_writable_bytes(std::span<float>(expected)), 0);
        const int64_t differ = world.sum(static_cast<int64_t>(got != expected));
        if (world.rank() == 0)
          std::printf("n=%lld round %d %d rank(s), k-block %lld (%s): %.4f s (%.1f Gupdates/s)%s\n",
                      static_cast<long long>(n), round, world.size(), static_cast<long long>(plan.k_block),
                      devices.describe().c_str(), t, updates / t * 1e-9,
                      differ == 0 ? "" : "; RESULTS DIFFER from the one-GPU closure");
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_dist_closure_gpu: rank %d: %s\n", world.rank(), e.what());
    return 1;
  }
  return 0;
}
