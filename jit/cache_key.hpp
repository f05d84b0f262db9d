// The cache key of a compiled kernel: a 128-bit hash of everything that affects the binary
// (generated source, target, compiler identity and flags, architecture, library build id).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gql::jit {

struct CacheKey {
  uint64_t high = 0;
  uint64_t low = 0;
  std::string hex() const;  // 32 lowercase hex digits: the entry's file name
  friend bool operator==(const CacheKey&, const CacheKey&) = default;
};

struct CacheKeyHash {
  size_t operator()(const CacheKey& k) const noexcept { return static_cast<size_t>(k.low ^ (k.high * 31)); }
};

// Collects named fields; the key changes when any field's name, value or order changes.
class CacheKeyBuilder {
 public:
  CacheKeyBuilder& add(std::string_view field, std::string_view value);
  CacheKey finish() const;

 private:
  std::string text_;  // length-prefixed fields, so that no two field lists serialize alike
};

// 64-bit checksum of a byte range (cache entries carry it to detect corruption).
uint64_t checksum(const void* data, size_t size);

// The same checksum over bytes given in pieces (an entry is checked without holding it in memory).
class PieceChecksum {
 public:
  PieceChecksum();
  ~PieceChecksum();
  void add(const void* data, size_t size);
  uint64_t value() const;  // checksum() of every piece added, in order

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gql::jit
