// The device half of a symmetric graph's upload (mirror_upper_rows.hpp). The whole graph's offsets
// are the scan of the rows' sizes (entries before the diagonal plus the upper part); each upper part
// is copied into place, a warp per row; then the entries above the diagonal are ordered by column
// with CUB's radix sort (stable: a column's entries keep their row order), so that the mirror of
// column j, its rows in order, lands before row j's diagonal.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>

#include "mirror_upper_rows.hpp"
#include "small_launches.cuh"

namespace gql::detail {
namespace {

using gpu::launches::block;
using gpu::launches::grid_for;
constexpr int warp = 32;
constexpr size_t align = 256;

size_t aligned(size_t bytes) { return (bytes + align - 1) / align * align; }

int key_bits(int64_t n) { return std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(n)))); }

// CUB's scratch for the scans of n + 1 offsets and the sort of `bound` pairs in double buffers.
size_t cub_bytes_for(int64_t n, uint64_t bound) {
  size_t scan = 0, sort = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan, static_cast<offset_t*>(nullptr),
                                               static_cast<offset_t*>(nullptr), n + 1));
  cub::DoubleBuffer<uint32_t> keys(nullptr, nullptr), values(nullptr, nullptr);
  GQL_CUDA_CHECK(
      cub::DeviceRadixSort::SortPairs(nullptr, sort, keys, values, static_cast<int64_t>(bound), 0, key_bits(n)));
  return std::max<size_t>({scan, sort, 1});
}

// The pieces of one allocation, in order: their sizes.
struct Layout {
  size_t lower, upper, columns, values, sort_values, alt_keys, alt_values, lower_start, broken, cub;
  size_t total() const {
    return lower + upper + columns + values + sort_values + alt_keys + alt_values + lower_start + broken + cub;
  }
};
Layout layout(int64_t n, uint64_t bound, size_t value_bytes) {
  const size_t rows = aligned(static_cast<size_t>(n) * sizeof(uint32_t));
  const size_t entries = aligned(bound * sizeof(uint32_t));
  return {rows,    rows,    entries, aligned(bound * value_bytes), entries,
          entries, entries, aligned((static_cast<size_t>(n) + 1) * sizeof(offset_t)), align,
          aligned(cub_bytes_for(n, bound))};
}

// offsets[i] = row i's entries, lower_start[i] = its entries before the diagonal; both 0 at i = n:
// scanned in place, they become the graph's offsets and each row's first mirrored entry in column
// order.
__global__ void row_sizes(const uint32_t* lower, const uint32_t* upper, long long n, offset_t* offsets,
                          offset_t* lower_start) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i <= n;
       i += static_cast<long long>(gridDim.x) * block) {
    offsets[i] = i < n ? offset_t{lower[i]} + upper[i] : 0;
    lower_start[i] = i < n ? lower[i] : 0;
  }
}

// Row i's upper part, sent from offsets[i] - lower_start[i] on, goes after its lower[i] mirrored
// entries. Each sent column becomes the entry's sort key (n for a diagonal entry, which is not
// mirrored), with its row (a pattern graph) or its position (to find its value) as the sort's value.
template <class Word>
__global__ void place_upper(const uint32_t* lower, const uint32_t* upper, const offset_t* offsets,
                            const offset_t* lower_start, long long n, uint32_t* sent_columns, const Word* sent_values,
                            index_t* columns, Word* values, uint32_t* sort_values) {
  const int lane = threadIdx.x % warp;
  const long long warps = static_cast<long long>(gridDim.x) * block / warp;
  for (long long i = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / warp; i < n; i += warps) {
    const offset_t from = offsets[i] - lower_start[i], to = offsets[i] + lower[i];
    const uint32_t count = upper[i];
    for (uint32_t k = lane; k < count; k += warp) {
      const offset_t p = from + k;
      const uint32_t c = sent_columns[p];
      columns[to + k] = static_cast<index_t>(c);
      if (values != nullptr) values[to + k] = sent_values[p];
      sent_columns[p] = c > i ? c : static_cast<uint32_t>(n);
      sort_values[p] = values != nullptr ? static_cast<uint32_t>(p) : static_cast<uint32_t>(i);
    }
  }
}

// The row whose sent upper part holds position p (offsets - lower_start are the sent rows' offsets).
__device__ long long sent_row(const offset_t* offsets, const offset_t* lower_start, long long n, long long p) {
  long long lo = 0, hi = n;
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (offsets[mid] - lower_start[mid] <= p) lo = mid;
    else hi = mid;
  }
  return lo;
}

