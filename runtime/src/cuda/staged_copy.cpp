// Copies between pageable host memory and the device at the link's speed. A pageable cudaMemcpy
// moves a few GB/s (the driver stages it through its own small pinned buffers, one at a time) and
// leaves the first touch of fresh destination pages to one thread. Here the DMA engine fills (or
// drains) one of a few pinned staging buffers, kept for the process, while the host's threads copy
// another out (or in), touching the host pages in parallel. An upload's narrowed parts (integers whose
// values fit in fewer bytes, gql/device.hpp's CopyPart) are packed by the host threads instead, cross
// the link in their narrow width into a device twin of the staging buffer, and are widened into
// place there: the link, not the host's copy, bounds a large upload.
#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "gql/device.hpp"
#include "widen_ids.hpp"

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
        // The runtime's own, as the pinned buffers are: outside the values' budget, never freed.
        cuda_check(cudaMalloc(&device_buffers_[b], buffer_bytes), "cudaMalloc (staging)", __FILE__, __LINE__);
        events_[b].emplace();
      }
    }
    return lock;
  }
  unsigned char* buffer(int b) { return buffers_[b]->data(); }
  // Where a narrowed piece lands on the device before it is widened into its place.
  unsigned char* device_buffer(int b) { return static_cast<unsigned char*>(device_buffers_[b]); }
  Event& event(int b) { return *events_[b]; }

 private:
  std::mutex mutex_;
  std::optional<HostBuffer<unsigned char>> buffers_[n_buffers];
  void* device_buffers_[n_buffers] = {};
  std::optional<Event> events_[n_buffers];
};

// The bytes of a part that cross the link: fewer than it holds where it is narrowed (uploads only).
size_t wire_bytes_of(const CopyPart& p, bool narrow) {
  return narrow && p.wire_bytes != 0 ? p.bytes / p.element_bytes * p.wire_bytes : p.bytes;
}

// One part's share of a chunk: `wire` bytes at `in_chunk` of the staging buffer, which are the part's
// bytes from `in_part` on (for a narrowed part, whole elements: in_part / element_bytes of them before).
struct Piece {
  const CopyPart* part;
  size_t in_part, in_chunk, wire;
};

// A copy's parts taken in order as one run of link bytes, cut into chunks that pass through the
// staging buffers in turn (a chunk may span parts; a narrowed part is cut between elements). About
// sixteen chunks, so that the first chunk's host copy and the last one's DMA, which nothing overlaps,
// are a small part of the whole (a 134 MB graph in 32 MiB chunks left a fifth of its upload
// unoverlapped); chunks that grow from 1 MiB and shrink back at the ends were no faster (44-46 GB/s
// either way for 134 MiB on an H100's host).
class Chunks {
 public:
  Chunks(std::span<const CopyPart> parts, bool narrow) {
    size_t total = 0;
    for (const CopyPart& p : parts) total += wire_bytes_of(p, narrow);
    const size_t chunk = std::clamp((total / 16 + min_chunk - 1) / min_chunk * min_chunk, min_chunk, buffer_bytes);
    size_t used = chunk;  // the current chunk's bytes: full, so the first piece opens one
    for (const CopyPart& p : parts) {
      const bool narrowed = narrow && p.wire_bytes != 0;
      const size_t unit_in = narrowed ? p.element_bytes : 1, unit_wire = narrowed ? p.wire_bytes : 1;
      for (size_t in_part = 0; in_part < p.bytes;) {
        if (chunk - used < unit_wire) {
          chunks_.emplace_back();
          used = 0;
        }
        const size_t units = std::min((p.bytes - in_part) / unit_in, (chunk - used) / unit_wire);
        chunks_.back().push_back({&p, in_part, used, units * unit_wire});
        in_part += units * unit_in;
        used += units * unit_wire;
      }
    }
  }
  size_t count() const noexcept { return chunks_.size(); }
  const std::vector<Piece>& pieces(size_t c) const noexcept { return chunks_[c]; }

 private:
  std::vector<std::vector<Piece>> chunks_;
};

