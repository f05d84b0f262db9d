// Host-device copy ceilings and what gql's transfers reach against them, in GB/s of one buffer:
//   pinned H2D / D2H             cudaMemcpyAsync from or to page-locked memory: the link's ceiling
//   pageable H2D / D2H (driver)  the same from or to ordinary memory, as a plain cudaMemcpy moves it
//   gql upload / download        gql::upload and gql::download (pinned staging, host threads copying),
//                                the download once into memory already touched and once into fresh pages
//   host parallel memcpy         the host's threads copying ordinary memory (the staging's other half),
//                                once into touched pages and once into fresh ones: the second is the
//                                ceiling of any download into fresh pages, whose first touch the host's
//                                kernel pays (faulting and zeroing each page) whatever fills it
//   gql upload, cold             gql::upload right after the device start into memory it allocates, as
//                                a program's first upload runs, then into memory allocated before, and
//                                again after the link has idled for a second (no warm-up)
// One warm-up (which also makes gql's staging buffers), then repeats; records go to --json FILE.
//
//   bench_transfer_ceilings [--repeats 5] [--mib 512] [--json FILE]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "bench_args.hpp"
#include "bench_record.hpp"
#include "gql/device.hpp"

namespace {

using namespace gql::bench;

template <class F>
TimeSummary time_repeats(int repeats, F&& run) {
  run();  // warm-up
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(std::move(seconds));
}

}  // namespace

int main(int argc, char** argv) try {
  Args args(argc, argv, "usage: bench_transfer_ceilings [--repeats 5] [--mib 512] [--json FILE]");
  const int repeats = static_cast<int>(args.integer("repeats", 5));
  const auto bytes = static_cast<size_t>(args.integer("mib", 512)) << 20;
  JsonLines out(args.text("json", ""));
  args.check_all_used();

  gql::start_device();
  cudaDeviceProp prop{};
  GQL_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  const RunContext context{std::string(prop.name) + ", " + std::to_string(std::thread::hardware_concurrency()) +
                               " host cores",
                           utc_now(), env_or("GQL_BENCH_COMMIT", "unknown")};
  const gql::Stream stream;
  gql::DeviceBuffer<unsigned char> device(bytes);
  gql::HostBuffer<unsigned char> pinned(bytes);
  std::vector<unsigned char> pageable(bytes, 1), other(bytes, 2);
  const auto record = [&](const std::string& variant, const TimeSummary& t) {
    Record r;
    r.text("workload", "ceiling").text("graph", "-").text("variant", variant + " (" + std::to_string(bytes >> 20) + " MiB)")
        .text("status", "ok").times(t).number("bytes", static_cast<double>(bytes))
        .number("gb_per_s", static_cast<double>(bytes) / t.median * 1e-9);
    out.write(stamp(r, context));
    std::printf("%-32s %6.1f GB/s\n", variant.c_str(), static_cast<double>(bytes) / t.median * 1e-9);
  };
  const auto once = [&](auto&& run) {
    const auto start = std::chrono::steady_clock::now();
    run();
    return summarize({std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
  };
  const auto upload = [&] { gql::upload(device.data(), pageable.data(), bytes, stream, __FILE__, __LINE__); };
  record("gql upload into new device memory, cold (first after the device start)", once([&] {
    gql::DeviceBuffer<unsigned char> fresh(bytes);
    gql::upload(fresh.data(), pageable.data(), bytes, stream, __FILE__, __LINE__);
  }));
  record("gql upload, cold (first into this memory)", once(upload));
  std::this_thread::sleep_for(std::chrono::seconds(1));
  record("gql upload, cold (after 1 s idle)", once(upload));
  const auto copy = [&](void* dst, const void* src, cudaMemcpyKind kind) {
    GQL_CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, kind, stream.get()));
    stream.synchronize();
  };

  record("pinned H2D", time_repeats(repeats, [&] { copy(device.data(), pinned.data(), cudaMemcpyHostToDevice); }));
  record("pinned D2H", time_repeats(repeats, [&] { copy(pinned.data(), device.data(), cudaMemcpyDeviceToHost); }));
  record("pageable H2D (driver)", time_repeats(repeats, [&] { copy(device.data(), pageable.data(), cudaMemcpyHostToDevice); }));
  record("pageable D2H (driver)", time_repeats(repeats, [&] { copy(pageable.data(), device.data(), cudaMemcpyDeviceToHost); }));
  record("gql upload", time_repeats(repeats, upload));
  record("gql download, touched pages", time_repeats(repeats, [&] {
    gql::download(pageable.data(), device.data(), bytes, stream, __FILE__, __LINE__);
  }));
  record("gql download, fresh pages", time_repeats(repeats, [&] {
    gql::release_kept_host_blocks();         // no block of the last repeat is handed back
    gql::Array<unsigned char> fresh(bytes);  // uninitialized: its pages are faulted in by the copy
    gql::download(fresh.data(), device.data(), bytes, stream, __FILE__, __LINE__);
  }));
  // In 2 MiB pieces, a huge page each: no two threads wait on one page's first touch.
  const auto parallel_memcpy = [&](unsigned char* destination) {
    constexpr size_t piece = size_t{2} << 20;
    const auto pieces = static_cast<int64_t>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static, 1)
    for (int64_t p = 0; p < pieces; ++p) {
      const size_t at = static_cast<size_t>(p) * piece;
      std::memcpy(destination + at, pageable.data() + at, std::min(piece, bytes - at));
    }
  };
  const std::string threads = std::to_string(omp_get_max_threads()) + " threads";
  record("host parallel memcpy (" + threads + ")", time_repeats(repeats, [&] { parallel_memcpy(other.data()); }));
  record("host parallel memcpy into fresh pages (" + threads + ")", time_repeats(repeats, [&] {
    gql::release_kept_host_blocks();
    gql::Array<unsigned char> fresh(bytes);
    parallel_memcpy(fresh.data());
  }));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_transfer_ceilings: %s\n", e.what());
  return 1;
}
