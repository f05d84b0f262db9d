// The host memory gql may still take, and the check that refuses an allocation past it: what a
// file's header, a gzip stream or a kernel's arguments ask for is checked before it is allocated,
// so that input asking for more fails with Error(oom) saying what asked, instead of an allocation
// failing somewhere (or the system killing the process once the pages are touched).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

namespace gql {

// Memory the system can give without swapping (MemAvailable, else all of it), within what the
// process's address-space cap (ulimit -v) leaves of it and within GQL_HOST_MEMORY_LIMIT ("2G",
// "512M", bytes) when that is set (a cap for runs where ulimit cannot serve, e.g. under
// AddressSanitizer).
size_t available_host_memory();

// Requests under this pass unchecked: reading the system's numbers costs more than they do, and they
// cannot exhaust a machine one at a time.
inline constexpr size_t unchecked_allocation_bytes = size_t{64} << 20;

// Throws Error(oom) naming `what` (and `source`, a file, when given) when `bytes` (at least
// unchecked_allocation_bytes) exceed available_host_memory().
void check_host_allocation(size_t bytes, const std::string& what, const std::string& source = {});

// count * element_bytes, or the largest size_t when that overflows (a request nothing can satisfy).
inline size_t bytes_for(uint64_t count, size_t element_bytes) {
  if (element_bytes != 0 && count > std::numeric_limits<size_t>::max() / element_bytes)
    return std::numeric_limits<size_t>::max();
  return static_cast<size_t>(count) * element_bytes;
}

}  // namespace gql
