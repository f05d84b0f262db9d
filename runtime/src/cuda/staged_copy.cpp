// Copies between pageable host memory and the device at the link's speed. A pageable cudaMemcpy
// moves a few GB/s (the driver stages it through its own small pinned buffers, one at a time) and
// leaves the first touch of fresh destination pages to one thread. Here the DMA engine fills (or
// drains) one of a few pinned staging buffers, kept for the process, while the host's threads copy
// another out (or in), touching the host pages in parallel.
#include <omp.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "gql/device.hpp"

namespace gql {
namespace {

constexpr size_t buffer_bytes = size_t{32} << 20;  // one staging buffer
constexpr int n_buffers = 3;                        // DMA in one, host threads in another, one ahead
constexpr size_t direct_below = size_t{256} << 10;  // smaller copies go straight through the driver
constexpr size_t min_chunk = size_t{1} << 20;       // a pipeline step; smaller ones cost more than they overlap
constexpr size_t min_piece = size_t{64} << 10;      // a host thread's share of a chunk, at least

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
        buffers_[b].emplace(buffer_bytes);
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

// A copy's parts taken in order as one run of bytes, cut into chunks that pass through the staging
// buffers in turn (a chunk may span parts). About sixteen chunks, so that the first chunk's host copy
// and the last one's DMA, which nothing overlaps, are a small part of the whole (a 134 MB graph in
// 32 MiB chunks left a fifth of its upload unoverlapped); chunks that grow from 1 MiB and shrink back
// at the ends were no faster (44-46 GB/s either way for 134 MiB on an H100's host).
class Chunks {
 public:
  explicit Chunks(std::span<const CopyPart> parts) : parts_(parts) {
    for (const CopyPart& p : parts) bytes_ += p.bytes;
    chunk_ = std::clamp((bytes_ / 16 + min_chunk - 1) / min_chunk * min_chunk, min_chunk, buffer_bytes);
  }
  size_t count() const noexcept { return (bytes_ + chunk_ - 1) / chunk_; }
  // Calls f(part, offset in the part, offset in the chunk, bytes) for each part's share of chunk c.
  template <class F>
  void each_piece(size_t c, F&& f) const {
    const size_t begin = c * chunk_, end = std::min(bytes_, begin + chunk_);
    size_t part_begin = 0;
    for (const CopyPart& p : parts_) {
      const size_t part_end = part_begin + p.bytes;
      const size_t from = std::max(begin, part_begin), to = std::min(end, part_end);
      if (from < to) f(p, from - part_begin, from - begin, to - from);
      part_begin = part_end;
    }
  }

 private:
  std::span<const CopyPart> parts_;
  size_t bytes_ = 0, chunk_ = 0;
};

// Copies into a staging buffer with stores that bypass the caches. An ordinary store first reads
// the line it writes (the buffer is larger than the caches, so every line misses), and the host's
// memory then carries four bytes per byte uploaded (read the source, read and write the buffer, the
// DMA engine's read) while the DMA engine shares it; streaming stores leave three.
void copy_to_staging(unsigned char* dst, const unsigned char* src, size_t bytes) {
#if defined(__SSE2__)
  constexpr size_t vector = sizeof(__m128i);
  const size_t head = std::min(bytes, (vector - reinterpret_cast<uintptr_t>(dst) % vector) % vector);
  std::memcpy(dst, src, head);
  size_t at = head;
  for (; at + vector <= bytes; at += vector) {
    const __m128i block = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + at));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + at), block);
  }
  std::memcpy(dst + at, src + at, bytes - at);
  _mm_sfence();  // the streamed lines reach memory before the DMA engine is told to read them
#else
  std::memcpy(dst, src, bytes);
#endif
}

// A copy by the calling thread's team, in pieces spread over every thread: a copy into fresh host
// pages is bound by their first touch, which then runs on all cores.
template <class Copy>
void parallel_copy(void* dst, const void* src, size_t bytes, Copy copy) {
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t piece = std::max(min_piece, (bytes + threads - 1) / threads);
  const auto pieces = static_cast<int64_t>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t begin = static_cast<size_t>(p) * piece;
    copy(static_cast<unsigned char*>(dst) + begin, static_cast<const unsigned char*>(src) + begin,
         std::min(piece, bytes - begin));
  }
}

