// What the first touch of a fresh SpGEMM-sized output costs, and how that depends on how long ago the
// process freed the previous one: maps --gib GiB (2 MiB pages advised with --huge 1), writes one byte
// per 4 KiB page, unmaps, then sleeps the next pause and repeats. On a VM whose balloon reports free
// pages to the hypervisor, memory freed a second or more before comes back only through the host's
// page faults.
//   bench_first_touch [--gib 2] [--huge 1] [--pauses 0,0,1,3,0,5,0]
#include <sys/mman.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

#include "bench_args.hpp"

namespace {

double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return seconds(u.ru_utime) + seconds(u.ru_stime);
}

}  // namespace

int main(int argc, char** argv) try {
  gql::bench::Args args(argc, argv, "usage: bench_first_touch [--gib 2] [--huge 1] [--pauses 0,0,1,3,0,5,0]");
  const auto bytes = static_cast<size_t>(args.integer("gib", 2)) << 30;
  const bool huge = args.integer("huge", 1) != 0;
  const auto pauses = args.list("pauses", {"0", "0", "1", "3", "0", "5", "0"});
  args.check_all_used();
  for (const std::string& pause : pauses) {
    std::this_thread::sleep_for(std::chrono::duration<double>(std::stod(pause)));
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::runtime_error("mmap failed");
    if (huge) madvise(mapped, bytes, MADV_HUGEPAGE);
    auto* memory = static_cast<volatile char*>(mapped);
    const double cpu0 = cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < bytes; i += 4096) memory[i] = 1;
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("huge pages %d, %s s after the previous unmap: first touch of %zu MiB %.3f s wall, %.3f s CPU\n",
                huge ? 1 : 0, pause.c_str(), bytes >> 20, wall, cpu_seconds() - cpu0);
    munmap(mapped, bytes);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_first_touch: %s\n", e.what());
  return 2;
}
