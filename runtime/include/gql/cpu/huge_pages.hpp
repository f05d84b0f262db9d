// Large outputs on transparent huge pages: first touching fresh memory costs a page fault per
// 4 KiB page (and far more under virtualization); asking for 2 MiB pages before the first touch
// cuts that by 512. Only advice: where the kernel declines, nothing changes.
#pragma once

#include <cstdint>
#include <vector>

#include "gql/array.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gql::cpu {

using gql::detail::huge_page_bytes;  // gql/array.hpp

// v.reserve(n), with the new storage advised onto huge pages when it is large. Touches nothing: the
// pages are faulted in by whoever first writes them.
template <class T, class Allocator>
void reserve_on_huge_pages(std::vector<T, Allocator>& v, size_t n) {
  if (v.capacity() >= n) return;
  v.reserve(n);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (n * sizeof(T) >= 4 * huge_page_bytes) {
    const auto begin = reinterpret_cast<uintptr_t>(v.data());
    const uintptr_t first = (begin + huge_page_bytes - 1) & ~(huge_page_bytes - 1);
    const uintptr_t last = (begin + n * sizeof(T)) & ~(huge_page_bytes - 1);
    if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#endif
}

}  // namespace gql::cpu
