#include "file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gql/error.hpp"

namespace gql::jit {

FileLock::FileLock(const std::string& path, Mode mode) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) throw Error(ErrorKind::io, std::string("cannot open the lock file: ") + std::strerror(errno), {path});
  const int operation = mode == Mode::wait ? LOCK_EX : LOCK_EX | LOCK_NB;
  int rc;
  while ((rc = ::flock(fd_, operation)) != 0 && errno == EINTR) {
  }
  if (rc == 0) {
    held_ = true;
  } else if (!(mode == Mode::try_only && errno == EWOULDBLOCK)) {
    const int saved = errno;
    ::close(fd_);
    fd_ = -1;
    throw Error(ErrorKind::io, std::string("cannot lock: ") + std::strerror(saved), {path});
  }
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

}  // namespace gql::jit
