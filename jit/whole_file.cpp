#include "whole_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gql/error.hpp"

namespace gql::jit {

void write_whole_file(const std::string& path, std::string_view bytes, const std::string& what, WriteMode mode) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == WriteMode::append ? O_APPEND : O_TRUNC);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) throw Error(ErrorKind::io, "cannot write " + what + ": " + std::strerror(errno), {path});
  int error = 0;
  size_t done = 0;
  while (error == 0 && done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0) done += static_cast<size_t>(n);
    else if (n == 0) error = EIO;  // a regular file takes at least one byte or says why not
    else if (errno != EINTR) error = errno;
  }
  // A file system may report a failed write only when the file is closed (NFS, quotas).
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0) return;
  if (mode == WriteMode::replace) ::unlink(path.c_str());
  throw Error(ErrorKind::io, "cannot write " + what + ": " + std::strerror(error), {path});
}

}  // namespace gql::jit
