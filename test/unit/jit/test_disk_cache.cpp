// The on-disk cache with stand-in payloads (no compiler): hit, miss, corruption, failed builds,
// LRU eviction and several processes asking for the same entry at once.
#include <gtest/gtest.h>

#include "address_space_cap.hpp"
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "disk_cache.hpp"
#include "gql/error.hpp"
#include "jit_test_support.hpp"

namespace gql::jit {
namespace {

namespace fs = std::filesystem;

CacheKey key(const std::string& name) { return CacheKeyBuilder().add("name", name).finish(); }

void write(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A build function that writes `payload` and counts its calls.
struct CountingBuild {
  std::string payload;
  int calls = 0;
  void operator()(const std::string& out) {
    ++calls;
    write(out, payload);
  }
};

TEST(DiskCache, MissBuildsThenHitReuses) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  CountingBuild build{"payload one"};
  auto fn = [&](const std::string& p) { build(p); };
  const CacheEntry first = cache.get_or_build(key("a"), ".so", fn);
  EXPECT_EQ(first.origin, CacheOrigin::built);
  EXPECT_EQ(first.payload_size, build.payload.size());
  const CacheEntry second = cache.get_or_build(key("a"), ".so", fn);
  EXPECT_EQ(second.origin, CacheOrigin::disk);
  EXPECT_EQ(second.path, first.path);
  EXPECT_EQ(build.calls, 1);
  std::string payload;
  ASSERT_TRUE(DiskCache::read_payload(first.path, payload));
  EXPECT_EQ(payload, "payload one");
  // Published atomically: nothing is left in the temporary folder.
  EXPECT_TRUE(fs::is_empty(fs::path(cache.root()) / "tmp"));
}

TEST(DiskCache, DifferentKeysAreDifferentEntries) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  CountingBuild a{"A"}, b{"B"};
  const auto ea = cache.get_or_build(key("a"), ".so", [&](const std::string& p) { a(p); });
  const auto eb = cache.get_or_build(key("b"), ".so", [&](const std::string& p) { b(p); });
  EXPECT_NE(ea.path, eb.path);
  std::string payload;
  ASSERT_TRUE(DiskCache::read_payload(eb.path, payload));
  EXPECT_EQ(payload, "B");
}

TEST(DiskCache, CorruptEntriesAreRebuilt) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  CountingBuild build{std::string(1000, 'p')};
  auto fn = [&](const std::string& p) { build(p); };
  const std::string path = cache.get_or_build(key("a"), ".so", fn).path;

  std::string bytes = read(path);
  bytes[500] ^= 1;  // one flipped bit in the payload
  write(path, bytes);
  EXPECT_EQ(cache.get_or_build(key("a"), ".so", fn).origin, CacheOrigin::rebuilt);

  write(path, read(path).substr(0, 700));  // truncated
  EXPECT_EQ(cache.get_or_build(key("a"), ".so", fn).origin, CacheOrigin::rebuilt);

  write(path, "");  // empty
  EXPECT_EQ(cache.get_or_build(key("a"), ".so", fn).origin, CacheOrigin::rebuilt);
  EXPECT_EQ(build.calls, 4);
  std::string payload;
  ASSERT_TRUE(DiskCache::read_payload(path, payload));
  EXPECT_EQ(payload, build.payload);
}

TEST(DiskCache, FailedBuildPublishesNothing) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  auto failing = [](const std::string& p) {
    write(p, "half");
    throw Error(ErrorKind::jit, "compiler failed");
  };
  EXPECT_THROW(cache.get_or_build(key("a"), ".so", failing), Error);
  EXPECT_TRUE(fs::is_empty(fs::path(cache.root()) / "tmp"));
  CountingBuild build{"ok"};
  EXPECT_EQ(cache.get_or_build(key("a"), ".so", [&](const std::string& p) { build(p); }).origin, CacheOrigin::built);
}

// An entry is bound to its key: another key's valid entry copied over it is not loaded (it would be
// another kernel), and neither is a FIFO or a link put in its place (reading those could hang or
// fill memory); each is rebuilt.
TEST(DiskCache, AnEntryIsBoundToItsKeyAndReadOnlyAsARegularFile) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  CountingBuild a{"kernel a"}, b{"kernel b"};
  const std::string path_a = cache.get_or_build(key("a"), ".so", [&](const std::string& p) { a(p); }).path;
  const std::string path_b = cache.get_or_build(key("b"), ".so", [&](const std::string& p) { b(p); }).path;
  fs::copy_file(path_b, path_a, fs::copy_options::overwrite_existing);
  const CacheEntry copied = cache.get_or_build(key("a"), ".so", [&](const std::string& p) { a(p); });
  EXPECT_EQ(copied.origin, CacheOrigin::rebuilt);
  std::string payload;
  ASSERT_TRUE(DiskCache::read_payload(copied.path, payload));
  EXPECT_EQ(payload, "kernel a");

  fs::remove(path_a);
  ASSERT_EQ(::mkfifo(path_a.c_str(), 0600), 0);
  EXPECT_FALSE(DiskCache::read_payload(path_a, payload));  // returns at once: nothing opens a writer
  fs::remove(path_a);
  fs::create_symlink("/dev/zero", path_a);
  EXPECT_FALSE(DiskCache::read_payload(path_a, payload));
  EXPECT_EQ(cache.get_or_build(key("a"), ".so", [&](const std::string& p) { a(p); }).origin, CacheOrigin::rebuilt);
  ASSERT_TRUE(DiskCache::read_payload(path_a, payload));
  EXPECT_EQ(payload, "kernel a");
  EXPECT_EQ(a.calls, 3);
}

