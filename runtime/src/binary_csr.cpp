// The .gqlb binary CSR file: a 64-byte header, then the three arrays as they lie in memory, with
// xxh3-64 checksums of the header and of the payload. Layout in docs/runtime.md.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "element_types.hpp"
#include "gql/io.hpp"
#include "readers.hpp"
#include "text_parse.hpp"

namespace gql {
namespace {

static_assert(std::endian::native == std::endian::little, "the .gqlb format is little-endian");

constexpr unsigned char magic[8] = {'G', 'Q', 'L', 'B', 0x0d, 0x0a, 0x1a, 0x0a};
constexpr uint32_t format_version = 1;
constexpr size_t header_size = 64;

struct Header {
  unsigned char magic[8];
  uint32_t version;
  uint32_t type_code;
  uint32_t element_size;
  uint32_t flags;
  int64_t n_rows;
  int64_t n_cols;
  int64_t nvals;
  uint64_t payload_checksum;
  uint64_t header_checksum;  // of the 56 bytes before it
};
static_assert(sizeof(Header) == header_size);

// Element type codes on disk; long and long long share the code of their width.
enum class TypeCode : uint32_t { pattern = 0, i8, u8, i16, u16, i32, u32, i64, u64, f32, f64 };

template <class T>
constexpr TypeCode code_of() {
  if constexpr (std::is_same_v<T, bool>) return TypeCode::pattern;
  else if constexpr (std::is_same_v<T, float>) return TypeCode::f32;
  else if constexpr (std::is_same_v<T, double>) return TypeCode::f64;
  else {
    constexpr uint32_t width = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    return static_cast<TypeCode>(1 + 2 * width + (std::is_unsigned_v<T> ? 1 : 0));
  }
}

size_t padded(size_t bytes) { return (bytes + 7) / 8 * 8; }

struct Layout {
  size_t offsets_bytes, cols_bytes, cols_padded, values_bytes;
  size_t total() const { return header_size + offsets_bytes + cols_padded + values_bytes; }
};

Layout layout_of(int64_t n_rows, int64_t nvals, size_t element_size) {
  Layout l;
  l.offsets_bytes = static_cast<size_t>(n_rows + 1) * sizeof(offset_t);
  l.cols_bytes = static_cast<size_t>(nvals) * sizeof(index_t);
  l.cols_padded = padded(l.cols_bytes);
  l.values_bytes = static_cast<size_t>(nvals) * element_size;
  return l;
}

// Where the bytes come from: memory (fuzzing, tests) or a file read straight into the arrays.
class ByteSource {
 public:
  ByteSource(std::string_view bytes, std::string name) : bytes_(bytes), name_(std::move(name)) {}
  ByteSource(std::FILE* file, size_t size, std::string name) : file_(file), size_(size), name_(std::move(name)) {}
  size_t size() const { return file_ ? size_ : bytes_.size(); }
  const std::string& name() const { return name_; }
  // Copies `n` bytes at the current position into dst (sequential reads only).
  void read(void* dst, size_t n) {
    if (n == 0 || dst == nullptr) return;  // an empty array has no storage
    if (file_) {
      if (std::fread(dst, 1, n, file_) != n)
        throw Error(ErrorKind::io, std::string("read failed: ") + std::strerror(errno),
                    {name_, 0, 0, static_cast<int64_t>(pos_)});
    } else {
      std::copy_n(bytes_.data() + pos_, n, static_cast<char*>(dst));
    }
    pos_ += n;
  }

