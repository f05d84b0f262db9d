// The on-disk kernel cache, shared by threads and processes:
//   DIR/v1/KEY.EXT          entries: the payload followed by a trailer (checksum, size, magic)
//   DIR/v1/locks/KEY.lock   flock'd while one process builds KEY; others wait, then reuse
//   DIR/v1/tmp/             payloads being built; published by rename, so readers never see a partial entry
//   DIR/v1/failed/KEY.EXT   the generated source of KEY's last build, when that failed (one per key)
// Entries are kernel libraries (.so), CUDA modules (.cubin, .ptx) and precompiled headers (.gch).
// A hit refreshes the entry's modification time; when the entries and failed sources exceed the size
// cap, the least recently used ones are removed. An entry whose trailer does not match its payload, or
// names another key than the file's, is rebuilt; entries are read only as regular files (links are
// not followed). The folder may be removed at any time: a build that finds it gone makes it again.
// A cache that cannot be written serves its entries and builds what it lacks in a private folder
// under the system's temporary folder, removed with the DiskCache.
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
  // Creates the folders when needed; when it cannot write them, the private folder (throws
  // gql::Error(io) when that cannot be made either).
  DiskCache(std::string dir, uint64_t max_bytes);
  ~DiskCache();
  DiskCache(const DiskCache&) = delete;
  DiskCache& operator=(const DiskCache&) = delete;

  // The entry for `key` (file name KEY + ext, e.g. ".so"). On a miss, `build(path)` must write the
  // payload to `path`; its exceptions propagate and nothing is published.
  CacheEntry get_or_build(const CacheKey& key, const std::string& ext,
                          const std::function<void(const std::string& payload_path)>& build);

  // Removes least recently used entries and failed sources until the total is at most max_bytes
  // (never `keep`), and what builds of dead processes left in tmp/.
  void evict(const std::string& keep = "");

  // Where a build of `key` keeps its generated source (file extension `ext`) when it fails.
  std::string failed_source_path(const CacheKey& key, const std::string& ext) const;

  // Writes bytes to a payload path (for build functions). Throws gql::Error(io).
  static void write_payload(const std::string& path, const std::string& bytes);
  // The payload of a verified entry file, or false when the file is missing or corrupt.
  static bool read_payload(const std::string& path, std::string& payload);

  static constexpr size_t trailer_bytes = 40;  // what an entry holds after its payload

  const std::string& root() const noexcept { return root_; }
  uint64_t max_bytes() const noexcept { return max_bytes_; }
  // Why the cache folder cannot be written ("" when it can): then builds go to the private folder.
  const std::string& unwritable_reason() const noexcept { return unwritable_reason_; }
  const std::string& private_folder() const noexcept { return private_; }

 private:
  bool verified(const std::string& path, uint64_t& payload_size) const;
  void publish(const std::string& payload_path, const std::string& final_path) const;
  // Creates locks/, tmp/ and failed/; why the cache cannot be written, or "".
  std::string make_folders() const;
  void make_folders_or_throw() const;
  bool folders_present() const;
  CacheEntry build_privately(const std::string& name, const std::string& ext,
                             const std::function<void(const std::string&)>& build);

  std::string root_;  // DIR/v1
  uint64_t max_bytes_;
  std::string private_;            // the private folder of a cache that cannot be written, else ""
  std::string unwritable_reason_;  // why it cannot
};

// $GQL_CACHE_DIR, else $XDG_CACHE_HOME/gql, else $HOME/.cache/gql, else /tmp/gql-cache-UID.
std::string default_cache_dir();
// $GQL_CACHE_MAX_BYTES, else 2 GiB.
uint64_t default_cache_max_bytes();

}  // namespace gql::jit
