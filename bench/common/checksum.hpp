// Order-independent checksums of a result's entries, so that two libraries' outputs (different
// storage orders) compare equal exactly when they hold the same (row, column, value) entries.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

namespace gql::bench {

// One entry's hash (splitmix-style finalizer over the mixed coordinates and value bits).
inline uint64_t entry_hash(uint64_t i, uint64_t j, uint64_t value_bits) {
  uint64_t h = (i * 0x9E3779B97F4A7C15ull) ^ (j + 0x632BE59BD9B4E019ull) ^ (value_bits * 0xD6E8FEB86659FD93ull);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 29);
}

// The bits of a value: integers as themselves, floats by their representation (-0 folded into 0).
template <class T>
uint64_t value_bits(T x) {
  if constexpr (sizeof(T) == 4 && !std::is_integral_v<T>) {
    const float f = x == 0 ? 0.0f : static_cast<float>(x);
    uint32_t u = 0;
    std::memcpy(&u, &f, 4);
    return u;
  } else if constexpr (!std::is_integral_v<T>) {
    const double d = x == 0 ? 0.0 : static_cast<double>(x);
    uint64_t u = 0;
    std::memcpy(&u, &d, 8);
    return u;
  } else {
    return static_cast<uint64_t>(x);
  }
}

// A sum of entry hashes: add entries in any order.
struct Checksum {
  uint64_t sum = 0;
  int64_t entries = 0;
  template <class T>
  void add(uint64_t i, uint64_t j, T value) {
    sum += entry_hash(i, j, value_bits(value));
    ++entries;
  }
  std::string hex() const {
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(sum));
    return text;
  }
  bool operator==(const Checksum&) const = default;
};

}  // namespace gql::bench