// The same with `beside` run on the calling thread meanwhile; the other threads take its share of
// the pieces (smaller ones, handed out as they finish), and it joins them once done.
template <class Copy>
void parallel_copy_beside(void* dst, const void* src, size_t bytes, Copy copy, const std::function<void()>& beside) {
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t piece = std::max(min_piece, (bytes + 4 * threads - 1) / (4 * threads));
  const auto pieces = static_cast<int64_t>((bytes + piece - 1) / piece);
  std::exception_ptr failure;
#pragma omp parallel
  {
#pragma omp master
    try {
      beside();
    } catch (...) {
      failure = std::current_exception();
    }
#pragma omp for schedule(dynamic, 1) nowait
    for (int64_t p = 0; p < pieces; ++p) {
      const size_t begin = static_cast<size_t>(p) * piece;
      copy(static_cast<unsigned char*>(dst) + begin, static_cast<const unsigned char*>(src) + begin,
           std::min(piece, bytes - begin));
    }
  }
  if (failure) std::rethrow_exception(failure);
}

// Touches every page of a download's destination, the threads taking units in turn, while the first
// chunks' DMA runs. Fresh pages cost their first touch (a fault, and zeroing a huge page); the chunk
// copies split each chunk in pieces smaller than a huge page, so their threads queued on a few faults
// at a time (a 134 MiB download into fresh pages: 15 GB/s, against 48 into touched ones). A unit is
// a huge page (2 MiB) for large destinations and a share of every thread for small ones, whose 4 KiB
// pages each fault alone. Pages already touched cost one write each.
void first_touch(void* host, size_t bytes) {
  constexpr size_t huge_page = gql::detail::huge_page_bytes, page = size_t{4} << 10;
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t unit = std::min(huge_page, (bytes / threads + page - 1) / page * page + page);
  const auto units = static_cast<int64_t>((bytes + unit - 1) / unit);
  auto* const bytes_of = static_cast<volatile unsigned char*>(host);
#pragma omp parallel for schedule(static, 1) if (units > 1)
  for (int64_t u = 0; u < units; ++u) {
    const size_t end = std::min(bytes, static_cast<size_t>(u + 1) * unit);
    for (size_t at = static_cast<size_t>(u) * unit; at < end; at += page) bytes_of[at] = 0;
  }
}

// Page-locked host memory (cudaMallocHost, or registered with cudaHostRegister): the DMA engine
// reads and writes it in place, so staging would only add a host copy.
bool page_locked(const void* host) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, host) != cudaSuccess) {
    (void)cudaGetLastError();  // an unknown pointer is pageable memory, not an error
    return false;
  }
  return attributes.type == cudaMemoryTypeHost;
}

// A part that goes through the staging buffers: a large one whose host side is pageable. The others
// go straight through the driver.
bool needs_staging(const CopyPart& p, cudaMemcpyKind kind) {
  return p.bytes >= direct_below && !page_locked(kind == cudaMemcpyHostToDevice ? p.from : p.to);
}

// The parts that need no staging queued straight through the driver; returns the ones that must be
// staged.
std::vector<CopyPart> queue_direct(std::span<const CopyPart> parts, cudaMemcpyKind kind, const Stream& stream,
                                   const char* file, int line) {
  std::vector<CopyPart> staged;
  for (const CopyPart& p : parts) {
    if (p.bytes == 0) continue;
    if (needs_staging(p, kind)) staged.push_back(p);
    else copy_async(p.to, p.from, p.bytes, kind, stream, file, line);
  }
  return staged;
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
    DeviceBuffer<unsigned char> device(buffer_bytes * n_buffers);
    const StreamBuffer<unsigned char> pool_growth(buffer_bytes, stream);  // handed back to the pool, kept there
    for (int b = 0; b < n_buffers; ++b) {
      copy_async(device.data() + b * buffer_bytes, staging.buffer(b), buffer_bytes, cudaMemcpyHostToDevice, stream,
                 __FILE__, __LINE__);
      copy_async(staging.buffer(b), device.data() + b * buffer_bytes, buffer_bytes, cudaMemcpyDeviceToHost, stream,
                 __FILE__, __LINE__);
    }
    stream.synchronize();
  }
  stream.synchronize();
}

