// A counter-based random source: the n-th draw of a stream is a pure function of (key, n), so any
// thread can make any draw, and results do not depend on the schedule. SplitMix64's finalizer mixes.
#pragma once

#include <cstdint>

namespace gql::detail {

constexpr uint64_t mix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

class CounterRng {
 public:
  // `stream` separates the uses of one seed (edges, permutation, weights).
  constexpr CounterRng(uint64_t seed, uint64_t stream) : key_(mix64(seed ^ mix64(stream))) {}
  constexpr uint64_t bits(uint64_t counter) const { return mix64(key_ ^ mix64(counter)); }
  // Uniform in [0, 1) with 53 random bits.
  constexpr double uniform(uint64_t counter) const { return static_cast<double>(uniform_bits(counter)) * 0x1.0p-53; }
  // The 53 bits of that draw: uniform(c) is exactly uniform_bits(c) * 2^-53.
  constexpr uint64_t uniform_bits(uint64_t counter) const { return bits(counter) >> 11; }
  // Uniform in [1, 255]: the weights the generators give.
  constexpr uint32_t weight(uint64_t counter) const { return 1 + static_cast<uint32_t>(bits(counter) % 255); }

 private:
  uint64_t key_;
};

}  // namespace gql::detail
