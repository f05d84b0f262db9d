#include "cache_key.hpp"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <cstdio>

namespace gql::jit {

std::string CacheKey::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(high),
                static_cast<unsigned long long>(low));
  return buf;
}

CacheKeyBuilder& CacheKeyBuilder::add(std::string_view field, std::string_view value) {
  text_ += std::to_string(field.size()) + ":" + std::string(field) + "=" + std::to_string(value.size()) + ":";
  text_.append(value);
  text_ += ';';
  return *this;
}

CacheKey CacheKeyBuilder::finish() const {
  const XXH128_hash_t h = XXH3_128bits(text_.data(), text_.size());
  return {h.high64, h.low64};
}

uint64_t checksum(const void* data, size_t size) { return XXH3_64bits(data, size); }

struct PieceChecksum::State {
  XXH3_state_t xxh;
};

PieceChecksum::PieceChecksum() : state_(std::make_unique<State>()) { XXH3_64bits_reset(&state_->xxh); }
PieceChecksum::~PieceChecksum() = default;
void PieceChecksum::add(const void* data, size_t size) { XXH3_64bits_update(&state_->xxh, data, size); }
uint64_t PieceChecksum::value() const { return XXH3_64bits_digest(&state_->xxh); }

}  // namespace gql::jit
