// The storage of the host containers: a std::vector whose sized constructor and resize() leave
// trivial elements uninitialized (default-initialized), so a result of gigabytes is not zero-filled by
// one thread before the threads that compute it, or a download, write every element (and touch its
// pages in parallel). Say the fill where it matters: `Array<T> a(n, T{})`, `a.assign(n, T{})`.
// Arrays of 4 MiB and more are aligned to 2 MiB and asked to be backed by transparent huge pages:
// first touching a result of gigabytes in 4 KiB pages costs a page fault each (0.5 GB/s on a VM,
// 15 GB/s with 16 threads on the GPU machine's host), in 2 MiB pages about 25 GB/s with 2 threads.
#pragma once

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gql {

namespace detail {
inline constexpr size_t huge_page_bytes = size_t{2} << 20;
inline constexpr size_t huge_array_bytes = size_t{4} << 20;  // from here on, huge pages
}  // namespace detail

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = n * sizeof(T);
    if (bytes < detail::huge_array_bytes) return std::allocator<T>::allocate(n);
    const size_t rounded = (bytes + detail::huge_page_bytes - 1) / detail::huge_page_bytes * detail::huge_page_bytes;
    void* p = std::aligned_alloc(detail::huge_page_bytes, rounded);
    if (p == nullptr) throw std::bad_alloc();
    madvise(p, rounded, MADV_HUGEPAGE);  // a hint: where huge pages are off, the pages stay small
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < detail::huge_array_bytes) std::allocator<T>::deallocate(p, n);
    else std::free(p);
  }

  // No arguments: default-initialize (nothing for int or double); arguments: construct as usual.
  template <class U>
  void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <class T>
using Array = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace gql
