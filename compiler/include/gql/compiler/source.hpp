// Source text of the files a compilation reads, and spans (byte ranges) into them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gql::compiler {

// A byte range [begin, end) in one source file; file 0 is the first file added.
struct Span {
  uint32_t file = 0;
  uint32_t begin = 0;
  uint32_t end = 0;
};

struct LineColumn {
  uint32_t line = 0;    // 1-based
  uint32_t column = 0;  // 1-based, in bytes
};

struct SourceFile {
  std::string path;
  std::string text;
  std::vector<uint32_t> line_starts;  // byte offset of each line's first character
};

// Owns every source file of a compilation; spans refer to files by their index here.
class SourceManager {
 public:
  uint32_t add(std::string path, std::string text);
  const SourceFile& file(uint32_t id) const { return files_.at(id); }
  size_t size() const noexcept { return files_.size(); }

  LineColumn line_column(uint32_t file, uint32_t offset) const;
  // The text of a 1-based line, without its line break.
  std::string_view line_text(uint32_t file, uint32_t line) const;
  std::string_view text(Span span) const;

 private:
  std::vector<SourceFile> files_;
};

}  // namespace gql::compiler
