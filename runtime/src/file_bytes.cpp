#include "file_bytes.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

#include "gql/error.hpp"
#include "gql/host_memory.hpp"

namespace gql::detail {
namespace {

// An open file descriptor, closed on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

// The share of a file one thread reads at a time.
constexpr size_t read_slice_bytes = size_t{16} << 20;

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::string& path, const std::string& why) {
  throw Error(ErrorKind::io, why, {path});
}

// Deflate turns at most about 1032 output bytes into one input byte (its longest match per code).
constexpr size_t max_deflate_ratio = 1032;

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string gzip(std::string_view bytes, const std::string& path) {
  z_stream z{};
  // 15 + 16: a gzip (not zlib) wrapper.
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    fail(path, "cannot start gzip compression");
  std::string out(deflateBound(&z, static_cast<uLong>(bytes.size())) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) fail(path, "gzip compression failed");
  return out;
}

}  // namespace

bool is_gzip(std::string_view bytes) noexcept {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

FileBytes gunzip(std::string_view bytes, const std::string& name) {
  FileBytes out;
  // The last member's trailer holds its size mod 2^32: a good first guess for one-member files, but
  // only a guess (a crafted trailer claims gigabytes): never more than deflate can make of the input.
  const size_t most = bytes.size() * max_deflate_ratio + 1024;
  size_t capacity = bytes.size() * 4;
  if (bytes.size() >= 4) {
    uint32_t isize = 0;
    std::memcpy(&isize, bytes.data() + bytes.size() - 4, 4);
    capacity = std::max<size_t>(capacity, std::min<size_t>(isize, most));
  }
  const size_t available = available_host_memory();
  out.resize(std::min(std::max<size_t>(capacity, 1024), std::max<size_t>(available / 2, 1024)));
  size_t produced = 0;
  size_t consumed = 0;
  while (consumed < bytes.size()) {
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK) fail(name, "cannot start gzip decompression");
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed));
    int rc = Z_OK;
    size_t member_in = 0;
    while (rc != Z_STREAM_END) {
      if (produced == out.size()) {
        // Grown by what actually inflated, within the memory available: doubled while the old
        // buffer is still held, so both must fit.
        if (out.size() * 3 > available)
          throw Error(ErrorKind::oom,
                      "gzip data inflates past " + std::to_string(out.size() >> 20) + " MiB; going on needs " +
                          std::to_string(out.size() * 3 >> 20) + " MiB and " + std::to_string(available >> 20) +
                          " MiB of memory are available",
                      {name});
        out.resize(out.size() * 2);
      }
      const size_t in_left = bytes.size() - consumed - member_in;
      z.avail_in = static_cast<uInt>(std::min<size_t>(in_left, 1u << 30));
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + consumed + member_in));
      z.avail_out = static_cast<uInt>(std::min<size_t>(out.size() - produced, 1u << 30));
      z.next_out = reinterpret_cast<Bytef*>(out.data() + produced);
      const uInt in_before = z.avail_in, out_before = z.avail_out;
      rc = inflate(&z, Z_NO_FLUSH);
      member_in += in_before - z.avail_in;
      produced += out_before - z.avail_out;
      if (rc == Z_STREAM_END) break;
      if (rc == Z_BUF_ERROR && in_before - z.avail_in == 0 && out_before - z.avail_out == 0 &&
          consumed + member_in == bytes.size()) {
        inflateEnd(&z);
        throw Error(ErrorKind::io, "truncated gzip data", {name, 0, 0, static_cast<int64_t>(consumed + member_in)});
      }
      if (rc != Z_OK && rc != Z_BUF_ERROR) {
        const std::string why = z.msg ? z.msg : "inflate failed";
        inflateEnd(&z);
        throw Error(ErrorKind::io, "corrupt gzip data: " + why,
                    {name, 0, 0, static_cast<int64_t>(consumed + member_in)});
      }
    }
    inflateEnd(&z);
    consumed += member_in;
    // Another member follows only if it starts with the magic bytes; trailing zero padding is allowed.
    const std::string_view rest = bytes.substr(consumed);
    if (!is_gzip(rest)) {
      if (std::any_of(rest.begin(), rest.end(), [](char c) { return c != '\0'; }))
        throw Error(ErrorKind::io, "trailing garbage after gzip data", {name, 0, 0, static_cast<int64_t>(consumed)});
      break;
    }
  }
  out.resize(produced);
  return out;
}

FileBytes read_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
  const Descriptor open_file{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) fail(path, "cannot seek (not a regular file?)");
  const auto size = static_cast<size_t>(st.st_size);
  check_host_allocation(size, "the file's " + std::to_string(size >> 20) + " MiB", path);
  FileBytes bytes(size);
  const size_t slices = (bytes.size() + read_slice_bytes - 1) / read_slice_bytes;
  std::atomic<int> error{0};
#pragma omp parallel for schedule(dynamic, 1) if (slices > 1)
  for (size_t s = 0; s < slices; ++s) {
    const size_t first = s * read_slice_bytes, last = std::min(bytes.size(), first + read_slice_bytes);
    for (size_t at = first; at < last && error.load(std::memory_order_relaxed) == 0;) {
      const ssize_t got = ::pread(fd, bytes.data() + at, last - at, static_cast<off_t>(at));
      if (got > 0) at += static_cast<size_t>(got);
      else if (got == 0) error = EIO;  // the file shrank while it was read
      else if (errno != EINTR) error = errno;
    }
  }
  if (error != 0) fail(path, std::string("read failed: ") + std::strerror(error));
  if (is_gzip(text_of(bytes))) return gunzip(text_of(bytes), path);
  return bytes;
}

void write_file(const std::string& path, std::string_view bytes) {
  std::string compressed;
  if (ends_with(path, ".gz")) {
    compressed = gzip(bytes, path);
    bytes = compressed;
  }
  File f(std::fopen(path.c_str(), "wb"));
  if (!f) fail(path, std::string("cannot create: ") + std::strerror(errno));
  if (std::fwrite(bytes.data(), 1, bytes.size(), f.get()) != bytes.size())
    fail(path, std::string("write failed: ") + std::strerror(errno));
  if (std::fflush(f.get()) != 0) fail(path, std::string("write failed: ") + std::strerror(errno));
}

std::string extension_without_gz(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (ends_with(name, ".gz")) name.resize(name.size() - 3);
  const size_t dot = name.find_last_of('.');
  return dot == std::string::npos ? std::string() : name.substr(dot);
}

}  // namespace gql::detail
