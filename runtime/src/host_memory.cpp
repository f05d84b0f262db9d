#include "gql/host_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>

#include "gql/array.hpp"
#include "gql/error.hpp"
#include "gql/memory_size.hpp"

namespace gql {
namespace {

// Bytes of address space the process has mapped (VmSize), 0 when unknown.
size_t mapped_bytes() {
  size_t pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%zu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  return pages * static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
}

}  // namespace

size_t available_host_memory() {
  size_t available = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<size_t>(sysconf(_SC_PAGE_SIZE));
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    while (std::fgets(line, sizeof line, f) != nullptr)
      if (std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1) available = static_cast<size_t>(kib) * 1024;
    std::fclose(f);
  }
  // Under ulimit -v, what the process has mapped already counts against the cap.
  rlimit cap{};
  if (getrlimit(RLIMIT_AS, &cap) == 0 && cap.rlim_cur != RLIM_INFINITY) {
    const size_t limit = static_cast<size_t>(cap.rlim_cur), mapped = mapped_bytes();
    available = std::min(available, limit > mapped ? limit - mapped : 0);
  }
  static const std::optional<size_t> limit = memory_limit_from_environment("GQL_HOST_MEMORY_LIMIT");
  if (limit) available = std::min(available, *limit);
  return available;
}

void check_host_allocation(size_t bytes, const std::string& what, const std::string& source) {
  if (bytes < unchecked_allocation_bytes) return;
  if (bytes <= available_host_memory()) return;
  release_kept_host_blocks();  // the blocks kept for reuse are the system's again
  const size_t available = available_host_memory();
  if (bytes <= available) return;
  // bytes_for saturates: such a request needs more than any address space holds.
  const std::string needed = bytes == std::numeric_limits<size_t>::max() ? "more than 2^64 bytes"
                                                                          : std::to_string(bytes >> 20) + " MiB";
  throw Error(ErrorKind::oom,
              what + " needs " + needed + "; " + std::to_string(available >> 20) + " MiB of memory are available",
              {source});
}

}  // namespace gql
