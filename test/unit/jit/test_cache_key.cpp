#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "cache_key.hpp"

namespace gql::jit {
namespace {

using Fields = std::vector<std::pair<std::string, std::string>>;

CacheKey key_of(const Fields& fields) {
  CacheKeyBuilder b;
  for (const auto& [name, value] : fields) b.add(name, value);
  return b.finish();
}

const Fields base = {{"source", "kernel f() {}"}, {"target", "openmp"}, {"compiler", "/usr/bin/clang-14 1 2"},
                     {"flag", "-O3"}, {"cpu", "model name: x"}, {"build", "0123"}};

TEST(CacheKey, SameInputsSameKey) {
  EXPECT_EQ(key_of(base), key_of(base));
  EXPECT_EQ(key_of(base).hex().size(), 32u);
}

TEST(CacheKey, ChangesWhenAnyFieldValueChanges) {
  std::set<std::string> keys = {key_of(base).hex()};
  for (size_t n = 0; n < base.size(); ++n) {
    Fields changed = base;
    changed[n].second += " ";
    keys.insert(key_of(changed).hex());
  }
  EXPECT_EQ(keys.size(), base.size() + 1);
}

TEST(CacheKey, ChangesWithFieldNamesOrderAndBoundaries) {
  Fields renamed = base;
  renamed[0].first = "sources";
  Fields swapped = base;
  std::swap(swapped[1], swapped[2]);
  Fields extra = base;
  extra.push_back({"flag", "-g"});
  EXPECT_NE(key_of(base), key_of(renamed));
  EXPECT_NE(key_of(base), key_of(swapped));
  EXPECT_NE(key_of(base), key_of(extra));
  // Moving bytes between adjacent fields must not collide.
  EXPECT_NE(key_of({{"a", "bc"}, {"d", ""}}), key_of({{"a", "b"}, {"d", "c"}}));
}

TEST(CacheKey, ChecksumSeesEveryByte) {
  std::string bytes(4096, 'x');
  const uint64_t before = checksum(bytes.data(), bytes.size());
  bytes[2048] = 'y';
  EXPECT_NE(before, checksum(bytes.data(), bytes.size()));
}

}  // namespace
}  // namespace gql::jit