void download(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line) {
  const std::vector<CopyPart> staged = queue_direct(parts, cudaMemcpyDeviceToHost, stream, file, line);
  if (staged.empty()) return stream.synchronize();
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  const Chunks chunks(staged);
  const auto fill = [&](size_t c) {  // DMA: chunk c of the device into its buffer
    const int b = static_cast<int>(c % n_buffers);
    chunks.each_piece(c, [&](const CopyPart& p, size_t in_part, size_t in_chunk, size_t bytes) {
      copy_async(staging.buffer(b) + in_chunk, static_cast<const unsigned char*>(p.from) + in_part, bytes,
                 cudaMemcpyDeviceToHost, stream, file, line);
    });
    staging.event(b).record(stream);
  };
  for (size_t c = 0; c < std::min<size_t>(chunks.count(), n_buffers); ++c) fill(c);
  for (const CopyPart& p : staged) first_touch(p.to, p.bytes);
  for (size_t c = 0; c < chunks.count(); ++c) {
    const int b = static_cast<int>(c % n_buffers);
    staging.event(b).synchronize();
    chunks.each_piece(c, [&](const CopyPart& p, size_t in_part, size_t in_chunk, size_t bytes) {
      parallel_copy(static_cast<unsigned char*>(p.to) + in_part, staging.buffer(b) + in_chunk, bytes,
                    [](void* to, const void* from, size_t n) { std::memcpy(to, from, n); });
    });
    if (c + n_buffers < chunks.count()) fill(c + n_buffers);
  }
  // Done: the direct parts were queued before the first chunk, whose events have all been waited for.
}

void upload(std::span<CopyPart> parts, const std::function<void()>& allocate, const Stream& stream, const char* file,
            int line) {
  // Which parts are staged is decided by their host side, before they have a device side.
  std::vector<size_t> staged_at, direct_at;
  for (size_t i = 0; i < parts.size(); ++i)
    if (parts[i].bytes > 0) (needs_staging(parts[i], cudaMemcpyHostToDevice) ? staged_at : direct_at).push_back(i);
  const auto send_direct = [&] {
    for (const size_t i : direct_at)
      copy_async(parts[i].to, parts[i].from, parts[i].bytes, cudaMemcpyHostToDevice, stream, file, line);
  };
  if (staged_at.empty()) {
    allocate();
    send_direct();
    return stream.synchronize();
  }
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  std::vector<CopyPart> staged;
  for (const size_t i : staged_at) staged.push_back(parts[i]);
  const Chunks chunks(staged);
  const auto copy_in = [&](size_t c) {  // host threads: chunk c into its buffer
    chunks.each_piece(c, [&](const CopyPart& p, size_t in_part, size_t in_chunk, size_t bytes) {
      parallel_copy(staging.buffer(static_cast<int>(c % n_buffers)) + in_chunk,
                    static_cast<const unsigned char*>(p.from) + in_part, bytes, copy_to_staging);
    });
  };
  const auto send = [&](size_t c) {  // DMA: chunk c's buffer to the device
    const int b = static_cast<int>(c % n_buffers);
    chunks.each_piece(c, [&](const CopyPart& p, size_t in_part, size_t in_chunk, size_t bytes) {
      copy_async(static_cast<unsigned char*>(p.to) + in_part, staging.buffer(b) + in_chunk, bytes,
                 cudaMemcpyHostToDevice, stream, file, line);
    });
    staging.event(b).record(stream);
  };
  // The first chunk's first piece is copied beside the allocation; the chunk's other pieces (a chunk
  // may start with a short part) after it.
  bool allocated = false;
  chunks.each_piece(0, [&](const CopyPart& p, size_t in_part, size_t in_chunk, size_t bytes) {
    unsigned char* const to = staging.buffer(0) + in_chunk;
    const auto* const from = static_cast<const unsigned char*>(p.from) + in_part;
    if (allocated) return parallel_copy(to, from, bytes, copy_to_staging);
    parallel_copy_beside(to, from, bytes, copy_to_staging, allocate);
    allocated = true;
  });
  for (size_t k = 0; k < staged_at.size(); ++k) staged[k].to = parts[staged_at[k]].to;
  send_direct();
  send(0);
  for (size_t c = 1; c < chunks.count(); ++c) {
    if (c >= n_buffers) staging.event(static_cast<int>(c % n_buffers)).synchronize();  // its last DMA is done
    copy_in(c);
    send(c);
  }
  stream.synchronize();
}

void upload(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line) {
  std::vector<CopyPart> copy(parts.begin(), parts.end());
  upload(copy, [] {}, stream, file, line);
}

}  // namespace gql