 private:
  std::string_view bytes_;
  std::FILE* file_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  std::string name_;
};

[[noreturn]] void corrupt(const ByteSource& src, size_t offset, const std::string& why) {
  throw Error(ErrorKind::io, why, {src.name(), 0, 0, static_cast<int64_t>(offset)});
}

// Converts a stored value to T under the text readers' rules: integers exact and in range.
template <class To, class From>
bool convert_checked(From x, storage_t<To>& out) {
  if constexpr (std::is_same_v<To, bool> || std::is_same_v<From, bool>) {
    out = 1;  // a pattern entry is 1; any stored value makes a pattern entry
    return true;
  } else if constexpr (std::is_floating_point_v<To>) {
    if (std::isfinite(static_cast<double>(x)) &&
        std::fabs(static_cast<double>(x)) > static_cast<double>(std::numeric_limits<To>::max()))
      return false;
    out = static_cast<To>(x);
    return true;
  } else if constexpr (std::is_floating_point_v<From>) {
    if (!std::isfinite(x) || x != std::trunc(x)) return false;
    if (x < static_cast<From>(std::numeric_limits<To>::min()) ||
        static_cast<double>(x) >= std::ldexp(1.0, std::numeric_limits<To>::digits))
      return false;
    out = static_cast<To>(x);
    return true;
  } else {
    if (!std::in_range<To>(x)) return false;
    out = static_cast<To>(x);
    return true;
  }
}

template <class T, class Stored>
Csr<T> read_payload(ByteSource& src, const Header& h) {
  const Layout l = layout_of(h.n_rows, h.nvals, h.element_size);
  Array<offset_t> offsets(static_cast<size_t>(h.n_rows) + 1);
  Array<index_t> cols(static_cast<size_t>(h.nvals));
  Array<storage_t<Stored>> stored(stores_values<Stored> ? static_cast<size_t>(h.nvals) : 0);
  src.read(offsets.data(), l.offsets_bytes);
  src.read(cols.data(), l.cols_bytes);
  char pad[8];
  src.read(pad, l.cols_padded - l.cols_bytes);
  src.read(stored.data(), l.values_bytes);

  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, offsets.data(), l.offsets_bytes);
  XXH3_64bits_update(state, cols.data(), l.cols_bytes);
  XXH3_64bits_update(state, pad, l.cols_padded - l.cols_bytes);
  XXH3_64bits_update(state, stored.data(), l.values_bytes);
  const uint64_t sum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  if (sum != h.payload_checksum) corrupt(src, header_size, "payload checksum mismatch (the file is corrupt)");

  // Structure, checked even under a good checksum: a file may be written by other software.
  if (offsets[0] != 0 || offsets.back() != h.nvals) corrupt(src, header_size, "row offsets do not span the entries");
  int64_t bad_row = -1;
#pragma omp parallel for schedule(dynamic, 4096) reduction(max : bad_row)
  for (int64_t r = 0; r < h.n_rows; ++r) {
    const offset_t b = offsets[r], e = offsets[r + 1];
    bool ok = b <= e && b >= 0 && e <= h.nvals;
    for (offset_t p = b; ok && p < e; ++p)
      ok = cols[p] >= 0 && cols[p] < h.n_cols && (p == b || cols[p - 1] < cols[p]);
    if (!ok) bad_row = std::max(bad_row, r);
  }
  if (bad_row >= 0)
    corrupt(src, header_size + static_cast<size_t>(bad_row) * sizeof(offset_t),
            "row " + std::to_string(bad_row) + " has bad offsets or unsorted, duplicate or out-of-range columns");

  if constexpr (std::is_same_v<storage_t<T>, storage_t<Stored>> && std::is_same_v<T, Stored>) {
    return Csr<T>(h.n_rows, h.n_cols, std::move(offsets), std::move(cols), std::move(stored));
  } else {
    Array<storage_t<T>> values(stores_values<T> ? cols.size() : 0);
    if constexpr (stores_values<T>) {
      int64_t bad = -1;
#pragma omp parallel for schedule(static) reduction(max : bad)
      for (int64_t p = 0; p < h.nvals; ++p) {
        const Stored x = stores_values<Stored> ? static_cast<Stored>(stored[p]) : Stored{1};
        if (!convert_checked<T>(x, values[p])) bad = std::max(bad, p);
      }
      if (bad >= 0)
        corrupt(src, header_size + l.offsets_bytes + l.cols_padded + static_cast<size_t>(bad) * h.element_size,
                std::string("a stored value does not fit ") + detail::type_name<T>());
    }
    return Csr<T>(h.n_rows, h.n_cols, std::move(offsets), std::move(cols), std::move(values));
  }
}

template <class T>
Csr<T> read_from(ByteSource& src) {
  Header h;
  if (src.size() < header_size)
    corrupt(src, src.size(), "truncated: a .gqlb file has a 64-byte header, this one is " +
                                 std::to_string(src.size()) + " bytes");
  src.read(&h, header_size);
  if (std::memcmp(h.magic, magic, sizeof magic) != 0) corrupt(src, 0, "not a .gqlb file (bad magic bytes)");
  if (XXH3_64bits(&h, offsetof(Header, header_checksum)) != h.header_checksum)
    corrupt(src, offsetof(Header, header_checksum), "header checksum mismatch (the file is corrupt)");
  if (h.version != format_version)
    corrupt(src, offsetof(Header, version), "unsupported .gqlb version " + std::to_string(h.version));
  if (h.flags != 0) corrupt(src, offsetof(Header, flags), "unknown flags");
  if (h.n_rows < 0 || h.n_cols < 0 || h.n_rows > max_vertex_count || h.n_cols > max_vertex_count)
    corrupt(src, offsetof(Header, n_rows), "dimensions out of range");
  if (h.nvals < 0 || h.nvals > (int64_t{1} << 48)) corrupt(src, offsetof(Header, nvals), "entry count out of range");

  switch (static_cast<TypeCode>(h.type_code)) {
#define GQL_CASE(code, Stored)                                                                          \
  case TypeCode::code: {                                                                              \
    if (h.element_size != (stores_values<Stored> ? sizeof(Stored) : 0))                                 \
      corrupt(src, offsetof(Header, element_size), "element size does not match the element type");   \
    const size_t want = layout_of(h.n_rows, h.nvals, h.element_size).total();                          \
    if (src.size() != want)                                                                           \
      corrupt(src, std::min(src.size(), want),                                                        \
              (src.size() < want ? "truncated: expected " : "trailing bytes: expected ") +             \
                  std::to_string(want) + " bytes, the file has " + std::to_string(src.size()));       \
    return read_payload<T, Stored>(src, h);                                                           \
  }
    GQL_CASE(pattern, bool)
    GQL_CASE(i8, int8_t)
    GQL_CASE(u8, uint8_t)
    GQL_CASE(i16, int16_t)
    GQL_CASE(u16, uint16_t)
    GQL_CASE(i32, int32_t)
    GQL_CASE(u32, uint32_t)
    GQL_CASE(i64, int64_t)
    GQL_CASE(u64, uint64_t)
    GQL_CASE(f32, float)
    GQL_CASE(f64, double)
#undef GQL_CASE
  }
  corrupt(src, offsetof(Header, type_code), "unknown element type code " + std::to_string(h.type_code));
}

struct FileCloser {
  void operator()(std::FILE* f) const noexcept { std::fclose(f); }
};

}  // namespace

