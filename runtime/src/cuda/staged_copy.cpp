// Copies between pageable host memory and the device at the link's speed. A pageable cudaMemcpy
// moves a few GB/s (the driver stages it through its own small pinned buffers, one at a time) and
// leaves the first touch of fresh destination pages to one thread. Here the DMA engine fills (or
// drains) one of a few pinned staging buffers, kept for the process, while the host's threads copy
// another out (or in), touching the host pages in parallel.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <optional>

#include "gql/device.hpp"

namespace gql {
namespace {

constexpr size_t chunk_bytes = size_t{32} << 20;  // one staging buffer
constexpr int n_buffers = 3;                       // DMA in one, host threads in another, one ahead
constexpr size_t direct_below = size_t{4} << 20;   // smaller copies go straight through the driver
constexpr size_t piece_bytes = size_t{1} << 20;    // a host thread's share of a chunk at a time

class Staging {
 public:
  // Never freed: a static's destructor would call CUDA after the runtime's own teardown at exit.
  static Staging& process() {
    static Staging* const staging = new Staging;
    return *staging;
  }
  // Buffers and events are made on first use, under the lock a copy holds.
  std::unique_lock<std::mutex> acquire() {
    std::unique_lock lock(mutex_);
    if (!buffers_[0]) {
      for (int b = 0; b < n_buffers; ++b) {
        buffers_[b].emplace(chunk_bytes);
        events_[b].emplace();
      }
    }
    return lock;
  }
  unsigned char* buffer(int b) { return buffers_[b]->data(); }
  Event& event(int b) { return *events_[b]; }

 private:
  std::mutex mutex_;
  std::optional<HostBuffer<unsigned char>> buffers_[n_buffers];
  std::optional<Event> events_[n_buffers];
};

// memcpy by the calling thread's team, a piece per thread at a time.
void parallel_copy(void* dst, const void* src, size_t bytes) {
  const auto pieces = static_cast<int64_t>((bytes + piece_bytes - 1) / piece_bytes);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t begin = static_cast<size_t>(p) * piece_bytes;
    std::memcpy(static_cast<unsigned char*>(dst) + begin, static_cast<const unsigned char*>(src) + begin,
                std::min(piece_bytes, bytes - begin));
  }
}

size_t chunk_size(size_t bytes, size_t chunk) { return std::min(chunk_bytes, bytes - chunk * chunk_bytes); }

// A copy too small for staging, straight through the driver; false when it must be staged.
bool copied_directly(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const Stream& stream,
                     const char* file, int line) {
  if (bytes >= direct_below) return false;
  if (bytes > 0) {
    copy_async(dst, src, bytes, kind, stream, file, line);
    stream.synchronize();
  }
  return true;
}

}  // namespace

void prepare_staged_copies() {
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  // A process's first transfers, first large device allocation and the pool's first growth each cost
  // its first upload time that later ones do not pay (a program's 134 MB graph: 40-57 ms, against
  // 6 ms for the same copy once warm): each staging buffer goes to the device and back once, through
  // a value of the size that comes from cudaMalloc, and the pool grows once.
  const Stream stream;
  {
    DeviceBuffer<unsigned char> device(chunk_bytes * n_buffers);
    const StreamBuffer<unsigned char> pool_growth(chunk_bytes, stream);  // handed back to the pool, kept there
    for (int b = 0; b < n_buffers; ++b) {
      copy_async(device.data() + b * chunk_bytes, staging.buffer(b), chunk_bytes, cudaMemcpyHostToDevice, stream,
                 __FILE__, __LINE__);
      copy_async(staging.buffer(b), device.data() + b * chunk_bytes, chunk_bytes, cudaMemcpyDeviceToHost, stream,
                 __FILE__, __LINE__);
    }
    stream.synchronize();
  }
  stream.synchronize();
}

void download(void* host, const void* device, size_t bytes, const Stream& stream, const char* file, int line) {
  if (copied_directly(host, device, bytes, cudaMemcpyDeviceToHost, stream, file, line)) return;
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  const size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  const auto fill = [&](size_t c) {  // DMA: chunk c of the device into its buffer
    const int b = static_cast<int>(c % n_buffers);
    copy_async(staging.buffer(b), static_cast<const unsigned char*>(device) + c * chunk_bytes, chunk_size(bytes, c),
               cudaMemcpyDeviceToHost, stream, file, line);
    staging.event(b).record(stream);
  };
  for (size_t c = 0; c < std::min<size_t>(chunks, n_buffers); ++c) fill(c);
  for (size_t c = 0; c < chunks; ++c) {
    const int b = static_cast<int>(c % n_buffers);
    staging.event(b).synchronize();
    parallel_copy(static_cast<unsigned char*>(host) + c * chunk_bytes, staging.buffer(b), chunk_size(bytes, c));
    if (c + n_buffers < chunks) fill(c + n_buffers);
  }
}

void upload(void* device, const void* host, size_t bytes, const Stream& stream, const char* file, int line) {
  if (copied_directly(device, host, bytes, cudaMemcpyHostToDevice, stream, file, line)) return;
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  const size_t chunks = (bytes + chunk_bytes - 1) / chunk_bytes;
  for (size_t c = 0; c < chunks; ++c) {
    const int b = static_cast<int>(c % n_buffers);
    if (c >= n_buffers) staging.event(b).synchronize();  // the DMA out of this buffer is done
    parallel_copy(staging.buffer(b), static_cast<const unsigned char*>(host) + c * chunk_bytes, chunk_size(bytes, c));
    copy_async(static_cast<unsigned char*>(device) + c * chunk_bytes, staging.buffer(b), chunk_size(bytes, c),
               cudaMemcpyHostToDevice, stream, file, line);
    staging.event(b).record(stream);
  }
  stream.synchronize();
}

}  // namespace gql
