// The device half of a symmetric graph's upload (mirror_upper_rows.hpp). The whole graph's offsets
// are the scan of the rows' sizes (entries before the diagonal plus the upper part); each upper part
// is copied into place, a warp per row; then the entries above the diagonal are ordered by column
// with CUB's radix sort (stable: a column's entries keep their row order), so that the mirror of
// column j, its rows in order, lands before row j's diagonal.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <bit>
#include <string>

#include "mirror_upper_rows.hpp"
#include "small_launches.cuh"

namespace gql::detail {
namespace {

using gpu::launches::block;
using gpu::launches::grid_for;
constexpr int warp = 32;

// sizes[i] = row i's entries, lowers[i] = its entries before the diagonal; both 0 at i = n, so that
// their exclusive scans end with the totals.
__global__ void row_sizes(const uint32_t* lower, const uint32_t* upper, long long n, offset_t* sizes,
                          offset_t* lowers) {
  for (long long i = blockIdx.x * static_cast<long long>(block) + threadIdx.x; i <= n;
       i += static_cast<long long>(gridDim.x) * block) {
    sizes[i] = i < n ? offset_t{lower[i]} + upper[i] : 0;
    lowers[i] = i < n ? lower[i] : 0;
  }
}

// Row i's upper part, sent at offsets[i] - lower_start[i], goes after its lower[i] mirrored entries.
// Each entry also gets its sort key (its column, or n for a diagonal entry, which is not mirrored),
// its position and its row.
template <class Word>
__global__ void place_upper(const uint32_t* lower, const uint32_t* upper, const offset_t* offsets,
                            const offset_t* lower_start, long long n, const index_t* sent_columns,
                            const Word* sent_values, index_t* columns, Word* values, uint32_t* keys,
                            uint32_t* positions, uint32_t* rows) {
  const int lane = threadIdx.x % warp;
  const long long warps = static_cast<long long>(gridDim.x) * block / warp;
  for (long long i = (blockIdx.x * static_cast<long long>(block) + threadIdx.x) / warp; i < n; i += warps) {
    const offset_t from = offsets[i] - lower_start[i], to = offsets[i] + lower[i];
    const uint32_t count = upper[i];
    for (uint32_t k = lane; k < count; k += warp) {
      const offset_t p = from + k;
      const index_t c = sent_columns[p];
      columns[to + k] = c;
      if (values != nullptr) values[to + k] = sent_values[p];
      keys[p] = c > i ? static_cast<uint32_t>(c) : static_cast<uint32_t>(n);
      positions[p] = static_cast<uint32_t>(p);
      rows[p] = static_cast<uint32_t>(i);
    }
  }
}

// The q-th entry above the diagonal in column order, (i, j), is entry rank = q - lower_start[j] of
// row j's mirror. A rank outside row j's count of entries before its diagonal (or a key past the
// columns) means the counts sent were not the mirror's: flagged, nothing written.
template <class Word>
__global__ void place_lower(const uint32_t* sorted_keys, const uint32_t* sorted_positions, long long n_lower,
                            const uint32_t* lower, const offset_t* offsets, const offset_t* lower_start,
                            long long n, const uint32_t* rows, const Word* sent_values, index_t* columns,
                            Word* values, int* broken) {
  for (long long q = blockIdx.x * static_cast<long long>(block) + threadIdx.x; q < n_lower;
       q += static_cast<long long>(gridDim.x) * block) {
    const long long j = sorted_keys[q];
    const long long rank = j < n ? q - lower_start[j] : -1;
    if (rank < 0 || rank >= lower[j < n ? j : 0]) {
      *broken = 1;
      continue;
    }
    const uint32_t p = sorted_positions[q];
    columns[offsets[j] + rank] = static_cast<index_t>(rows[p]);
    if (values != nullptr) values[offsets[j] + rank] = sent_values[p];
  }
}

int key_bits(int64_t n) { return std::max(1, static_cast<int>(std::bit_width(static_cast<uint64_t>(n)))); }

size_t scan_bytes(int64_t n) {
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const offset_t*>(nullptr),
                                               static_cast<offset_t*>(nullptr), n + 1));
  return bytes;
}