namespace detail {

template <class T>
Csr<T> read_binary_csr(std::string_view bytes, const std::string& source) {
  ByteSource src(bytes, source);
  return read_from<T>(src);
}

template <class T>
Csr<T> read_binary_csr_file(const std::string& path) {
  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "rb"));
  if (!f) throw Error(ErrorKind::io, std::string("cannot open: ") + std::strerror(errno), {path});
  if (std::fseek(f.get(), 0, SEEK_END) != 0) throw Error(ErrorKind::io, "cannot seek", {path});
  const long size = std::ftell(f.get());
  std::rewind(f.get());
  ByteSource src(f.get(), static_cast<size_t>(size), path);
  return read_from<T>(src);
}

}  // namespace detail

template <class T>
void write_binary(const std::string& path, const Csr<T>& graph) {
  Header h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.version = format_version;
  h.type_code = static_cast<uint32_t>(code_of<T>());
  h.element_size = stores_values<T> ? sizeof(T) : 0;
  h.n_rows = graph.n_rows();
  h.n_cols = graph.n_cols();
  h.nvals = graph.nvals();
  const Layout l = layout_of(h.n_rows, h.nvals, h.element_size);
  const char pad[8] = {};
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, graph.row_offsets().data(), l.offsets_bytes);
  XXH3_64bits_update(state, graph.col_indices().data(), l.cols_bytes);
  XXH3_64bits_update(state, pad, l.cols_padded - l.cols_bytes);
  XXH3_64bits_update(state, graph.values().data(), l.values_bytes);
  h.payload_checksum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  h.header_checksum = XXH3_64bits(&h, offsetof(Header, header_checksum));

  std::unique_ptr<std::FILE, FileCloser> f(std::fopen(path.c_str(), "wb"));
  if (!f) throw Error(ErrorKind::io, std::string("cannot create: ") + std::strerror(errno), {path});
  const auto put = [&](const void* p, size_t n) {
    if (n > 0 && std::fwrite(p, 1, n, f.get()) != n)
      throw Error(ErrorKind::io, std::string("write failed: ") + std::strerror(errno), {path});
  };
  put(&h, header_size);
  put(graph.row_offsets().data(), l.offsets_bytes);
  put(graph.col_indices().data(), l.cols_bytes);
  put(pad, l.cols_padded - l.cols_bytes);
  put(graph.values().data(), l.values_bytes);
  if (std::fflush(f.get()) != 0) throw Error(ErrorKind::io, std::string("write failed: ") + std::strerror(errno), {path});
}

#define GQL_INSTANTIATE(T)                                                                \
  template Csr<T> detail::read_binary_csr<T>(std::string_view, const std::string&); \
  template Csr<T> detail::read_binary_csr_file<T>(const std::string&);              \
  template void write_binary<T>(const std::string&, const Csr<T>&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql
