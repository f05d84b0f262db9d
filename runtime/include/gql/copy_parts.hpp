// The parts of one copy between host and device memory (a graph's offsets, columns and values), and
// how a staged copy cuts them into chunks and packs the narrowed ones: the host half of
// runtime/src/cuda/staged_copy.cpp, plain C++ (no CUDA), so it is tested on every machine.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gql {

// One part of a copy: `bytes` from `from` to `to`. An upload's part of unsigned integers whose values
// all fit in fewer bytes than they are stored in (a graph's column ids below its column count, its row
// offsets below 2^32) may say so: it crosses the link `wire_bytes` per element and is widened on the
// device (the link is what an upload waits for: a 2^20-vertex graph's ids go in 3 bytes, not 4).
struct CopyPart {
  void* to;
  const void* from;
  size_t bytes;
  unsigned element_bytes = 0;  // 4 or 8 where the part is narrowed, else 0
  unsigned wire_bytes = 0;     // each element's bytes on the link, fewer than element_bytes
};

// The upload of `count` unsigned integers of `element_bytes` (4 or 8), each below `bound`: narrowed
// where `bound` leaves a byte or more of each element unused.
inline CopyPart narrowed_part(void* to, const void* from, size_t count, unsigned element_bytes, uint64_t bound) {
  const auto needed = static_cast<unsigned>((std::bit_width(bound > 0 ? bound - 1 : 0) + 7) / 8);
  const unsigned wire = std::max(1u, needed);
  CopyPart part{to, from, count * element_bytes};
  if (wire < element_bytes) {
    part.element_bytes = element_bytes;
    part.wire_bytes = wire;
  }
  return part;
}

namespace chunking {

// The bytes of a part that cross the link: fewer than it holds where it is narrowed (uploads only).
inline size_t wire_bytes_of(const CopyPart& p, bool narrow) {
  return narrow && p.wire_bytes != 0 ? p.bytes / p.element_bytes * p.wire_bytes : p.bytes;
}

// One part's share of a chunk: `wire` bytes at `in_chunk` of the staging buffer, which are the part's
// bytes from `in_part` on (for a narrowed part, whole elements: in_part / element_bytes of them before).
struct Piece {
  const CopyPart* part;
  size_t in_part, in_chunk, wire;
};

// A copy's parts taken in order as one run of link bytes, cut into chunks of `chunk_bytes()` or less
// (a chunk may span parts; a narrowed part is cut between elements). About sixteen chunks of whole
// MiBs between `min_chunk` and `max_chunk`, so that the first chunk's host copy and the last one's DMA,
// which nothing overlaps, are a small part of the whole (a 134 MB graph in 32 MiB chunks left a fifth
// of its upload unoverlapped); chunks that grow from 1 MiB and shrink back at the ends were no faster
// (44-46 GB/s either way for 134 MiB on an H100's host). `parts` must outlive the chunks.
class Chunks {
 public:
  Chunks(std::span<const CopyPart> parts, bool narrow, size_t min_chunk, size_t max_chunk) {
    size_t total = 0;
    for (const CopyPart& p : parts) total += wire_bytes_of(p, narrow);
    chunk_ = std::clamp((total / 16 + min_chunk - 1) / min_chunk * min_chunk, min_chunk, max_chunk);
    size_t used = chunk_;  // the current chunk's bytes: full, so the first piece opens one
    for (const CopyPart& p : parts) {
      const bool narrowed = narrow && p.wire_bytes != 0;
      const size_t unit_in = narrowed ? p.element_bytes : 1, unit_wire = narrowed ? p.wire_bytes : 1;
      for (size_t in_part = 0; in_part < p.bytes;) {
        if (chunk_ - used < unit_wire) {
          chunks_.emplace_back();
          used = 0;
        }
        const size_t units = std::min((p.bytes - in_part) / unit_in, (chunk_ - used) / unit_wire);
        chunks_.back().push_back({&p, in_part, used, units * unit_wire});
        in_part += units * unit_in;
        used += units * unit_wire;
      }
    }
  }
  size_t count() const noexcept { return chunks_.size(); }
  size_t chunk_bytes() const noexcept { return chunk_; }
  const std::vector<Piece>& pieces(size_t c) const noexcept { return chunks_[c]; }

 private:
  size_t chunk_ = 0;
  std::vector<std::vector<Piece>> chunks_;
};

// The low `wire` bytes of each of `count` elements of `element` bytes (4 or 8) at `src`, packed at
// `dst` by the calling thread's OpenMP team (runtime/src/copy_parts.cpp).
void parallel_pack(unsigned char* dst, const unsigned char* src, size_t count, unsigned element, unsigned wire);

}  // namespace chunking
}  // namespace gql