// Removing the cache folder is safe, also while a build runs: the build that finds its folder gone
// makes the folders again and builds once more (it failed the call).
TEST(DiskCache, AFolderRemovedWhileABuildRunsIsMadeAgain) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  int calls = 0;
  const CacheEntry e = cache.get_or_build(key("a"), ".so", [&](const std::string& p) {
    if (++calls == 1) fs::remove_all(cache.root());
    DiskCache::write_payload(p, "payload");  // throws where the folder is gone
  });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(e.origin, CacheOrigin::built);
  std::string payload;
  ASSERT_TRUE(DiskCache::read_payload(e.path, payload));
  EXPECT_EQ(payload, "payload");
  // Removed between calls: the next miss makes the folders first.
  fs::remove_all(cache.root());
  EXPECT_EQ(cache.get_or_build(key("b"), ".so", [](const std::string& p) { write(p, "b"); }).origin,
            CacheOrigin::built);
}

// A cache folder that cannot be written still serves its entries, and what it lacks is built in a
// private folder under the system's temporary folder, removed with the cache object (every miss
// failed). Run as an unprivileged user in a child: the superuser may write any folder.
TEST(DiskCache, AReadOnlyCacheServesItsEntriesAndBuildsTheRestPrivately) {
  test::ScratchDir dir;
  {
    DiskCache cache(dir.str(), 1 << 20);
    (void)cache.get_or_build(key("there"), ".so", [](const std::string& p) { write(p, "there"); });
  }
  const auto set_writable = [&](bool writable) {
    const auto how = writable ? fs::perm_options::add : fs::perm_options::remove;
    for (const auto& e : fs::recursive_directory_iterator(dir.path()))
      if (e.is_directory()) fs::permissions(e.path(), fs::perms::owner_write, how);
  };
  set_writable(false);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::getuid() == 0 && ::setuid(65534) != 0) _exit(10);
    std::string private_folder;
    {
      DiskCache cache(dir.str(), 1 << 20);
      if (cache.unwritable_reason().empty()) _exit(11);
      private_folder = cache.private_folder();
      int builds = 0;
      const CacheEntry hit = cache.get_or_build(key("there"), ".so", [&](const std::string&) { ++builds; });
      if (builds != 0 || hit.origin != CacheOrigin::disk) _exit(12);
      const CacheEntry miss = cache.get_or_build(key("new"), ".so", [&](const std::string& p) {
        ++builds;
        DiskCache::write_payload(p, "new");
      });
      std::string payload;
      if (builds != 1 || miss.origin != CacheOrigin::built || miss.path.rfind(private_folder, 0) != 0 ||
          !DiskCache::read_payload(miss.path, payload) || payload != "new")
        _exit(13);
      if (cache.get_or_build(key("new"), ".so", [&](const std::string&) { ++builds; }).origin != CacheOrigin::disk ||
          builds != 1)
        _exit(14);
    }
    _exit(fs::exists(private_folder) ? 15 : 0);
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  set_writable(true);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "10: no unprivileged user; 11: taken as writable; 12: the hit built; "
                                       "13: the miss; 14: the second ask; 15: the private folder stayed";
}

// The sources kept from failed builds count against the size cap like entries, and what a process
// that died while it built left in tmp/ is removed after a day.
TEST(DiskCache, FailedSourcesAndLeftoversDoNotPileUp) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 3 * 1024 + 100);
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(30);
  const std::string failed = cache.failed_source_path(key("failed"), ".cpp");
  write(failed, std::string(2000, 'f'));
  fs::last_write_time(failed, old);
  const fs::path leftover = fs::path(cache.root()) / "tmp" / "0123.99.0.so.cpp", fresh = fs::path(cache.root()) / "tmp" / "x";
  write(leftover.string(), "left by a dead build");
  fs::last_write_time(leftover, old);
  write(fresh.string(), "being built");
  auto build = [](const std::string& p) { write(p, std::string(1000, 'x')); };
  (void)cache.get_or_build(key("1"), ".so", build);
  EXPECT_TRUE(fs::exists(failed));  // 3 KB with the entry: under the cap
  (void)cache.get_or_build(key("2"), ".so", build);
  EXPECT_FALSE(fs::exists(failed));  // the least recently used
  EXPECT_FALSE(fs::exists(leftover));
  EXPECT_TRUE(fs::exists(fresh));
}

