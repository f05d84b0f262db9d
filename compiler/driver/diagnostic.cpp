#include "gql/compiler/diagnostic.hpp"

#include <algorithm>
#include <cctype>

namespace gql::compiler {

const char* to_string(Severity s) noexcept {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

Diagnostic* Diagnostics::add(Severity severity, Span span, std::string message) {
  if (errors_ >= max_errors_) return nullptr;
  if (severity == Severity::error) ++errors_;
  if (severity == Severity::warning) {
    if (warnings_ >= max_errors_) return nullptr;
    ++warnings_;
  }
  list_.push_back(Diagnostic{severity, span, std::move(message), {}});
  if (errors_ == max_errors_) {
    list_.push_back(Diagnostic{Severity::error, span, "too many errors; stopping here", {}});
    return &list_[list_.size() - 2];
  }
  return &list_.back();
}

Diagnostic* Diagnostics::error(Span span, std::string message) {
  return add(Severity::error, span, std::move(message));
}
Diagnostic* Diagnostics::warning(Span span, std::string message) {
  return add(Severity::warning, span, std::move(message));
}

void Diagnostics::sort_by_location() {
  auto end = saturated() && !list_.empty() ? list_.end() - 1 : list_.end();
  std::stable_sort(list_.begin(), end, [](const Diagnostic& a, const Diagnostic& b) {
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    return a.span.begin < b.span.begin;
  });
}

namespace {

void render_one(std::string& out, Severity severity, Span span, const std::string& message,
                const SourceManager& sources) {
  if (span.file >= sources.size()) {
    out += std::string(to_string(severity)) + ": " + message + "\n";
    return;
  }
  const SourceFile& file = sources.file(span.file);
  uint32_t begin = std::min<uint32_t>(span.begin, static_cast<uint32_t>(file.text.size()));
  LineColumn at = sources.line_column(span.file, begin);
  out += file.path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
         to_string(severity) + ": " + message + "\n";
  std::string_view line = sources.line_text(span.file, at.line);
  std::string shown;
  for (char c : line) shown += (c == '\t' || std::isprint(static_cast<unsigned char>(c))) ? c : ' ';
  out += shown + "\n";
  // The caret line keeps the source's tabs so the caret lines up in any terminal.
  std::string marker;
  for (uint32_t i = 0; i + 1 < at.column && i < shown.size(); ++i) marker += shown[i] == '\t' ? '\t' : ' ';
  marker += '^';
  uint32_t end = std::min<uint32_t>(span.end, begin + static_cast<uint32_t>(line.size()) - (at.column - 1));
  for (uint32_t i = begin + 1; i < end; ++i) marker += '~';
  out += marker + "\n";
}

}  // namespace

std::string render(const Diagnostic& diagnostic, const SourceManager& sources) {
  std::string out;
  render_one(out, diagnostic.severity, diagnostic.span, diagnostic.message, sources);
  for (const Note& n : diagnostic.notes) render_one(out, Severity::note, n.span, n.message, sources);
  return out;
}

std::string render_all(const Diagnostics& diagnostics, const SourceManager& sources) {
  std::string out;
  for (const Diagnostic& d : diagnostics.all()) out += render(d, sources);
  return out;
}

}  // namespace gql::compiler
