// Bit-sliced counters and the counting product's accumulator, against counts kept one int per column.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "gql/cpu/accumulator_count.hpp"
#include "gql/cpu/bit_sliced_counts.hpp"

namespace {

using gql::cpu::CountAccumulator;
using gql::cpu::detail::BitSlicedCounts;

// A bitmap of n columns, each set with probability `density`.
std::vector<uint64_t> random_bitmap(int64_t n, double density, std::mt19937_64& rng) {
  std::vector<uint64_t> words(static_cast<size_t>((n + 63) / 64), 0);
  std::bernoulli_distribution coin(density);
  for (int64_t j = 0; j < n; ++j)
    if (coin(rng)) words[static_cast<size_t>(j / 64)] |= uint64_t{1} << (j % 64);
  return words;
}

bool bit(const std::vector<uint64_t>& words, int64_t j) { return (words[static_cast<size_t>(j / 64)] >> (j % 64)) & 1; }

TEST(BitSlicedCounts, WordCountsAreTheTransposedPlanes) {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    std::array<uint64_t, BitSlicedCounts::max_planes> word{};
    for (auto& plane : word) plane = rng();
    uint8_t fast[64], portable[64];
    BitSlicedCounts::counts_of_word(word, fast);
    BitSlicedCounts::counts_of_word_portable(word, portable);
    for (int l = 0; l < 64; ++l) {
      unsigned want = 0;
      for (int b = 0; b < BitSlicedCounts::max_planes; ++b) want |= static_cast<unsigned>((word[b] >> l) & 1) << b;
      ASSERT_EQ(fast[l], want) << "column " << l;
      ASSERT_EQ(portable[l], want) << "column " << l;
    }
  }
}

TEST(BitSlicedCounts, AddingBitmapsCountsTheirColumns) {
  // Every number of bitmaps up to the most the planes hold, in adds of one to three.
  const int64_t n = 200;  // not a multiple of 64: the last word is partial
  const size_t n_words = static_cast<size_t>((n + 63) / 64);
  std::mt19937_64 rng(12);
  std::vector<std::vector<uint64_t>> bitmaps;
  for (int q = 0; q < BitSlicedCounts::max_count; ++q) bitmaps.push_back(random_bitmap(n, q % 5 == 0 ? 0.9 : 0.3, rng));
  BitSlicedCounts sliced(n_words);
  for (int64_t total : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7}, int64_t{8}, int64_t{100}, BitSlicedCounts::max_count}) {
    SCOPED_TRACE(testing::Message() << total << " bitmaps");
    sliced.begin(total);
    std::vector<uint64_t> present(n_words, 0);
    std::vector<const uint64_t*> pointers;
    for (int64_t q = 0; q < total; ++q) pointers.push_back(bitmaps[static_cast<size_t>(q)].data());
    for (int64_t q = 0; q < total;) {
      const int count = static_cast<int>(std::min<int64_t>(1 + (q % 3), total - q));
      sliced.add(pointers.data() + q, count, present.data());
      q += count;
    }
    sliced.with_planes([&]<int P>(std::integral_constant<int, P>) {
      for (size_t w = 0; w < n_words; ++w) {
        uint8_t counts[64];
        BitSlicedCounts::counts_of_word(sliced.take_word<P>(w), counts);
        for (int l = 0; l < 64; ++l) {
          const int64_t j = static_cast<int64_t>(w) * 64 + l;
          int want = 0;
          if (j < n)
            for (int64_t q = 0; q < total; ++q) want += bit(bitmaps[static_cast<size_t>(q)], j) ? 1 : 0;
          ASSERT_EQ(counts[l], want) << "column " << j;
          ASSERT_EQ(j < n && want > 0, ((present[w] >> l) & 1) != 0) << "presence of column " << j;
        }
      }
    });
    // take_word left every plane zero: the next total starts from nothing.
  }
}

TEST(CountAccumulator, ScatteredColumnsAndWholeBitmapsAddUp) {
  // Rows with no bitmap, a few, and more than the bit-sliced counters hold at once (their counts then
  // move into the 32-bit cells), each mixed with scattered columns; rows reuse the accumulator.
  const int64_t n = 333;
  std::mt19937_64 rng(13);
  std::vector<std::vector<uint64_t>> bitmaps;
  for (int q = 0; q < 600; ++q) bitmaps.push_back(random_bitmap(n, q % 7 == 0 ? 0.95 : 0.2, rng));
  CountAccumulator acc(n);
  for (int n_bitmaps : {0, 1, 5, 255, 256, 600, 3}) {
    SCOPED_TRACE(testing::Message() << n_bitmaps << " bitmaps");
    std::vector<uint32_t> want(static_cast<size_t>(n), 0);
    acc.begin_row();
    std::uniform_int_distribution<int64_t> column(0, n - 1);
    for (int q = 0; q < n_bitmaps; ++q) {
      acc.add_bitmap(bitmaps[static_cast<size_t>(q)].data());
      for (int64_t j = 0; j < n; ++j) want[static_cast<size_t>(j)] += bit(bitmaps[static_cast<size_t>(q)], j) ? 1 : 0;
      for (int extra = 0; extra < 3; ++extra) {  // scattered products between the bitmaps
        const auto j = static_cast<gql::index_t>(column(rng));
        acc.add(j);
        ++want[static_cast<size_t>(j)];
      }
    }
    for (int extra = 0; extra < 40; ++extra) {
      const auto j = static_cast<gql::index_t>(column(rng));
      acc.add(j);
      ++want[static_cast<size_t>(j)];
    }
    std::vector<std::pair<gql::index_t, uint32_t>> got;
    acc.emit([&](gql::index_t j, uint32_t count) { got.emplace_back(j, count); });
    std::vector<std::pair<gql::index_t, uint32_t>> expected;
    for (int64_t j = 0; j < n; ++j)
      if (want[static_cast<size_t>(j)] > 0) expected.emplace_back(static_cast<gql::index_t>(j), want[static_cast<size_t>(j)]);
    ASSERT_EQ(got, expected);
  }
}

}  // namespace
