// Diagnostics: errors and warnings with a source span and an ID (gql/compiler/diagnostics.def),
// and their notes, rendered clang-style:
//   file:line:col: error: message [unknown-name]
//     source line
//         ^~~~
#pragma once

#include <bitset>
#include <cstddef>
#include <string>
#include <vector>

#include "gql/compiler/diagnostic_ids.hpp"
#include "gql/compiler/source.hpp"

namespace gql::compiler {

struct Note {
  Span span;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::error;
  DiagnosticId id{};
  Span span;
  std::string message;
  std::vector<Note> notes;
};

// Collects the diagnostics of one compilation. After `max_errors` errors it records one last
// "too many errors" error and ignores the rest, so the memory a bad input can take stays bounded.
class Diagnostics {
 public:
  explicit Diagnostics(size_t max_errors = 50) : max_errors_(max_errors) {}

  // Returns the recorded diagnostic (to attach notes) or nullptr when the cap dropped it or its
  // warning is silenced. `id` is one of the table's errors (error) or warnings (warning).
  Diagnostic* error(Span span, DiagnosticId id, std::string message);
  Diagnostic* warning(Span span, DiagnosticId id, std::string message);
  // Leaves out the warnings of `id` from now on (gqlc -Wno-NAME); errors are always reported.
  void silence(DiagnosticId id) { silenced_.set(static_cast<size_t>(id)); }

  bool has_errors() const noexcept { return errors_ > 0; }
  size_t error_count() const noexcept { return errors_; }
  size_t warning_count() const noexcept { return warnings_; }
  bool saturated() const noexcept { return errors_ >= max_errors_; }
  const std::vector<Diagnostic>& all() const noexcept { return list_; }
  // Orders diagnostics by file and position (a "too many errors" line stays last).
  void sort_by_location();

 private:
  Diagnostic* add(Severity severity, DiagnosticId id, Span span, std::string message);

  size_t max_errors_;
  std::bitset<diagnostic_id_count> silenced_;
  size_t errors_ = 0;
  size_t warnings_ = 0;
  std::vector<Diagnostic> list_;
};

// "file:line:col: severity: message [id]", the source line and a caret + tildes under the span,
// then each note the same way (a note has no ID).
std::string render(const Diagnostic& diagnostic, const SourceManager& sources);
std::string render_all(const Diagnostics& diagnostics, const SourceManager& sources);

}  // namespace gql::compiler
