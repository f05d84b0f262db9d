#include "file_stamp.hpp"

#include <sys/stat.h>

#include <chrono>
#include <fstream>

#include "cache_key.hpp"

namespace gql::jit {
namespace {

int64_t nanoseconds(const timespec& t) { return static_cast<int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The file's stat fields in `stamp` (size -1 when it cannot be stat'ed).
void stat_into(const std::string& path, FileStamp& stamp) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    stamp.size = stamp.mtime_ns = stamp.ctime_ns = -1;
    return;
  }
  stamp.device = st.st_dev;
  stamp.inode = st.st_ino;
  stamp.size = st.st_size;
  stamp.mtime_ns = nanoseconds(st.st_mtim);
  stamp.ctime_ns = nanoseconds(st.st_ctim);
}

bool old_enough(const FileStamp& stamp) { return now_ns() - stamp.ctime_ns > settle_seconds * 1'000'000'000; }

// The hash of the file's text; false when it cannot be read.
bool hash_of_file(const std::string& path, uint64_t& hash) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) text.append(piece, static_cast<size_t>(in.gcount()));
  if (in.bad()) return false;
  hash = checksum(text.data(), text.size());
  return true;
}

}  // namespace

FileStamp stamp_file(const std::string& path, std::string_view text) {
  FileStamp stamp;
  stamp.path = path;
  stat_into(path, stamp);
  stamp.text_hash = checksum(text.data(), text.size());
  // Stat'ed after the read: a change since then has a recent change time, so the stamp is unsettled.
  stamp.settled = stamp.size >= 0 && old_enough(stamp);
  return stamp;
}

bool still_matches(FileStamp& stamp) {
  FileStamp now;
  stat_into(stamp.path, now);
  if (now.size < 0 || now.device != stamp.device || now.inode != stamp.inode || now.size != stamp.size ||
      now.mtime_ns != stamp.mtime_ns || now.ctime_ns != stamp.ctime_ns)
    return false;
  if (stamp.settled) return true;
  // The age is judged before the read: a change after that moment gets a later change time than the
  // stamp's, and one before it is in the text read.
  const bool was_old = old_enough(stamp);
  uint64_t hash = 0;
  if (!hash_of_file(stamp.path, hash) || hash != stamp.text_hash) return false;
  stamp.settled = was_old;
  return true;
}

}  // namespace gql::jit
