// The host's packing of a narrowed upload (gql/copy_parts.hpp).
#include "gql/copy_parts.hpp"

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace gql::chunking {
namespace {

constexpr size_t min_piece = 16384;  // elements: a thread's share, at least

}  // namespace

// The low `wire` bytes of each of `count` elements of `element` bytes (4 or 8) at `src`, packed at
// `dst`, in pieces of at least `min_piece` elements spread over the threads. Each element is stored
// whole (one unaligned store, little-endian) and the next one overwrites its excess, so a thread
// stores the last `element / wire` of its range byte by byte, never past it.
void parallel_pack(unsigned char* dst, const unsigned char* src, size_t count, unsigned element, unsigned wire) {
  static_assert(std::endian::native == std::endian::little, "an element's low bytes come first");
  const auto threads = static_cast<size_t>(std::max(1, omp_get_max_threads()));
  const size_t piece = std::max<size_t>({min_piece, (count + threads - 1) / threads, 1});
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

}  // namespace gql::chunking
