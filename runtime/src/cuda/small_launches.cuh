// What the runtime library's one-pass kernels share (runtime/src/cuda/*.cu, not a public header):
// their block and grid shape, the dispatch of an element-size-generic kernel on a word of that size,
// the read of one value an op waits for, and the row of a CSR position (the binary search in sorted
// keys is gql/device/csr_view.cuh's first_not_below).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "gql/device.hpp"

namespace gql::gpu::launches {

constexpr int block = 256;

// Enough blocks of `block` threads for `work` items, grid-striding past 8192 blocks.
inline unsigned grid_for(int64_t work) {
  return static_cast<unsigned>(std::clamp<int64_t>((work + block - 1) / block, 1, 8192));
}

// Calls f(Word{}) with the unsigned word of `bytes` bytes (1, 2, 4 or 8); `op` names the caller in the
// error for another size.
template <class F>
void with_word_of(size_t bytes, const char* op, F&& f) {
  switch (bytes) {
    case 1: return f(uint8_t{});
    case 2: return f(uint16_t{});
    case 4: return f(uint32_t{});
    case 8: return f(uint64_t{});
    default: throw Error(ErrorKind::internal, std::string(op) + ": elements of " + std::to_string(bytes) + " bytes");
  }
}

// The value at `on_device`, after what `stream` holds (gql/device.hpp).
using ::gql::read_back;

// Sets the value at `on_device` to `value`, in the stream's order.
template <class T>
void write_one(T* on_device, const T& value, const Stream& stream) {
  auto* host = static_cast<T*>(small_pinned_scratch());
  *host = value;
  copy_async(on_device, host, sizeof(T), cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
  stream.synchronize();  // the scratch is the thread's: the next use may overwrite it
}

// The row of a CSR structure (n_rows rows) that holds position p: offsets[row] <= p < offsets[row + 1].
__device__ inline long long row_holding(const offset_t* offsets, long long n_rows, long long p) {
  long long lo = 0, hi = n_rows;
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

}  // namespace gql::gpu::launches
