// The CPU model of the device hybrid sort and reduce-by-key against std::stable_sort references.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "hybrid_sort_model.hpp"

namespace {

enum class Pattern { random, few_distinct, all_equal, sorted, reversed };

std::vector<int> make_keys(Pattern pattern, int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> keys(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    switch (pattern) {
      case Pattern::random: keys[i] = static_cast<int>(rng() % 1000003); break;
      case Pattern::few_distinct: keys[i] = static_cast<int>(rng() % 7); break;
      case Pattern::all_equal: keys[i] = 42; break;
      case Pattern::sorted: keys[i] = i / 3; break;
      case Pattern::reversed: keys[i] = n - i; break;
    }
  }
  return keys;
}

const std::vector<int>& lengths() {
  static const std::vector<int> all = {1,    2,    3,    4,    5,    7,     8,     9,     15,    16,   17,
                                       31,   33,   63,   64,   65,   127,   128,   129,   255,   256,  257,
                                       511,  513,  1000, 1023, 1024, 1025,  2047,  2048,  2049,  3000, 4095,
                                       4096, 4097, 6144, 8191, 9999, 16385, 33333, 65536, 99999, 100000};
  return all;
}

// Checks one configuration: keys in order, and every run holding exactly the input's values.
template <int Threads, int Chunk>
void check_sort(Pattern pattern, int n, uint64_t seed) {
  std::vector<int> keys = make_keys(pattern, n, seed);
  std::vector<uint32_t> values(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) values[i] = static_cast<uint32_t>(i);

  std::vector<std::pair<int, uint32_t>> expected;
  for (int i = 0; i < n; ++i) expected.emplace_back(keys[i], values[i]);
  std::stable_sort(expected.begin(), expected.end(), [](auto& a, auto& b) { return a.first < b.first; });

  std::vector<int> keys_alt(keys.size());
  std::vector<uint32_t> values_alt(values.size());
  const bool in_alt = gql::device::spgemm::hybrid_sort_model<Threads, Chunk>(
      std::span<int>(keys), std::span<uint32_t>(values), std::span<int>(keys_alt), std::span<uint32_t>(values_alt));
  EXPECT_EQ(in_alt, (n > Chunk) && ((std::bit_width(static_cast<unsigned>((n + Chunk - 1) / Chunk - 1))) % 2 == 1));
  const std::vector<int>& out_keys = in_alt ? keys_alt : keys;
  const std::vector<uint32_t>& out_values = in_alt ? values_alt : values;

  std::vector<std::pair<int, uint32_t>> got;
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(out_keys[i], expected[i].first) << "n=" << n << " position " << i;
    got.emplace_back(out_keys[i], out_values[i]);
  }
  // The sort is not stable: compare the values of each run as sets.
  std::sort(got.begin(), got.end());
  std::sort(expected.begin(), expected.end());
  ASSERT_EQ(got, expected) << "n=" << n;
}

TEST(HybridSortModel, SortsEveryPatternAndLengthLargeChunks) {
  for (Pattern p : {Pattern::random, Pattern::few_distinct, Pattern::all_equal, Pattern::sorted, Pattern::reversed})
    for (int n : lengths()) check_sort<256, 2048>(p, n, static_cast<uint64_t>(n) * 7 + static_cast<uint64_t>(p));
}

TEST(HybridSortModel, SortsEveryPatternAndLengthSmallChunks) {
  // Small chunks and few threads make deep merge trees and ranges that cross pairs of runs.
  for (Pattern p : {Pattern::random, Pattern::few_distinct, Pattern::all_equal, Pattern::reversed})
    for (int n : lengths()) check_sort<32, 64>(p, n, static_cast<uint64_t>(n) * 13 + static_cast<uint64_t>(p));
}

TEST(HybridSortModel, SortsEveryLengthUpTo600) {
  for (int n = 1; n <= 600; ++n) check_sort<64, 32>(Pattern::random, n, static_cast<uint64_t>(n));
}

