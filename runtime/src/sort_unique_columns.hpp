// One row's column indices sorted and their repeats dropped, as the pattern build needs for every row.
// A row of a few dozen entries is cheapest by comparisons; a longer one (the rows of a few hundred to
// tens of thousands that hold most of a Kronecker graph's entries) by a least-significant-digit radix
// sort, a few passes of byte digits over the bits a column can have, about a tenth of the time of
// std::sort on them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>

#include "gql/graph.hpp"

namespace gql::detail {

inline constexpr int64_t radix_sorted_row = 64;  // entries from which a row is radix sorted
inline constexpr int radix_digit_bits = 8;
inline constexpr int max_radix_digits = 4;  // 32-bit columns

// Sorts [begin, end) (columns below 2^column_bits), drops repeats, returns the new end. `scratch` holds
// at least end - begin entries.
inline index_t* sort_unique_columns(index_t* begin, index_t* end, index_t* scratch, int column_bits) {
  const int64_t size = end - begin;
  if (size < radix_sorted_row) {
    std::sort(begin, end);
    return std::unique(begin, end);
  }
  constexpr int buckets = 1 << radix_digit_bits;
  const int digits = std::max(1, (column_bits + radix_digit_bits - 1) / radix_digit_bits);
  // Every digit's counts in one read of the row.
  std::array<std::array<int64_t, buckets>, max_radix_digits> counts{};
  for (const index_t* p = begin; p != end; ++p) {
    const auto key = static_cast<uint32_t>(*p);
    for (int d = 0; d < digits; ++d) ++counts[d][(key >> (d * radix_digit_bits)) & (buckets - 1)];
  }
  index_t* from = begin;
  index_t* to = scratch;
  for (int d = 0; d < digits; ++d) {
    auto& count = counts[d];
    const int shift = d * radix_digit_bits;
    if (count[(static_cast<uint32_t>(*from) >> shift) & (buckets - 1)] == size) continue;  // one digit: order kept
    int64_t next = 0;
    for (auto& c : count) next += std::exchange(c, next);
    for (const index_t* p = from; p != from + size; ++p)
      to[count[(static_cast<uint32_t>(*p) >> shift) & (buckets - 1)]++] = *p;
    std::swap(from, to);
  }
  if (from == begin) return std::unique(begin, end);
  // Sorted in the scratch: copy back without the repeats.
  index_t* out = begin;
  for (const index_t* p = from; p != from + size; ++p)
    if (out == begin || *p != out[-1]) *out++ = *p;
  return out;
}

}  // namespace gql::detail
