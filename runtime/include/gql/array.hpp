// The storage of the host containers: a std::vector whose sized constructor and resize() leave
// trivial elements uninitialized (default-initialized), so a result of gigabytes is not zero-filled by
// one thread before the threads that compute it, or a download, write every element (and touch its
// pages in parallel). Say the fill where it matters: `Array<T> a(n, T{})`, `a.assign(n, T{})`.
// Arrays of 2 MiB and more are aligned to 2 MiB and asked to be backed by transparent huge pages:
// first touching a result of gigabytes in 4 KiB pages costs a page fault each (0.5 GB/s on a VM,
// 15 GB/s with 16 threads on the GPU machine's host), in 2 MiB pages about 25 GB/s with 2 threads;
// from 2 MiB on, not 4, since a result of a few MiB pays it too (one BFS's levels at kron:20, two
// arrays of 2.6 MB: 0.85-0.97 ms to download into 4 KiB pages, 0.25 ms into huge ones). The rounding
// to whole huge pages costs less than 2 MiB per array.
// Such blocks, once freed, are kept a while for the next array of the same size (LargeBlocks).
// Smaller arrays start on a cache line, so that threads splitting one into blocks of whole lines
// (a BFS's level bytes and frontier bits) share no line at a block's edge.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <iterator>
#include <memory>
#include <mutex>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gql {

namespace detail {
inline constexpr size_t huge_page_bytes = size_t{2} << 20;
inline constexpr size_t huge_array_bytes = huge_page_bytes;  // from one huge page on, huge pages
inline constexpr std::align_val_t cache_line{64};  // below it

// Large blocks freed and asked for again at the same size, as a loop's vectors are at each iteration,
// handed back as they are. A fresh block costs the kernel a fault and the zeroing of every page at
// its first touch (PageRank on kron:20: 28 MB of new vectors per iteration, 8% of its time in
// zeroing on 2 cores). Kept: at most max_blocks, and at most a 32nd of the machine's memory (2 GiB at
// most) in all, the oldest freed first; a block larger than that is freed at once. The cache is the
// process's (never destroyed: arrays may be freed during exit) and its lock is taken only for blocks
// of huge_array_bytes and more.
class LargeBlocks {
 public:
  static LargeBlocks& process() {
    static LargeBlocks* const blocks = new LargeBlocks;
    return *blocks;
  }
  // A block of exactly `bytes` (a multiple of huge_page_bytes), kept or new; nullptr when none can be had.
  void* take(size_t bytes) {
    {
      std::lock_guard lock(mutex_);
      // The newest of that size: its lines are the likeliest still in the caches.
      for (auto it = kept_.rbegin(); it != kept_.rend(); ++it)
        if (it->bytes == bytes) {
          void* p = it->p;
          kept_bytes_ -= bytes;
          kept_.erase(std::next(it).base());
          return p;
        }
    }
    void* p = std::aligned_alloc(huge_page_bytes, bytes);
    if (p == nullptr) {  // what is kept goes back to the system before giving up
      release_all();
      p = std::aligned_alloc(huge_page_bytes, bytes);
    }
    if (p != nullptr) madvise(p, bytes, MADV_HUGEPAGE);  // a hint: where huge pages are off, the pages stay small
    return p;
  }
  void give_back(void* p, size_t bytes) noexcept {
    std::vector<void*> freed;
    {
      std::lock_guard lock(mutex_);
      if (bytes > capacity_) {
        freed.push_back(p);
      } else {
        while (!kept_.empty() && (kept_.size() >= max_blocks || kept_bytes_ + bytes > capacity_)) {
          freed.push_back(kept_.front().p);
          kept_bytes_ -= kept_.front().bytes;
          kept_.pop_front();
        }
        kept_.push_back({p, bytes});
        kept_bytes_ += bytes;
      }
    }
    for (void* f : freed) std::free(f);
  }
  void release_all() noexcept {
    std::deque<Block> freed;
    {
      std::lock_guard lock(mutex_);
      freed.swap(kept_);
      kept_bytes_ = 0;
    }
    for (const Block& b : freed) std::free(b.p);
  }
  size_t kept_bytes() {
    std::lock_guard lock(mutex_);
    return kept_bytes_;
  }
  size_t capacity() const noexcept { return capacity_; }

 private:
  struct Block {
    void* p;
    size_t bytes;
  };
  static constexpr size_t max_blocks = 16;
  LargeBlocks()
      : capacity_(std::min(size_t{2} << 30, static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) *
                                                static_cast<size_t>(sysconf(_SC_PAGE_SIZE)) / 32)) {}

  std::mutex mutex_;
  std::deque<Block> kept_;  // oldest first
  size_t kept_bytes_ = 0;
  const size_t capacity_;
};

inline size_t large_block_bytes(size_t bytes) { return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes; }
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
    if (bytes < detail::huge_array_bytes) return static_cast<T*>(::operator new(bytes, detail::cache_line));
    void* p = detail::LargeBlocks::process().take(detail::large_block_bytes(bytes));
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n * sizeof(T) < detail::huge_array_bytes) ::operator delete(p, detail::cache_line);
    else detail::LargeBlocks::process().give_back(p, detail::large_block_bytes(n * sizeof(T)));
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

// Hands the large blocks kept for reuse back to the system: before an allocation is refused for want
// of memory, and where a measurement needs fresh pages.
inline void release_kept_host_blocks() noexcept { detail::LargeBlocks::process().release_all(); }

}  // namespace gql