// An entry is checked in pieces: a 1.5 GiB (sparse) file in an entry's place, with a trailer naming
// its key and size, costs a piece of memory, not 1.5 GiB (it was read whole). The child's address
// space is capped 1 GiB above what it maps.
TEST(DiskCache, AHugeEntryIsCheckedWithoutHoldingIt) {
  test::ScratchDir dir;
  DiskCache cache(dir.str(), 1 << 20);
  const auto build = [](const std::string& p) { write(p, "small"); };
  const std::string path = cache.get_or_build(key("a"), ".so", build).path;
  std::string trailer = read(path).substr(5);
  ASSERT_EQ(trailer.size(), DiskCache::trailer_bytes);
  const uint64_t size = uint64_t{3} << 29, payload_size = size - DiskCache::trailer_bytes;
  std::memcpy(trailer.data() + 24, &payload_size, sizeof payload_size);  // key, key, checksum, then the size
  fs::resize_file(path, payload_size);
  {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << trailer;
  }
  ASSERT_EQ(fs::file_size(path), size);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (!test_support::cap_address_space(rlim_t{1} << 30)) _exit(10);
    try {
      _exit(cache.get_or_build(key("a"), ".so", build).origin == CacheOrigin::rebuilt ? 0 : 11);
    } catch (...) {
      _exit(12);
    }
  }
  int status = -1;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(fs::file_size(path), 5 + DiskCache::trailer_bytes);
}

TEST(DiskCache, EvictsLeastRecentlyUsedOverTheCap) {
  test::ScratchDir dir;
  // Each entry is 1000 bytes of payload + a 40-byte trailer; three fit under the cap, four do not.
  DiskCache cache(dir.str(), 3 * 1024 + 100);
  auto build = [](const std::string& p) { write(p, std::string(1000, 'x')); };
  std::string paths[4];
  for (int n = 0; n < 3; ++n) paths[n] = cache.get_or_build(key(std::to_string(n)), ".so", build).path;
  // Entry 1 is the oldest, then 0, then 2: make it so explicitly (file times may tie).
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(paths[1], now - std::chrono::hours(3));
  fs::last_write_time(paths[0], now - std::chrono::hours(2));
  fs::last_write_time(paths[2], now - std::chrono::hours(1));
  // A hit makes entry 1 the most recently used, so entry 0 is the one to go.
  EXPECT_EQ(cache.get_or_build(key("1"), ".so", build).origin, CacheOrigin::disk);
  paths[3] = cache.get_or_build(key("3"), ".so", build).path;
  EXPECT_FALSE(fs::exists(paths[0]));
  EXPECT_TRUE(fs::exists(paths[1]));
  EXPECT_TRUE(fs::exists(paths[2]));
  EXPECT_TRUE(fs::exists(paths[3]));
  // An evicted entry is simply built again.
  EXPECT_EQ(cache.get_or_build(key("0"), ".so", build).origin, CacheOrigin::built);
}

TEST(DiskCache, ConcurrentProcessesBuildOnce) {
  test::ScratchDir dir;
  const std::string log = dir.str() + "/builds.log";
  constexpr int processes = 4;
  pid_t children[processes];
  for (int n = 0; n < processes; ++n) {
    children[n] = fork();
    ASSERT_GE(children[n], 0);
    if (children[n] == 0) {
      int status = 0;
      try {
        DiskCache cache(dir.str() + "/cache", 1 << 20);
        const CacheEntry e = cache.get_or_build(key("shared"), ".so", [&](const std::string& p) {
          std::ofstream(log, std::ios::app) << getpid() << "\n";
          std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the others arrive meanwhile
          write(p, "built once");
        });
        std::string payload;
        if (!DiskCache::read_payload(e.path, payload) || payload != "built once") status = 1;
      } catch (...) {
        status = 2;
      }
      _exit(status);
    }
  }
  for (pid_t child : children) {
    int status = -1;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::istringstream lines(read(log));
  int builds = 0;
  for (std::string line; std::getline(lines, line);) ++builds;
  EXPECT_EQ(builds, 1);
}

TEST(DiskCache, MaxBytesFromTheEnvironment) {
  ::setenv("GQL_CACHE_MAX_BYTES", "12345", 1);
  EXPECT_EQ(default_cache_max_bytes(), 12345u);
  ::setenv("GQL_CACHE_MAX_BYTES", "lots", 1);
  EXPECT_THROW(default_cache_max_bytes(), Error);
  ::unsetenv("GQL_CACHE_MAX_BYTES");
  EXPECT_EQ(default_cache_max_bytes(), uint64_t{2} << 30);
}

}  // namespace
}  // namespace gql::jit