// memcpy by the calling thread's team, in pieces spread over every thread: a copy into fresh host
// pages is bound by their first touch, which then runs on all cores.
void parallel_copy(void* dst, const void* src, size_t bytes) {
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t piece = std::max(min_piece, (bytes + threads - 1) / threads);
  const auto pieces = static_cast<int64_t>((bytes + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t begin = static_cast<size_t>(p) * piece;
    std::memcpy(static_cast<unsigned char*>(dst) + begin, static_cast<const unsigned char*>(src) + begin,
                std::min(piece, bytes - begin));
  }
}

// The low `wire` bytes of each of `count` elements of `element` bytes at `src`, packed at `dst`, in
// pieces spread over every thread. Each element is stored whole (one unaligned store, little-endian)
// and the next one overwrites its excess, so a thread stores the last `element / wire` of its range
// byte by byte, never past it.
void parallel_pack(unsigned char* dst, const unsigned char* src, size_t count, unsigned element, unsigned wire) {
  static_assert(std::endian::native == std::endian::little, "an element's low bytes come first");
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t piece = std::max(min_piece / element, (count + threads - 1) / threads);
  const auto pieces = static_cast<int64_t>((count + piece - 1) / piece);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (int64_t p = 0; p < pieces; ++p) {
    const size_t begin = static_cast<size_t>(p) * piece, end = std::min(count, begin + piece);
    const size_t whole_end = end - std::min<size_t>(end - begin, element / wire);
    size_t i = begin;
    if (element == 4) {
      for (; i < whole_end; ++i) std::memcpy(dst + i * wire, src + i * 4, 4);
    } else {
      for (; i < whole_end; ++i) std::memcpy(dst + i * wire, src + i * 8, 8);
    }
    for (; i < end; ++i) std::memcpy(dst + i * wire, src + i * element, wire);
  }
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

// The parts that need no staging (small, or page-locked on the host side) queued straight through
// the driver; returns the ones that must be staged.
std::vector<CopyPart> queue_direct(std::span<const CopyPart> parts, cudaMemcpyKind kind, const Stream& stream,
                                   const char* file, int line) {
  std::vector<CopyPart> staged;
  for (const CopyPart& p : parts) {
    if (p.bytes == 0) continue;
    const void* host = kind == cudaMemcpyHostToDevice ? p.from : p.to;
    if (p.bytes >= direct_below && !page_locked(host)) staged.push_back(p);
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
  // 6 ms for the same copy once warm): each staging buffer goes to its device twin (cudaMalloc'ed)
  // and back once, and the pool grows once.
  const Stream stream;
  {
    const StreamBuffer<unsigned char> pool_growth(buffer_bytes, stream);  // handed back to the pool, kept there
    for (int b = 0; b < n_buffers; ++b) {
      copy_async(staging.device_buffer(b), staging.buffer(b), buffer_bytes, cudaMemcpyHostToDevice, stream, __FILE__,
                 __LINE__);
      copy_async(staging.buffer(b), staging.device_buffer(b), buffer_bytes, cudaMemcpyDeviceToHost, stream, __FILE__,
                 __LINE__);
    }
    stream.synchronize();
  }
}

CopyPart narrowed_part(void* to, const void* from, size_t count, unsigned element_bytes, uint64_t bound) {
  const auto needed = static_cast<unsigned>((std::bit_width(bound > 0 ? bound - 1 : 0) + 7) / 8);
  const unsigned wire = std::max(1u, needed);
  CopyPart part{to, from, count * element_bytes};
  if (wire < element_bytes) {
    part.element_bytes = element_bytes;
    part.wire_bytes = wire;
  }
  return part;
}

void download(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line) {
  const std::vector<CopyPart> staged = queue_direct(parts, cudaMemcpyDeviceToHost, stream, file, line);
  if (staged.empty()) return stream.synchronize();
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  const Chunks chunks(staged, false);
  const auto fill = [&](size_t c) {  // DMA: chunk c of the device into its buffer
    const int b = static_cast<int>(c % n_buffers);
    for (const Piece& piece : chunks.pieces(c))
      copy_async(staging.buffer(b) + piece.in_chunk, static_cast<const unsigned char*>(piece.part->from) + piece.in_part,
                 piece.wire, cudaMemcpyDeviceToHost, stream, file, line);
    staging.event(b).record(stream);
  };
  for (size_t c = 0; c < std::min<size_t>(chunks.count(), n_buffers); ++c) fill(c);
  for (const CopyPart& p : staged) first_touch(p.to, p.bytes);
  for (size_t c = 0; c < chunks.count(); ++c) {
    const int b = static_cast<int>(c % n_buffers);
    staging.event(b).synchronize();
    for (const Piece& piece : chunks.pieces(c))
      parallel_copy(static_cast<unsigned char*>(piece.part->to) + piece.in_part, staging.buffer(b) + piece.in_chunk,
                    piece.wire);
    if (c + n_buffers < chunks.count()) fill(c + n_buffers);
  }
  // Done: the direct parts were queued before the first chunk, whose events have all been waited for.
}

void upload(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line) {
  const std::vector<CopyPart> staged = queue_direct(parts, cudaMemcpyHostToDevice, stream, file, line);
  if (staged.empty()) return stream.synchronize();
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  const Chunks chunks(staged, true);
  for (size_t c = 0; c < chunks.count(); ++c) {
    const int b = static_cast<int>(c % n_buffers);
    if (c >= n_buffers) staging.event(b).synchronize();  // the DMA out of this buffer (and its widening) is done
    for (const Piece& piece : chunks.pieces(c)) {
      const CopyPart& p = *piece.part;
      const auto* from = static_cast<const unsigned char*>(p.from) + piece.in_part;
      auto* to = static_cast<unsigned char*>(p.to) + piece.in_part;
      unsigned char* host = staging.buffer(b) + piece.in_chunk;
      if (p.wire_bytes == 0) {
        parallel_copy(host, from, piece.wire);
        copy_async(to, host, piece.wire, cudaMemcpyHostToDevice, stream, file, line);
      } else {
        const size_t count = piece.wire / p.wire_bytes;
        parallel_pack(host, from, count, p.element_bytes, p.wire_bytes);
        unsigned char* device = staging.device_buffer(b) + piece.in_chunk;
        copy_async(device, host, piece.wire, cudaMemcpyHostToDevice, stream, file, line);
        gpu::widen_on_device(device, p.wire_bytes, to, p.element_bytes, count, stream);
      }
    }
    staging.event(b).record(stream);
  }
  stream.synchronize();
}

}  // namespace gql
