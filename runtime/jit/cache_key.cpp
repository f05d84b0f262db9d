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

}  // namespace gql::jit
