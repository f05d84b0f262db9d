// libFuzzer target: gzip input (members, truncation, padding, trailing bytes, the sizes trailers
// claim) inflated by the readers and read as an edge list. Each input is read twice: as it is, with
// the gzip magic bytes put in front when it lacks them; and as the deflate data of one member whose
// header and trailer (CRC and size) are made right, so that mutations of the stream are not all
// stopped by the CRC and the reader sees what they inflate to.
#include <zlib.h>

#include <string>

#include "fuzz_read_common.hpp"

namespace {

// A gzip member around `deflated` (raw deflate data), or "" when it does not inflate. Inflated here
// only up to a bound (deflate's ratio is at most about 1032), so that the wrapping stays cheap.
std::string member_around(const std::string_view deflated) {
  z_stream z{};
  if (inflateInit2(&z, -15) != Z_OK) return "";
  std::string out(deflated.size() * 1032 + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
  z.avail_in = static_cast<uInt>(deflated.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&z, Z_FINISH);
  const uLong used = deflated.size() - z.avail_in, produced = z.total_out;
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return "";
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(produced));
  std::string member("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", 10);
  member.append(deflated.substr(0, used));
  for (const uLong word : {crc, produced})
    for (int b = 0; b < 4; ++b) member += static_cast<char>(word >> (8 * b) & 0xff);
  return member;
}

template <class T>
void read_as_edge_list(const std::string& bytes) {
  gql_fuzz::parse_checked<T>(bytes, gql::Format::edge_list, {.duplicates = gql::Duplicates::sum});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::string bytes(input);
  if (size < 2 || data[0] != 0x1f || data[1] != 0x8b) bytes.insert(0, "\x1f\x8b", 2);
  read_as_edge_list<double>(bytes);
  if (const std::string member = member_around(input); !member.empty()) read_as_edge_list<uint32_t>(member);
  return 0;
}
