// gqlc -verify: the diagnostics a spec expects, stated in its own line comments, checked against
// those a compilation found (as clang's -verify does):
//   x = y;  // expected-error {{unknown name 'y'}}       on the comment's own line
//   // expected-warning@+1 {{not associative}}           on the next line (@-N: N lines above)
//   // expected-note@3 {{first defined here}}            on line 3 of the comment's file
//   x = y;  // expected-error [unknown-name] {{'y'}}      and of this ID (gql/compiler/diagnostics.def)
//   // expected-no-diagnostics                           the spec compiles without any
// An expectation matches a diagnostic of its severity, file and line whose message holds its text,
// and, when it names an ID in brackets, whose ID is that one (notes have none).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gql/compiler/diagnostic.hpp"
#include "gql/compiler/source.hpp"

namespace gql::compiler {

struct Expectation {
  Severity severity = Severity::error;
  uint32_t file = 0;  // the source id of the file the diagnostic must point into
  uint32_t line = 0;  // 1-based
  std::string text;   // a substring of the diagnostic's message
  std::optional<DiagnosticId> id;  // when named, the diagnostic's ID
};

struct Expectations {
  std::vector<Expectation> expected;
  std::optional<Span> no_diagnostics;  // where a file says expected-no-diagnostics
  std::vector<Diagnostic> malformed;   // comments that start a directive but do not finish it
};

// The directives in the line comments of every file of `sources` (the spec and its imports).
Expectations parse_expectations(const SourceManager& sources);

// The expectations no diagnostic met and the diagnostics (notes included) no expectation met,
// listed as clang's -verify lists them; empty when each side met the other.
std::string match_expectations(const Expectations& expectations, const Diagnostics& found,
                               const SourceManager& sources);

// What gqlc -verify prints: the malformed directives, then the mismatches; empty when the spec's
// expectations hold.
std::string verify_diagnostics(const Diagnostics& found, const SourceManager& sources);

}  // namespace gql::compiler
