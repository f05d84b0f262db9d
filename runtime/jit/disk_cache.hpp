// The on-disk kernel cache, shared by threads and processes:
//   DIR/v1/KEY.EXT          entries: the payload followed by a trailer (checksum, size, magic)
//   DIR/v1/locks/KEY.lock   flock'd while one process builds KEY; others wait, then reuse
//   DIR/v1/tmp/             payloads being built; published by rename, so readers never see a partial entry
// Entries are kernel libraries (.so), CUDA modules (.cubin, .ptx) and precompiled headers (.gch).
// A hit refreshes the entry's modification time; when the entries exceed the size cap, the least
// recently used ones are removed. An entry whose trailer does not match its payload, or names another
// key than the file's, is rebuilt; entries are read only as regular files (links are not followed).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "cache_key.hpp"

namespace gql::jit {

enum class CacheOrigin {
  disk,     // a valid entry was there
  built,    // this call built it
  waited,   // another thread or process built it while this call waited for the lock
  rebuilt,  // the entry was corrupt; this call built it again
};
const char* to_string(CacheOrigin origin) noexcept;

struct CacheEntry {
  std::string path;     // the verified entry (payload + trailer; dlopen and cubin loaders ignore the trailer)
  uint64_t payload_size = 0;
  CacheOrigin origin = CacheOrigin::disk;
  double build_seconds = 0;  // time spent in `build` (0 unless built or rebuilt)
};

class DiskCache {
 public:
  // Creates the folders when needed; throws gql::Error(io) when it cannot.
  DiskCache(std::string dir, uint64_t max_bytes);

  // The entry for `key` (file name KEY + ext, e.g. ".so"). On a miss, `build(path)` must write the
  // payload to `path`; its exceptions propagate and nothing is published.
  CacheEntry get_or_build(const CacheKey& key, const std::string& ext,
                          const std::function<void(const std::string& payload_path)>& build);

  // Removes least recently used entries until the total is at most max_bytes (never `keep`).
  void evict(const std::string& keep = "");

  // Writes bytes to a payload path (for build functions). Throws gql::Error(io).
  static void write_payload(const std::string& path, const std::string& bytes);
  // The payload of a verified entry file, or false when the file is missing or corrupt.
  static bool read_payload(const std::string& path, std::string& payload);

  static constexpr size_t trailer_bytes = 40;  // what an entry holds after its payload

  const std::string& root() const noexcept { return root_; }
  uint64_t max_bytes() const noexcept { return max_bytes_; }

 private:
  bool verified(const std::string& path, uint64_t& payload_size) const;
  void publish(const std::string& payload_path, const std::string& final_path) const;

  std::string root_;  // DIR/v1
  uint64_t max_bytes_;
};

// $GQL_CACHE_DIR, else $XDG_CACHE_HOME/gql, else $HOME/.cache/gql, else /tmp/gql-cache-UID.
std::string default_cache_dir();
// $GQL_CACHE_MAX_BYTES, else 2 GiB.
uint64_t default_cache_max_bytes();

}  // namespace gql::jit
