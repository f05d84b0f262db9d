#include "disk_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>
#include <vector>

#include "file_lock.hpp"
#include "gql/error.hpp"
#include "whole_file.hpp"

namespace gql::jit {
namespace fs = std::filesystem;
namespace {

constexpr char magic[8] = {'G', 'Q', 'L', 'J', 'I', 'T', '0', '2'};
// An entry's trailer binds the payload to the key it was built for: an entry copied over another
// key's name, or corrupted, does not verify.
struct Trailer {
  uint64_t key_high, key_low;  // the key the payload was built for (the file name says which is asked)
  uint64_t checksum;           // of the key and the payload
  uint64_t payload_size;
  char magic[8];
};

uint64_t entry_checksum(uint64_t key_high, uint64_t key_low, uint64_t payload_checksum) {
  const uint64_t parts[3] = {key_high, key_low, payload_checksum};
  return checksum(parts, sizeof parts);
}

// The key a file name KEY.EXT asks for (EXT may hold dots: .prelude.hpp.gch); false when it holds none.
bool key_of(const std::string& path, uint64_t& high, uint64_t& low) {
  const std::string name = fs::path(path).filename().string();
  const std::string stem = name.substr(0, name.find('.'));
  if (stem.size() != 32 || stem.find_first_not_of("0123456789abcdef") != std::string::npos) return false;
  high = std::stoull(stem.substr(0, 16), nullptr, 16);
  low = std::stoull(stem.substr(16), nullptr, 16);
  return true;
}
static_assert(sizeof(Trailer) == DiskCache::trailer_bytes);

// An open regular file. Links are not followed and anything else (a FIFO, a device) is refused
// without reading it, so an entry replaced by one can neither hang a call nor fill its memory.
class RegularFile {
 public:
  explicit RegularFile(const std::string& path)
      : fd_(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) {
    struct stat st {};
    if (fd_ >= 0 && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) size_ = static_cast<uint64_t>(st.st_size);
    else close();
  }
  ~RegularFile() { close(); }
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  bool open() const noexcept { return fd_ >= 0; }
  uint64_t size() const noexcept { return size_; }
  // Reads exactly `n` bytes at `offset`; false when the file is shorter or the read fails.
  bool read(char* out, size_t n, uint64_t offset) const {
    size_t done = 0;
    while (done < n) {
      const ssize_t got = ::pread(fd_, out + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) return false;
      done += static_cast<size_t>(got);
    }
    return true;
  }
  // The checksum of bytes [0, n), read in pieces of 1 MiB.
  bool checksum_of(uint64_t n, uint64_t& sum) const {
    std::vector<char> piece(size_t{1} << 20);
    PieceChecksum running;
    for (uint64_t at = 0; at < n;) {
      const size_t take = static_cast<size_t>(std::min<uint64_t>(piece.size(), n - at));
      if (!read(piece.data(), take, at)) return false;
      running.add(piece.data(), take);
      at += take;
    }
    sum = running.value();
    return true;
  }

