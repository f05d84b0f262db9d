// Page-locked host memory. cudaMallocHost maps its pages for the device and costs 0.6 to 1.6 ms a
// call on the H200's host whatever the size, so a BFS search's three 64-byte counter blocks cost its
// first run more than the search. Blocks of up to 64 KiB are cut from 1 MiB slabs kept for the
// process instead, one free list per power-of-two size; larger ones come from cudaMallocHost.
#include <array>
#include <bit>
#include <mutex>
#include <vector>

#include "gql/device.hpp"

namespace gql {

namespace {

constexpr size_t smallest_block = 64;  // a cache line: blocks never share one with another's writes
constexpr size_t largest_block = size_t{64} << 10;
constexpr size_t slab_bytes = size_t{1} << 20;
constexpr int n_sizes = std::countr_zero(largest_block) - std::countr_zero(smallest_block) + 1;

void* page_locked(size_t bytes, const char* file, int line) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status != cudaSuccess)
    throw_cuda_error(status, ("cudaMallocHost of " + std::to_string(bytes) + " bytes").c_str(), file, line);
  return pointer;
}

class SmallPinnedBlocks {
 public:
  // Never freed: a static's destructor would call CUDA after the runtime's own teardown at exit.
  static SmallPinnedBlocks& process() {
    static SmallPinnedBlocks* const blocks = new SmallPinnedBlocks;
    return *blocks;
  }
  static bool holds(size_t bytes) noexcept { return bytes <= largest_block; }

  void* take(size_t bytes, const char* file, int line) {
    const int size = size_class(bytes);
    const std::lock_guard lock(mutex_);
    std::vector<void*>& free = free_[static_cast<size_t>(size)];
    if (!free.empty()) {
      void* block = free.back();
      free.pop_back();
      return block;
    }
    const size_t block_bytes = smallest_block << size;
    if (slab_left_ < block_bytes) {  // the rest of the slab stays unused: at most one large block's worth
      slab_next_ = static_cast<unsigned char*>(page_locked(slab_bytes, file, line));
      slab_left_ = slab_bytes;
    }
    void* block = slab_next_;
    slab_next_ += block_bytes;
    slab_left_ -= block_bytes;
    return block;
  }
  void give(void* block, size_t bytes) noexcept {
    const std::lock_guard lock(mutex_);
    try {
      free_[static_cast<size_t>(size_class(bytes))].push_back(block);
    } catch (...) {  // no memory for the list's growth: the block is lost, not freed twice
    }
  }

 private:
  // Blocks are sizes smallest_block << k, slabs a multiple of each, so blocks stay aligned to their size.
  static int size_class(size_t bytes) noexcept {
    return std::countr_zero(std::bit_ceil(std::max(bytes, smallest_block))) - std::countr_zero(smallest_block);
  }

  std::mutex mutex_;
  std::array<std::vector<void*>, n_sizes> free_;
  unsigned char* slab_next_ = nullptr;
  size_t slab_left_ = 0;
};

}  // namespace

void* pinned_allocate(size_t bytes, const char* file, int line) {
  if (SmallPinnedBlocks::holds(bytes)) return SmallPinnedBlocks::process().take(bytes, file, line);
  return page_locked(bytes, file, line);
}

void pinned_free(void* pointer, size_t bytes) noexcept {
  if (pointer == nullptr) return;
  if (SmallPinnedBlocks::holds(bytes)) SmallPinnedBlocks::process().give(pointer, bytes);
  else cudaFreeHost(pointer);
}

void* small_pinned_scratch() {
  constexpr size_t scratch_bytes = 256;
  struct Scratch {
    void* pointer = nullptr;
    ~Scratch() { pinned_free(pointer, scratch_bytes); }
  };
  thread_local Scratch scratch;
  if (scratch.pointer == nullptr) scratch.pointer = pinned_allocate(scratch_bytes, __FILE__, __LINE__);
  return scratch.pointer;
}

void prepare_pinned_blocks() { pinned_free(pinned_allocate(smallest_block, __FILE__, __LINE__), smallest_block); }

}  // namespace gql
