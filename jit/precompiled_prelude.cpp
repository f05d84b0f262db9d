#include "precompiled_prelude.hpp"

#include <bit>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <sstream>

#include "gql/error.hpp"
#include "whole_file.hpp"

namespace gql::jit {
namespace fs = std::filesystem;

namespace {

constexpr const char* header_ext = ".prelude.hpp";
constexpr const char* precompiled_ext = ".prelude.hpp.gch";

bool blank_or_comment(const std::string& line) {
  const size_t first = line.find_first_not_of(" \t\r");
  return first == std::string::npos || line.compare(first, 2, "//") == 0;
}

// clang reads a precompiled header as a bitstream up to the end of the file, so the cache's trailer
// after it would be read as bitstream records (and, depending on the checksum's bits, crash the
// reader). The payload therefore ends with the header of a top-level block that spans the trailer:
// readers skip unknown blocks by their length. g++ reads its own .gch by recorded sizes and ignores
// both. (The bitstream is 32-bit aligned; so are these 8 bytes and the trailer.)
void end_with_skipped_block(const std::string& path) {
  static_assert(DiskCache::trailer_bytes % 4 == 0);
  static_assert(std::endian::native == std::endian::little, "the bitstream's words are little-endian");
  constexpr uint32_t enter_subblock = 1;  // abbreviation id, 2 bits at the top level
  constexpr uint32_t block_id = 100;      // unused by clang; VBR-8, one chunk
  constexpr uint32_t abbrev_width = 2;    // VBR-4, one chunk; then aligned to 32 bits
  const uint32_t words[2] = {enter_subblock | block_id << 2 | abbrev_width << 10,
                             static_cast<uint32_t>(DiskCache::trailer_bytes / 4)};  // block length in words
  write_whole_file(path, std::string_view(reinterpret_cast<const char*>(words), sizeof words),  // little-endian
                   "the precompiled header", WriteMode::append);
}

}  // namespace

std::string prelude_of(const std::string& source) {
  std::istringstream in(source);
  std::string line, prelude;
  while (std::getline(in, line)) {
    if (line.rfind("#include", 0) == 0) prelude += line + "\n";
    else if (!blank_or_comment(line)) break;
  }
  return prelude;
}

PrecompiledPrelude precompiled_prelude(DiskCache& cache, const CacheKey& key, const HostCompiler& compiler,
                                       const std::vector<std::string>& flags, const std::string& prelude) {
  PrecompiledPrelude out;
  out.header = (fs::path(cache.root()) / (key.hex() + header_ext)).string();
  out.entry = cache.get_or_build(key, precompiled_ext, [&](const std::string& output) {
    // The compiler records the header's path and modification time in the precompiled form, so the
    // header is written (atomically, beside the entry) as part of each build, under the entry's lock.
    const std::string header_tmp = output + ".hpp";
    DiskCache::write_payload(header_tmp, prelude);
    if (std::rename(header_tmp.c_str(), out.header.c_str()) != 0) {
      std::remove(header_tmp.c_str());
      throw Error(ErrorKind::io, "cannot write the prelude header", {out.header});
    }
    build_precompiled_header(compiler, flags, out.header, output);
    end_with_skipped_block(output);
  });
  return out;
}

void discard(const PrecompiledPrelude& prelude) {
  std::error_code ec;
  fs::remove(prelude.entry.path, ec);
}

}  // namespace gql::jit
