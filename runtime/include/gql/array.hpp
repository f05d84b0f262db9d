// The storage of the host containers: a std::vector whose sized constructor and resize() leave
// trivial elements uninitialized (default-initialized), so a result of gigabytes is not zero-filled by
// one thread before the threads that compute it, or a download, write every element (and touch its
// pages in parallel). Say the fill where it matters: `Array<T> a(n, T{})`, `a.assign(n, T{})`.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gql {

template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() noexcept = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

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
