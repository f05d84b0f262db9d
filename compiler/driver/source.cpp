#include "gql/compiler/source.hpp"

#include <algorithm>

namespace gql::compiler {

uint32_t SourceManager::add(std::string path, std::string text) {
  SourceFile f;
  f.path = std::move(path);
  f.text = std::move(text);
  f.line_starts.push_back(0);
  for (uint32_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] == '\n') f.line_starts.push_back(i + 1);
  }
  files_.push_back(std::move(f));
  return static_cast<uint32_t>(files_.size() - 1);
}

LineColumn SourceManager::line_column(uint32_t file, uint32_t offset) const {
  const SourceFile& f = files_.at(file);
  auto it = std::upper_bound(f.line_starts.begin(), f.line_starts.end(), offset);
  auto line = static_cast<uint32_t>(it - f.line_starts.begin());  // >= 1: line_starts[0] == 0
  return {line, offset - f.line_starts[line - 1] + 1};
}

std::string_view SourceManager::line_text(uint32_t file, uint32_t line) const {
  const SourceFile& f = files_.at(file);
  if (line == 0 || line > f.line_starts.size()) return {};
  uint32_t begin = f.line_starts[line - 1];
  uint32_t end = line < f.line_starts.size() ? f.line_starts[line] - 1 : static_cast<uint32_t>(f.text.size());
  if (end > begin && f.text[end - 1] == '\r') --end;
  return std::string_view(f.text).substr(begin, end - begin);
}

std::string_view SourceManager::text(Span span) const {
  const std::string& t = files_.at(span.file).text;
  if (span.begin >= t.size() || span.end <= span.begin) return {};
  return std::string_view(t).substr(span.begin, std::min<size_t>(span.end, t.size()) - span.begin);
}

}  // namespace gql::compiler