size_t sort_bytes(int64_t n, uint64_t n_upper) {
  size_t bytes = 0;
  GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                                 static_cast<uint32_t*>(nullptr), static_cast<const uint32_t*>(nullptr),
                                                 static_cast<uint32_t*>(nullptr), static_cast<int64_t>(n_upper), 0,
                                                 key_bits(n)));
  return bytes;
}

}  // namespace

size_t mirror_scratch_bytes(int64_t n, uint64_t n_upper) {
  const auto rows = static_cast<size_t>(n) + 1;
  return 2 * rows * sizeof(offset_t) + rows * sizeof(offset_t) + 5 * n_upper * sizeof(uint32_t) +
         std::max(scan_bytes(n), sort_bytes(n, n_upper));
}

void mirror_upper_rows(const UpperRows& in, const DeviceCsrParts& out, const Stream& stream) {
  const int64_t n = in.n;
  const auto rows = static_cast<size_t>(n) + 1;
  StreamBuffer<offset_t> sizes(rows, stream), lowers(rows, stream), lower_start(rows, stream);
  row_sizes<<<grid_for(n + 1), block, 0, stream.get()>>>(in.lower, in.upper, n, sizes.data(), lowers.data());
  GQL_CUDA_CHECK_LAUNCH();
  {
    size_t bytes = scan_bytes(n);
    StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
    GQL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, sizes.data(), out.offsets, n + 1, stream.get()));
    GQL_CUDA_CHECK(
        cub::DeviceScan::ExclusiveSum(scratch.data(), bytes, lowers.data(), lower_start.data(), n + 1, stream.get()));
  }
  const auto n_upper = static_cast<size_t>(in.n_upper);
  StreamBuffer<uint32_t> keys(n_upper, stream), positions(n_upper, stream), row_of(n_upper, stream);
  StreamBuffer<uint32_t> sorted_keys(n_upper, stream), sorted_positions(n_upper, stream);
  StreamBuffer<int> broken(1, stream);
  memset_async(broken.data(), 0, sizeof(int), stream);
  // A pattern graph (no values) moves its columns only: any word will do.
  gpu::launches::with_word_of(in.value_bytes == 0 ? 1 : in.value_bytes, "mirror_upper_rows", [&](auto word) {
    using Word = decltype(word);
    const auto* sent_values = static_cast<const Word*>(in.values);
    auto* values = static_cast<Word*>(out.values);
    place_upper<Word><<<grid_for(n * warp), block, 0, stream.get()>>>(
        in.lower, in.upper, out.offsets, lower_start.data(), n, in.columns, sent_values, out.columns, values,
        keys.data(), positions.data(), row_of.data());
    GQL_CUDA_CHECK_LAUNCH();
    if (in.n_lower == 0) return;
    size_t bytes = sort_bytes(n, in.n_upper);
    StreamBuffer<unsigned char> scratch(std::max<size_t>(bytes, 1), stream);
    GQL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(scratch.data(), bytes, keys.data(), sorted_keys.data(),
                                                   positions.data(), sorted_positions.data(),
                                                   static_cast<int64_t>(n_upper), 0, key_bits(n), stream.get()));
    const auto n_lower = static_cast<long long>(in.n_lower);
    place_lower<Word><<<grid_for(n_lower), block, 0, stream.get()>>>(
        sorted_keys.data(), sorted_positions.data(), n_lower, in.lower, out.offsets, lower_start.data(), n,
        row_of.data(), sent_values, out.columns, values, broken.data());
    GQL_CUDA_CHECK_LAUNCH();
  });
  if (gpu::launches::read_back(broken.data(), stream) != 0)
    throw Error(ErrorKind::internal,
                "a graph marked symmetric is not: its entries before the diagonals are not the mirror of those after");
}

}  // namespace gql::detail
