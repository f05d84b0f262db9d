// A symmetric graph's upload by its upper triangle (gql/device.hpp). Row i of a symmetric graph
// holds, before its diagonal, exactly the rows j < i whose entries from their diagonal on name i: the
// mirror of the upper triangle. So only each row's counts (entries before its diagonal, and from it
// on) and its entries from the diagonal on cross the link, and the device rebuilds the rest
// (mirror_upper_rows.cu). The host side is the staged upload's pipeline (staged_copy.cpp) in rows:
// the host's threads find each row's diagonal and copy the row's upper part into one staging buffer
// while the DMA engine drains another. A 134 MB kron:20 graph sends 71 MB.
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gql/device.hpp"
#include "mirror_upper_rows.hpp"
#include "staging.hpp"

namespace gql::detail {
namespace {

using staging::buffer_bytes;
using staging::min_chunk;
using staging::n_buffers;
using staging::Staging;

// Below this many entries the mirroring's launches cost about what the halved transfer saves.
constexpr int64_t min_entries = int64_t{1} << 22;

struct Counts {
  uint64_t upper = 0, lower = 0, diagonal = 0;
  Counts& operator+=(const Counts& o) {
    upper += o.upper, lower += o.lower, diagonal += o.diagonal;
    return *this;
  }
};

// The entries from the diagonal on of a symmetric graph of n rows and nvals entries: at most half
// of them plus the diagonal.
uint64_t upper_bound_of(int64_t n, int64_t nvals) {
  return (static_cast<uint64_t>(nvals) + static_cast<uint64_t>(std::min(n, nvals)) + 1) / 2;
}

// Where a chunk's parts lie in its staging buffer: the rows' two counts, then the upper columns, then
// (8-byte aligned) their values.
struct ChunkLayout {
  size_t columns_at, values_at, bytes;
};
ChunkLayout layout(int64_t rows, uint64_t upper, size_t value_bytes) {
  const size_t columns_at = 2 * sizeof(uint32_t) * static_cast<size_t>(rows);
  const size_t values_at = (columns_at + upper * sizeof(index_t) + 7) / 8 * 8;
  return {columns_at, values_at, values_at + upper * value_bytes};
}

// Rows weighed by what they hold on the host (two counts each, and their entries), so that chunks and
// the threads' shares of a chunk are cut by bytes rather than rows (a power-law graph's rows differ
// by orders of magnitude).
class RowWeights {
 public:
  explicit RowWeights(const HostCsrParts& g) : g_(g), entry_bytes_(sizeof(index_t) + g.value_bytes) {}
  uint64_t at(int64_t r) const {
    return 2 * sizeof(uint32_t) * static_cast<uint64_t>(r) + static_cast<uint64_t>(g_.offsets[r]) * entry_bytes_;
  }
  uint64_t total() const { return at(g_.n); }
  // The first row r in [lo, hi] with at(r) >= weight (hi if none).
  int64_t first_at(int64_t lo, int64_t hi, uint64_t weight) const {
    while (lo < hi) {
      const int64_t mid = lo + (hi - lo) / 2;
      if (at(mid) < weight) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

 private:
  const HostCsrParts& g_;
  uint64_t entry_bytes_;
};

// One chunk's rows in a staging buffer. `fits`: its upper entries are there too; otherwise the chunk
// is one row too large for a buffer, whose upper entries go straight from the graph.
struct Filled {
  Counts counts;
  bool fits = true;
};

Filled fill_chunk(const HostCsrParts& g, const RowWeights& weights, int64_t r0, int64_t r1, unsigned char* buffer) {
  const int64_t rows = r1 - r0;
  auto* const lower = reinterpret_cast<uint32_t*>(buffer);
  auto* const upper = lower + rows;
  std::vector<Counts> per_thread(static_cast<size_t>(std::max(1, omp_get_max_threads())));
  Filled filled;
  const uint64_t w0 = weights.at(r0), w = weights.at(r1) - w0;
#pragma omp parallel
  {
    const int t = omp_get_thread_num(), threads = omp_get_num_threads();
    const int64_t a = weights.first_at(r0, r1, w0 + w * t / threads);
    const int64_t b = weights.first_at(r0, r1, w0 + w * (t + 1) / threads);
    Counts mine;
    for (int64_t i = a; i < b; ++i) {
      const index_t* const row = g.columns + g.offsets[i];
      const index_t* const end = g.columns + g.offsets[i + 1];
      const index_t* const diagonal = std::lower_bound(row, end, static_cast<index_t>(i));
      lower[i - r0] = static_cast<uint32_t>(diagonal - row);
      upper[i - r0] = static_cast<uint32_t>(end - diagonal);
      mine.lower += static_cast<uint64_t>(diagonal - row);
      mine.upper += static_cast<uint64_t>(end - diagonal);
      mine.diagonal += diagonal != end && *diagonal == i;
    }
    per_thread[static_cast<size_t>(t)] = mine;
#pragma omp barrier
#pragma omp single
    {
      for (int k = 0; k < threads; ++k) filled.counts += per_thread[static_cast<size_t>(k)];
      filled.fits = layout(rows, filled.counts.upper, g.value_bytes).bytes <= buffer_bytes;
    }
    if (filled.fits) {
      const ChunkLayout at = layout(rows, filled.counts.upper, g.value_bytes);
      uint64_t base = 0;
      for (int k = 0; k < t; ++k) base += per_thread[static_cast<size_t>(k)].upper;
      for (int64_t i = a; i < b; ++i) {
        const offset_t from = g.offsets[i] + lower[i - r0];
        const size_t count = upper[i - r0];
        std::memcpy(buffer + at.columns_at + base * sizeof(index_t), g.columns + from, count * sizeof(index_t));
        if (g.value_bytes != 0)
          std::memcpy(buffer + at.values_at + base * g.value_bytes,
                      static_cast<const unsigned char*>(g.values) + static_cast<size_t>(from) * g.value_bytes,
                      count * g.value_bytes);
        base += count;
      }
    }
  }
  return filled;
}

[[noreturn]] void not_symmetric(const Stream& stream, const std::string& why) {
  stream.synchronize();  // the staging buffers' DMAs end before another copy may take them
  throw Error(ErrorKind::internal, "a graph marked symmetric is not: " + why);
}

}  // namespace

bool mirrored_upload_pays(int64_t n, int64_t nvals, size_t value_bytes) {
  if (nvals < min_entries) return false;
  const uint64_t bound = upper_bound_of(n, nvals);
  if (bound > std::numeric_limits<uint32_t>::max()) return false;  // the mirroring's positions are 32-bit
  const size_t scratch = mirror_buffer_bytes(n, bound, value_bytes);
  return scratch + scratch / 8 <= MemoryBudget::global().available();
}

void upload_mirrored(const HostCsrParts& g, const DeviceCsrParts& to, const Stream& stream) {
  MirrorBuffers device = mirror_buffers(g.n, upper_bound_of(g.n, g.nvals), g.value_bytes);
  const RowWeights weights(g);
  // About sixteen chunks, as in the staged upload: the first chunk's host work and the last one's DMA,
  // which nothing overlaps, stay a small part of the whole.
  const uint64_t limit = std::clamp<uint64_t>((weights.total() / 16 + min_chunk - 1) / min_chunk * min_chunk,
                                              min_chunk, buffer_bytes - 8);
  Staging& staging = Staging::process();
  const auto lock = staging.acquire();
  Counts sent;
  for (int64_t r0 = 0, c = 0; r0 < g.n; ++c) {
    const int64_t r1 = std::max(r0 + 1, weights.first_at(r0 + 1, g.n + 1, weights.at(r0) + limit + 1) - 1);
    const int b = static_cast<int>(c % n_buffers);
    if (c >= n_buffers) staging.event(b).synchronize();  // the DMA out of this buffer is done
    unsigned char* const buffer = staging.buffer(b);
    const Filled filled = fill_chunk(g, weights, r0, r1, buffer);
    if (sent.upper + filled.counts.upper > device.bound)
      not_symmetric(stream, std::to_string(sent.upper + filled.counts.upper) + " entries from the diagonals on of " +
                                std::to_string(g.nvals));
    const auto rows = static_cast<size_t>(r1 - r0);
    const ChunkLayout at = layout(r1 - r0, filled.counts.upper, g.value_bytes);
    const size_t count = filled.counts.upper;
    copy_async(device.lower + r0, buffer, rows * sizeof(uint32_t), cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
    copy_async(device.upper + r0, buffer + rows * sizeof(uint32_t), rows * sizeof(uint32_t), cudaMemcpyHostToDevice,
               stream, __FILE__, __LINE__);
    const offset_t from = g.offsets[r0] + reinterpret_cast<const uint32_t*>(buffer)[0];  // a row too large: its own
    const void* const column_source = filled.fits ? buffer + at.columns_at : static_cast<const void*>(g.columns + from);
    copy_async(device.columns + sent.upper, column_source, count * sizeof(index_t), cudaMemcpyHostToDevice, stream,
               __FILE__, __LINE__);
    if (g.value_bytes != 0) {
      const void* const value_source =
          filled.fits ? buffer + at.values_at
                      : static_cast<const void*>(static_cast<const unsigned char*>(g.values) +
                                                 static_cast<size_t>(from) * g.value_bytes);
      copy_async(device.values + sent.upper * g.value_bytes, value_source, count * g.value_bytes,
                 cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
    }
    staging.event(b).record(stream);
    sent += filled.counts;
    r0 = r1;
  }
  if (sent.lower + sent.diagonal != sent.upper)
    not_symmetric(stream, std::to_string(sent.lower) + " entries before the diagonals against " +
                              std::to_string(sent.upper - sent.diagonal) + " after them");
  mirror_upper_rows(device, sent.upper, sent.lower, to, stream);  // waits for its check: the staging buffers are free
}

}  // namespace gql::detail
