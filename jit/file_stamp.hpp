// What a memoized module was compiled from: each file the front end read, stamped so that a later
// lookup can tell, cheaply, whether the file still holds the text that was read.
//
// A stat alone is not enough: an edit that keeps the size and sets the modification time back (or
// lands within the file system's timestamp granularity) looks unchanged. The change time and the
// inode catch the first (nobody sets a file's change time; a replaced file is a new inode); for the
// second, a file changed less than `settle_seconds` before it was stamped has its text hashed again
// at each lookup, until a lookup finds it unchanged after that time, from which on a change would
// show in its change time.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gql::jit {

struct FileStamp {
  std::string path;
  uint64_t device = 0, inode = 0;
  int64_t size = -1, mtime_ns = -1, ctime_ns = -1;  // -1: the file could not be stat'ed
  uint64_t text_hash = 0;                           // of the text the front end read
  bool settled = false;                             // a stat now tells a change (see above)
};

// Seconds after its change time from which a file's stat tells any later change: the coarsest
// timestamp granularity of common file systems (FAT's 2 s), with the clock read in between.
inline constexpr int64_t settle_seconds = 3;

// The stamp of `path`, whose text the front end read as `text`.
FileStamp stamp_file(const std::string& path, std::string_view text);

// True while the file holds the text it was stamped with; marks the stamp settled once that can be
// told by a stat alone.
bool still_matches(FileStamp& stamp);

}  // namespace gql::jit