// Reduce-by-key of a stably sorted buffer: sum, and the associative but not commutative "first" and
// "last", which only come out right when each run is folded in buffer order.
template <int Threads>
void check_reduce(Pattern pattern, int n) {
  std::vector<int> keys = make_keys(pattern, n, static_cast<uint64_t>(n));
  std::vector<std::pair<int, uint64_t>> pairs;
  for (int i = 0; i < n; ++i) pairs.emplace_back(keys[i], static_cast<uint64_t>(i) * 2654435761u % 1000);
  std::stable_sort(pairs.begin(), pairs.end(), [](auto& a, auto& b) { return a.first < b.first; });
  std::vector<int> sorted_keys;
  std::vector<uint64_t> sorted_values;
  for (auto& [k, v] : pairs) {
    sorted_keys.push_back(k);
    sorted_values.push_back(v);
  }
  std::map<int, uint64_t> sum, first, last;
  for (auto& [k, v] : pairs) {
    sum[k] += v;
    first.try_emplace(k, v);
    last[k] = v;
  }
  auto run = [&](auto agg, const std::map<int, uint64_t>& expected, const char* name) {
    std::vector<int> out_keys(static_cast<size_t>(n));
    std::vector<uint64_t> out_values(static_cast<size_t>(n));
    const int runs = gql::device::spgemm::reduce_by_key_model<Threads>(
        std::span<const int>(sorted_keys), std::span<const uint64_t>(sorted_values), std::span<int>(out_keys),
        std::span<uint64_t>(out_values), agg);
    ASSERT_EQ(static_cast<size_t>(runs), expected.size()) << name << " n=" << n;
    int r = 0;
    for (auto& [k, v] : expected) {
      ASSERT_EQ(out_keys[r], k) << name << " n=" << n;
      ASSERT_EQ(out_values[r], v) << name << " n=" << n << " key " << k;
      ++r;
    }
  };
  run([](uint64_t a, uint64_t b) { return a + b; }, sum, "sum");
  run([](uint64_t a, uint64_t) { return a; }, first, "first");
  run([](uint64_t, uint64_t b) { return b; }, last, "last");
}

TEST(HybridSortModel, ReducesByKeyInBufferOrder) {
  for (Pattern p : {Pattern::random, Pattern::few_distinct, Pattern::all_equal, Pattern::sorted, Pattern::reversed})
    for (int n : lengths()) {
      check_reduce<256>(p, n);
      check_reduce<32>(p, n);
    }
}

TEST(HybridSortModel, SortThenReduceGivesTheReference) {
  const int n = 5000;
  std::vector<int> keys = make_keys(Pattern::few_distinct, n, 5);
  std::vector<uint64_t> values(static_cast<size_t>(n), 1);
  std::vector<int> keys_alt(keys.size());
  std::vector<uint64_t> values_alt(values.size());
  const bool in_alt = gql::device::spgemm::hybrid_sort_model<128, 512>(
      std::span<int>(keys), std::span<uint64_t>(values), std::span<int>(keys_alt), std::span<uint64_t>(values_alt));
  std::vector<int> out_keys(keys.size());
  std::vector<uint64_t> out_values(keys.size());
  const int runs = gql::device::spgemm::reduce_by_key_model<128>(
      std::span<const int>(in_alt ? keys_alt : keys), std::span<const uint64_t>(in_alt ? values_alt : values),
      std::span<int>(out_keys), std::span<uint64_t>(out_values), [](uint64_t a, uint64_t b) { return a + b; });
  std::map<int, uint64_t> counts;
  for (int k : make_keys(Pattern::few_distinct, n, 5)) ++counts[k];
  ASSERT_EQ(static_cast<size_t>(runs), counts.size());
  int r = 0;
  for (auto& [k, c] : counts) {
    EXPECT_EQ(out_keys[r], k);
    EXPECT_EQ(out_values[r], c);
    ++r;
  }
}

}  // namespace
