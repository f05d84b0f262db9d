#include "gql/compiler/diagnostic.hpp"

#include <algorithm>
#include <cassert>
#include <cctype>

namespace gql::compiler {

Diagnostic* Diagnostics::add(Severity severity, DiagnosticId id, Span span, std::string message) {
  assert(diagnostic_info(id).severity == severity && "the diagnostics table gives the ID the other severity");
  if (errors_ >= max_errors_) return nullptr;
  if (severity == Severity::error) ++errors_;
  if (severity == Severity::warning) {
    if (warnings_ >= max_errors_) return nullptr;
    ++warnings_;
  }
  list_.push_back(Diagnostic{severity, id, span, std::move(message), {}});
  if (errors_ == max_errors_) {
    list_.push_back(
        Diagnostic{Severity::error, DiagnosticId::too_many_errors, span, "too many errors; stopping here", {}});
    return &list_[list_.size() - 2];
  }
  return &list_.back();
}

Diagnostic* Diagnostics::error(Span span, DiagnosticId id, std::string message) {
  return add(Severity::error, id, span, std::move(message));
}
Diagnostic* Diagnostics::warning(Span span, DiagnosticId id, std::string message) {
  if (silenced_.test(static_cast<size_t>(id))) return nullptr;
  return add(Severity::warning, id, span, std::move(message));
}

void Diagnostics::sort_by_location() {
  auto end = saturated() && !list_.empty() ? list_.end() - 1 : list_.end();
  std::stable_sort(list_.begin(), end, [](const Diagnostic& a, const Diagnostic& b) {
    if (a.span.file != b.span.file) return a.span.file < b.span.file;
    return a.span.begin < b.span.begin;
  });
}

namespace {

// The most characters of a source line a diagnostic shows.
constexpr size_t excerpt_width = 160;

// `id` is the ID's name in brackets after the message (" [unknown-name]"), empty for a note.
void render_one(std::string& out, Severity severity, Span span, const std::string& message, const std::string& id,
                const SourceManager& sources) {
  if (span.file >= sources.size()) {
    out += std::string(to_string(severity)) + ": " + message + id + "\n";
    return;
  }
  const SourceFile& file = sources.file(span.file);
  uint32_t begin = std::min<uint32_t>(span.begin, static_cast<uint32_t>(file.text.size()));
  LineColumn at = sources.line_column(span.file, begin);
  out += file.path + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
         to_string(severity) + ": " + message + id + "\n";
  // The excerpt: the line, or a window of it around the column when it is long (a one-line file of
  // megabytes would otherwise be echoed whole by every diagnostic).
  std::string_view line = sources.line_text(span.file, at.line);
  const size_t column = at.column - 1;
  const size_t first = line.size() > excerpt_width && column > excerpt_width / 2 ? column - excerpt_width / 2 : 0;
  const std::string_view part = line.substr(first, excerpt_width);
  const std::string before = first > 0 ? "..." : "", after = first + part.size() < line.size() ? "..." : "";
  std::string shown = before;
  for (char c : part) shown += (c == '\t' || std::isprint(static_cast<unsigned char>(c))) ? c : ' ';
  out += shown + after + "\n";
  // The caret line keeps the source's tabs so the caret lines up in any terminal.
  std::string marker(before.size(), ' ');
  for (size_t i = first; i < column && i - first < part.size(); ++i) marker += part[i - first] == '\t' ? '\t' : ' ';
  marker += '^';
  // Tildes under the rest of the span, as far as the excerpt shows it.
  const size_t span_end = column + (span.end > begin ? span.end - begin : 1);
  for (size_t i = column + 1; i < std::min(span_end, first + part.size()); ++i) marker += '~';
  out += marker + "\n";
}

}  // namespace

std::string render(const Diagnostic& diagnostic, const SourceManager& sources) {
  std::string out;
  const std::string id = " [" + std::string(to_string(diagnostic.id)) + "]";
  render_one(out, diagnostic.severity, diagnostic.span, diagnostic.message, id, sources);
  for (const Note& n : diagnostic.notes) render_one(out, Severity::note, n.span, n.message, "", sources);
  return out;
}

std::string render_all(const Diagnostics& diagnostics, const SourceManager& sources) {
  std::string out;
  for (const Diagnostic& d : diagnostics.all()) out += render(d, sources);
  return out;
}

}  // namespace gql::compiler