// The q-th entry above the diagonal in column order, (i, j), is entry rank = q - lower_start[j] of
// row j's mirror. A rank outside row j's count of entries before its diagonal (or a key past the
// columns) means the counts sent were not the mirror's: flagged, nothing written.
template <class Word>
__global__ void place_lower(const uint32_t* sorted_keys, const uint32_t* sorted_values, long long n_lower,
                            const uint32_t* lower, const offset_t* offsets, const offset_t* lower_start, long long n,
                            const Word* sent_values, index_t* columns, Word* values, int* broken) {
  for (long long q = blockIdx.x * static_cast<long long>(block) + threadIdx.x; q < n_lower;
       q += static_cast<long long>(gridDim.x) * block) {
    const long long j = sorted_keys[q];
    const long long rank = j < n ? q - lower_start[j] : -1;
    if (rank < 0 || rank >= lower[j]) {
      *broken = 1;
      continue;
    }
    const offset_t at = offsets[j] + rank;
    if (values == nullptr) {
      columns[at] = static_cast<index_t>(sorted_values[q]);
    } else {
      const uint32_t p = sorted_values[q];
      columns[at] = static_cast<index_t>(sent_row(offsets, lower_start, n, p));
      values[at] = sent_values[p];
    }
  }
}

}  // namespace

size_t mirror_buffer_bytes(int64_t n, uint64_t bound, size_t value_bytes) {
  return layout(n, bound, value_bytes).total();
}

MirrorBuffers mirror_buffers(int64_t n, uint64_t bound, size_t value_bytes) {
  const Layout sizes = layout(n, bound, value_bytes);
  MirrorBuffers b;
  b.memory = DeviceBuffer<unsigned char>(sizes.total());
  b.n = n, b.bound = bound, b.value_bytes = value_bytes;
  unsigned char* at = b.memory.data();
  const auto take = [&](size_t bytes) { return std::exchange(at, at + bytes); };
  b.lower = reinterpret_cast<uint32_t*>(take(sizes.lower));
  b.upper = reinterpret_cast<uint32_t*>(take(sizes.upper));
  b.columns = reinterpret_cast<uint32_t*>(take(sizes.columns));
  b.values = take(sizes.values);
  b.sort_values = reinterpret_cast<uint32_t*>(take(sizes.sort_values));
  b.alt_keys = reinterpret_cast<uint32_t*>(take(sizes.alt_keys));
  b.alt_values = reinterpret_cast<uint32_t*>(take(sizes.alt_values));
  b.lower_start = reinterpret_cast<offset_t*>(take(sizes.lower_start));
  b.broken = reinterpret_cast<int*>(take(sizes.broken));
  b.cub = take(sizes.cub);
  b.cub_bytes = sizes.cub;
  return b;
}

void mirror_upper_rows(MirrorBuffers& b, uint64_t n_upper, uint64_t n_lower, const DeviceCsrParts& out,
                       const Stream& stream) {
  const long long n = b.n;
  row_sizes<<<grid_for(n + 1), block, 0, stream.get()>>>(b.lower, b.upper, n, out.offsets, b.lower_start);
  GQL_CUDA_CHECK_LAUNCH();
  size_t bytes = b.cub_bytes;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b.cub, bytes, out.offsets, out.offsets, n + 1, stream.get()));
  bytes = b.cub_bytes;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(b.cub, bytes, b.lower_start, b.lower_start, n + 1, stream.get()));
  memset_async(b.broken, 0, sizeof(int), stream);
  // A pattern graph (no values) moves its columns only: any word will do.
  gpu::launches::with_word_of(b.value_bytes == 0 ? 1 : b.value_bytes, "mirror_upper_rows", [&](auto word) {
    using Word = decltype(word);
    const Word* sent_values = b.value_bytes == 0 ? nullptr : reinterpret_cast<const Word*>(b.values);
    auto* values = static_cast<Word*>(out.values);
    place_upper<Word><<<grid_for(n * warp), block, 0, stream.get()>>>(b.lower, b.upper, out.offsets, b.lower_start, n,
                                                                      b.columns, sent_values, out.columns, values,
                                                                      b.sort_values);
    GQL_CUDA_CHECK_LAUNCH();
    if (n_lower == 0) return;
    cub::DoubleBuffer<uint32_t> keys(b.columns, b.alt_keys), sort_values(b.sort_values, b.alt_values);
    size_t sort_bytes = b.cub_bytes;
    GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(b.cub, sort_bytes, keys, sort_values, static_cast<int64_t>(n_upper),
                                                   0, key_bits(n), stream.get()));
    place_lower<Word><<<grid_for(static_cast<int64_t>(n_lower)), block, 0, stream.get()>>>(
        keys.Current(), sort_values.Current(), static_cast<long long>(n_lower), b.lower, out.offsets, b.lower_start,
        n, sent_values, out.columns, values, b.broken);
    GQL_CUDA_CHECK_LAUNCH();
  });
  if (gpu::launches::read_back(b.broken, stream) != 0)
    throw Error(ErrorKind::internal,
                "a graph marked symmetric is not: its entries before the diagonals are not the mirror of those after");
}

}  // namespace gql::detail
