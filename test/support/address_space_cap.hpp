// Tests that must see an allocation fail (an `oom` error rather than a crash) run the step in a child
// process whose address space is capped at what it maps now plus some headroom.
#pragma once

#include <sys/resource.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>

namespace gql::test_support {

// Caps this process's address space at its current mapping plus `headroom` bytes; false if it cannot.
inline bool cap_address_space(rlim_t headroom) {
  size_t pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%zu", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t bytes = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGE_SIZE)) + headroom;
  const rlimit cap{bytes, bytes};
  return setrlimit(RLIMIT_AS, &cap) == 0;
}

}  // namespace gql::test_support