 private:
  void close() noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int fd_;
  uint64_t size_ = 0;
};

// Whether the entry at `path` verifies: its trailer, read first from the end, must name the file
// name's key and the payload's size, and the checksum of key and payload must match, computed while
// the payload is read in pieces (a call holds a piece, whatever the file's size).
bool verify_entry(const std::string& path, uint64_t& payload_size) {
  uint64_t high = 0, low = 0;
  if (!key_of(path, high, low)) return false;
  const RegularFile file(path);
  Trailer t;
  if (!file.open() || file.size() < sizeof t || !file.read(reinterpret_cast<char*>(&t), sizeof t, file.size() - sizeof t))
    return false;
  if (std::memcmp(t.magic, magic, sizeof magic) != 0 || t.key_high != high || t.key_low != low ||
      t.payload_size != file.size() - sizeof t)
    return false;
  uint64_t sum = 0;
  if (!file.checksum_of(t.payload_size, sum) || entry_checksum(high, low, sum) != t.checksum) return false;
  payload_size = t.payload_size;
  return true;
}

// A name no other thread or process uses at the same time.
std::string unique_suffix() {
  static std::atomic<uint64_t> counter{0};
  return std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
}

bool is_entry(const fs::path& p) {
  const std::string ext = p.extension().string();
  return ext == ".so" || ext == ".cubin" || ext == ".ptx" || ext == ".gch";
}

// What a process killed while it built left in the temporary folder is removed after this long (no
// build takes near it).
constexpr auto stale_after = std::chrono::hours(24);

}  // namespace

const char* to_string(CacheOrigin origin) noexcept {
  switch (origin) {
    case CacheOrigin::disk: return "reused from the disk cache";
    case CacheOrigin::built: return "compiled";
    case CacheOrigin::waited: return "reused (compiled meanwhile by another thread or process)";
    case CacheOrigin::rebuilt: return "compiled again (the cached entry was corrupt)";
  }
  return "?";
}

DiskCache::DiskCache(std::string dir, uint64_t max_bytes)
    : root_((fs::path(dir) / "v1").string()), max_bytes_(max_bytes) {
  const std::string why = make_folders();
  if (why.empty()) return;
  // A cache that cannot be written still serves its entries; what it lacks is built in a folder of
  // this cache object's own, outside it, and removed with it.
  std::string pattern = (fs::temp_directory_path() / "gql-jit-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw Error(ErrorKind::io, "the cache folder cannot be written (" + why + ") and no private folder can be made in " +
                                   fs::temp_directory_path().string() + ": " + std::strerror(errno),
                {root_});
  private_ = pattern;
  unwritable_reason_ = why;
  std::error_code ec;
  fs::create_directory(fs::path(private_) / "failed", ec);
}

DiskCache::~DiskCache() {
  std::error_code ec;
  if (!private_.empty()) fs::remove_all(private_, ec);  // loaded libraries stay mapped
}

std::string DiskCache::make_folders() const {
  for (const char* sub : {"locks", "tmp", "failed"}) {
    const fs::path folder = fs::path(root_) / sub;
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) return "cannot create " + folder.string() + ": " + ec.message();
    if (::access(folder.c_str(), W_OK) != 0) return folder.string() + ": " + std::strerror(errno);
  }
  if (::access(root_.c_str(), W_OK) != 0) return root_ + ": " + std::strerror(errno);
  return "";
}

bool DiskCache::folders_present() const {
  std::error_code ec;
  for (const char* sub : {"locks", "tmp", "failed"})
    if (!fs::is_directory(fs::path(root_) / sub, ec)) return false;
  return true;
}

std::string DiskCache::failed_source_path(const CacheKey& key, const std::string& ext) const {
  return (fs::path(private_.empty() ? root_ : private_) / "failed" / (key.hex() + ext)).string();
}

void DiskCache::write_payload(const std::string& path, const std::string& bytes) {
  write_whole_file(path, bytes, "the cache payload");
}

bool DiskCache::read_payload(const std::string& path, std::string& payload) {
  uint64_t size = 0;
  if (!verify_entry(path, size)) return false;
  const RegularFile file(path);
  std::string bytes(static_cast<size_t>(size), '\0');
  if (!file.open() || !file.read(bytes.data(), bytes.size(), 0)) return false;
  payload = std::move(bytes);
  return true;
}

bool DiskCache::verified(const std::string& path, uint64_t& payload_size) const {
  if (!verify_entry(path, payload_size)) return false;
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // a use: most recently used now
  return true;
}

void DiskCache::publish(const std::string& payload_path, const std::string& final_path) const {
  const RegularFile payload(payload_path);
  uint64_t sum = 0;
  if (!payload.open() || !payload.checksum_of(payload.size(), sum))
    throw Error(ErrorKind::jit, "the build wrote no output", {payload_path});
  uint64_t high = 0, low = 0;
  if (!key_of(final_path, high, low)) throw Error(ErrorKind::internal, "a cache entry's name holds no key", {final_path});
  Trailer t{high, low, entry_checksum(high, low, sum), payload.size(), {}};
  std::memcpy(t.magic, magic, sizeof magic);
  write_whole_file(payload_path, std::string_view(reinterpret_cast<const char*>(&t), sizeof t), "the cache entry",
                   WriteMode::append);
  if (std::rename(payload_path.c_str(), final_path.c_str()) != 0)
    throw Error(ErrorKind::io, std::string("cannot publish the cache entry: ") + std::strerror(errno), {final_path});
}

