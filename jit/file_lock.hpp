// An exclusive advisory lock on a file (flock): held by one open file at a time, across threads
// and processes; released when the holder closes it or dies.
#pragma once

#include <string>

namespace gql::jit {

class FileLock {
 public:
  enum class Mode { wait, try_only };
  // Creates `path` if needed and locks it. With try_only, held() is false when another holds it.
  // Throws gql::Error(io) when the file cannot be opened.
  FileLock(const std::string& path, Mode mode = Mode::wait);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

  bool held() const noexcept { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

}  // namespace gql::jit