CacheEntry DiskCache::get_or_build(const CacheKey& key, const std::string& ext,
                                   const std::function<void(const std::string&)>& build) {
  const std::string name = key.hex();
  CacheEntry entry;
  entry.path = (fs::path(root_) / (name + ext)).string();
  if (verified(entry.path, entry.payload_size)) return entry;
  if (!private_.empty()) return build_privately(name, ext, build);

  // The cache folder may have been removed since this object made it (docs/jit.md: that is safe).
  if (!folders_present()) make_folders_or_throw();
  FileLock lock((fs::path(root_) / "locks" / (name + ".lock")).string());
  // Whoever held the lock before may have published the entry meanwhile.
  std::error_code ec;
  const bool present = fs::exists(entry.path, ec);
  if (present && verified(entry.path, entry.payload_size)) {
    entry.origin = CacheOrigin::waited;
    return entry;
  }
  entry.origin = present ? CacheOrigin::rebuilt : CacheOrigin::built;
  for (int attempt = 0;; ++attempt) {
    const std::string payload_path = (fs::path(root_) / "tmp" / (name + "." + unique_suffix() + ext)).string();
    const auto start = std::chrono::steady_clock::now();
    try {
      build(payload_path);
      entry.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      publish(payload_path, entry.path);
      if (!verified(entry.path, entry.payload_size))
        throw Error(ErrorKind::io, "the cache entry changed while it was published", {entry.path});
      break;
    } catch (...) {
      fs::remove(payload_path, ec);
      // Removed while this build ran: once more, in folders made again.
      if (attempt > 0 || folders_present()) throw;
      make_folders_or_throw();
    }
  }
  evict(entry.path);
  return entry;
}

void DiskCache::make_folders_or_throw() const {
  if (const std::string why = make_folders(); !why.empty()) throw Error(ErrorKind::io, why, {root_});
}

CacheEntry DiskCache::build_privately(const std::string& name, const std::string& ext,
                                      const std::function<void(const std::string&)>& build) {
  CacheEntry entry;
  entry.path = (fs::path(private_) / (name + ext)).string();
  if (verified(entry.path, entry.payload_size)) return entry;  // built by this object before
  const std::string payload_path = (fs::path(private_) / (name + "." + unique_suffix() + ext)).string();
  const auto start = std::chrono::steady_clock::now();
  try {
    build(payload_path);
    entry.build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    publish(payload_path, entry.path);
  } catch (...) {
    std::error_code ec;
    fs::remove(payload_path, ec);
    throw;
  }
  if (!verified(entry.path, entry.payload_size))
    throw Error(ErrorKind::io, "the cache entry changed while it was published", {entry.path});
  entry.origin = CacheOrigin::built;
  return entry;
}

void DiskCache::evict(const std::string& keep) {
  // One evicting process at a time; the others skip (the next publish tries again).
  FileLock lock((fs::path(root_) / "locks" / "evict.lock").string(), FileLock::Mode::try_only);
  if (!lock.held()) return;
  struct Item {
    fs::path path;
    uint64_t size;
    fs::file_time_type used;
  };
  std::vector<Item> items;
  uint64_t total = 0;
  std::error_code ec;
  // Entries and the sources kept from failed builds count against the cap alike.
  const auto collect = [&](const fs::path& folder, bool entries_only) {
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      std::error_code item_ec;
      if (!e.is_regular_file(item_ec) || (entries_only && !is_entry(e.path()))) continue;
      const uint64_t size = e.file_size(item_ec);
      const auto used = e.last_write_time(item_ec);
      if (item_ec) continue;  // removed meanwhile
      items.push_back({e.path(), size, used});
      total += size;
    }
  };
  collect(root_, true);
  collect(fs::path(root_) / "failed", false);
  // Left by processes that died while they built.
  const auto stale = fs::file_time_type::clock::now() - stale_after;
  for (const auto& e : fs::directory_iterator(fs::path(root_) / "tmp", ec)) {
    std::error_code item_ec;
    if (e.last_write_time(item_ec) < stale && !item_ec) fs::remove(e.path(), item_ec);
  }
  if (total <= max_bytes_) return;
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.used < b.used; });
  for (const Item& item : items) {
    if (total <= max_bytes_) break;
    if (item.path == keep) continue;
    // A process that loaded this entry keeps its mapping; later lookups rebuild it.
    if (fs::remove(item.path, ec)) total -= item.size;
  }
}

std::string default_cache_dir() {
  if (const char* d = std::getenv("GQL_CACHE_DIR"); d && *d) return d;
  if (const char* d = std::getenv("XDG_CACHE_HOME"); d && *d) return (fs::path(d) / "gql").string();
  if (const char* d = std::getenv("HOME"); d && *d) return (fs::path(d) / ".cache" / "gql").string();
  return "/tmp/gql-cache-" + std::to_string(::getuid());
}

uint64_t default_cache_max_bytes() {
  if (const char* s = std::getenv("GQL_CACHE_MAX_BYTES"); s && *s) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (end && *end == '\0' && v > 0) return v;
    throw Error(ErrorKind::usage, std::string("GQL_CACHE_MAX_BYTES must be a positive number of bytes, not '") + s + "'");
  }
  return uint64_t{2} << 30;
}

}  // namespace gql::jit
