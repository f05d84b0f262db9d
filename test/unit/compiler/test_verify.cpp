// gqlc -verify: reading expected-* comments (and refusing malformed ones), and matching them against
// diagnostics.
#include <gtest/gtest.h>

#include "gql/compiler/verify.hpp"

namespace gql::compiler {
namespace {

Expectations parse(SourceManager& sources, std::string text) {
  sources.add("t.gql", std::move(text));
  return parse_expectations(sources);
}

// The messages of the malformed directives, each with its line.
std::vector<std::string> malformed(const Expectations& e, const SourceManager& sources) {
  std::vector<std::string> out;
  for (const Diagnostic& d : e.malformed)
    out.push_back(std::to_string(sources.line_column(d.span.file, d.span.begin).line) + ": " + d.message);
  return out;
}

// A span on the 1-based line of file 0.
Span on_line(const SourceManager& sources, uint32_t line) {
  const uint32_t begin = sources.file(0).line_starts.at(line - 1);
  return Span{0, begin, begin + 1};
}

TEST(VerifyParse, ReadsEachSeverityAndLocation) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "x;  // expected-error {{unknown name}}\n"
                               "// expected-warning@+2 {{not associative}}\n"
                               "\n"
                               "y;\n"
                               "// expected-note@-3 {{first defined}}\n"
                               "//expected-error@2{{two}}\n");
  ASSERT_TRUE(e.malformed.empty()) << malformed(e, sources).front();
  ASSERT_EQ(e.expected.size(), 4u);
  EXPECT_EQ(e.expected[0].severity, Severity::error);
  EXPECT_EQ(e.expected[0].line, 1u);
  EXPECT_EQ(e.expected[0].text, "unknown name");
  EXPECT_EQ(e.expected[1].severity, Severity::warning);
  EXPECT_EQ(e.expected[1].line, 4u);
  EXPECT_EQ(e.expected[2].severity, Severity::note);
  EXPECT_EQ(e.expected[2].line, 2u);
  EXPECT_EQ(e.expected[3].line, 2u);
  EXPECT_EQ(e.expected[3].text, "two");
  EXPECT_FALSE(e.no_diagnostics);
}

TEST(VerifyParse, ReadsTheIdInBrackets) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "x;  // expected-error [unknown-name] {{unknown name}}\n"
                               "// expected-warning@+1 [agg-not-associative]{{not associative}}\n"
                               "y;  // expected-error {{no id}}\n");
  ASSERT_TRUE(e.malformed.empty()) << malformed(e, sources).front();
  ASSERT_EQ(e.expected.size(), 3u);
  EXPECT_EQ(e.expected[0].id, DiagnosticId::unknown_name);
  EXPECT_EQ(e.expected[0].text, "unknown name");
  EXPECT_EQ(e.expected[1].id, DiagnosticId::agg_not_associative);
  EXPECT_EQ(e.expected[1].line, 3u);
  EXPECT_FALSE(e.expected[2].id);
}

TEST(VerifyParse, ReportsMalformedIds) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "// expected-error [unknown-name {{unclosed}}\n"
                               "// expected-error [unknown-nam] {{misspelt}}\n"
                               "// expected-error [] {{empty}}\n"
                               "// expected-warning [unknown-name] {{an error's}}\n"
                               "// expected-note [redefinition] {{a note's}}\n"
                               "// expected-error [unknown-name]\n");
  EXPECT_TRUE(e.expected.empty());
  const std::vector<std::string> want = {
      "1: '[' without a closing ']'",
      "2: unknown diagnostic ID 'unknown-nam'; gqlc --list-diagnostics lists them",
      "3: unknown diagnostic ID ''; gqlc --list-diagnostics lists them",
      "4: 'unknown-name' is an ID of errors, not warnings",
      "5: a note has no ID; 'expected-note' takes only '{{...}}'",
      "6: 'expected-error' takes the text of the diagnostic in '{{' and '}}'",
  };
  EXPECT_EQ(malformed(e, sources), want);
}

TEST(VerifyParse, IgnoresOtherCommentsStringsAndBlockComments) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "// RUN: gqlc check -verify %s\n"
                               "// a word expected-error {{not a directive}} in prose\n"
                               "require(x, \"// expected-error {{in a string}}\");\n"
                               "/* // expected-error {{in a block comment}} */\n");
  EXPECT_TRUE(e.expected.empty());
  EXPECT_TRUE(e.malformed.empty());
}

TEST(VerifyParse, NoDiagnostics) {
  SourceManager sources;
  const Expectations e = parse(sources, "// expected-no-diagnostics\nkernel k() -> u64 { return 1; }\n");
  EXPECT_TRUE(e.no_diagnostics);
  EXPECT_TRUE(e.expected.empty());
  EXPECT_TRUE(e.malformed.empty());
}

TEST(VerifyParse, ReportsMalformedDirectivesWithTheirLines) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "// expected-error\n"
                               "// expected-error {{unclosed\n"
                               "// expected-error@ {{no line}}\n"
                               "// expected-error@+x {{no number}}\n"
                               "// expected-error@-9 {{above the file}}\n"
                               "// expected-error@99 {{below the file}}\n"
                               "// expected-error@+99999999999999999999999 {{far beyond}}\n"
                               "// expected-eror {{misspelt}}\n"
                               "// expected-error {{}}\n"
                               "// expected-error {{one}} {{two}}\n"
                               "// expected-no-diagnostics please\n");
  EXPECT_TRUE(e.expected.empty());
  const std::vector<std::string> want = {
      "1: 'expected-error' takes the text of the diagnostic in '{{' and '}}'",
      "2: '{{' without a closing '}}'",
      "3: 'expected-error@' takes a line: @N, @+N or @-N",
      "4: 'expected-error@' takes a line: @N, @+N or @-N",
      "5: 'expected-error' names line -4, outside the file (lines 1 to 12)",
      "6: 'expected-error' names line 99, outside the file (lines 1 to 12)",
      "7: 'expected-error' names line 4294967303, outside the file (lines 1 to 12)",
      "8: unknown directive 'expected-eror'; the directives are expected-error, expected-warning, expected-note "
      "and expected-no-diagnostics",
      "9: the text in '{{' and '}}' is empty; name what the diagnostic says",
      "10: 'expected-error' takes one '{{...}}' and nothing after it",
      "11: 'expected-no-diagnostics' takes nothing after it",
  };
  EXPECT_EQ(malformed(e, sources), want);
}

TEST(VerifyParse, NoDiagnosticsBesideExpectationsIsMalformed) {
  SourceManager sources;
  const Expectations e = parse(sources, "// expected-no-diagnostics\nx; // expected-error {{x}}\n");
  EXPECT_EQ(malformed(e, sources),
            std::vector<std::string>{"1: 'expected-no-diagnostics' goes with no other directive, but the spec "
                                     "expects diagnostics"});
}

TEST(VerifyMatch, EveryDiagnosticMetIsSilent) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "fn f() = 1;  // expected-note {{first defined here}}\n"
                               "fn f() = 2;  // expected-error {{redefinition of function 'f'}}\n"
                               "// expected-warning@-1 {{applies to no operation}}\n");
  Diagnostics found;
  found.error(on_line(sources, 2), DiagnosticId::redefinition, "redefinition of function 'f'")->notes.push_back(
      {on_line(sources, 1), "'f' was first defined here"});
  found.warning(on_line(sources, 2), DiagnosticId::unused_directive, "directive 'tile' applies to no operation");
  EXPECT_EQ(match_expectations(e, found, sources), "");
}

TEST(VerifyMatch, ListsWhatWasMissedAndWhatWasNotExpected) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "a;  // expected-error {{unknown name 'a'}}\n"
                               "b;  // expected-error {{unknown name 'b'}}\n"
                               "c;  // expected-note {{declared here}}\n");
  Diagnostics found;
  found.error(on_line(sources, 1), DiagnosticId::unknown_name, "unknown name 'a'");
  found.error(on_line(sources, 3), DiagnosticId::unknown_name, "unknown name 'b'");  // the right text on the wrong line
  found.warning(on_line(sources, 3), DiagnosticId::unused_directive, "directive 'tile' applies to no operation");
  EXPECT_EQ(match_expectations(e, found, sources),
            "error: 'expected-error' diagnostics expected but not seen:\n"
            "  File t.gql Line 2: unknown name 'b'\n"
            "error: 'error' diagnostics seen but not expected:\n"
            "  File t.gql Line 3: unknown name 'b' [unknown-name]\n"
            "error: 'warning' diagnostics seen but not expected:\n"
            "  File t.gql Line 3: directive 'tile' applies to no operation [unused-directive]\n"
            "error: 'expected-note' diagnostics expected but not seen:\n"
            "  File t.gql Line 3: declared here\n");
}

TEST(VerifyMatch, ANamedIdMustMatchToo) {
  SourceManager sources;
  const Expectations e = parse(sources,
                               "a;  // expected-error [unknown-name] {{'a'}}\n"
                               "b;  // expected-error [type-mismatch] {{'b'}}\n");
  Diagnostics found;
  found.error(on_line(sources, 1), DiagnosticId::unknown_name, "unknown name 'a'");
  found.error(on_line(sources, 2), DiagnosticId::unknown_name, "unknown name 'b'");
  EXPECT_EQ(match_expectations(e, found, sources),
            "error: 'expected-error' diagnostics expected but not seen:\n"
            "  File t.gql Line 2: 'b' [type-mismatch]\n"
            "error: 'error' diagnostics seen but not expected:\n"
            "  File t.gql Line 2: unknown name 'b' [unknown-name]\n");
}

TEST(VerifyMatch, EachExpectationMeetsOneDiagnostic) {
  SourceManager sources;
  const Expectations e = parse(sources, "x;  // expected-error {{bad}}\n");
  Diagnostics found;
  found.error(on_line(sources, 1), DiagnosticId::syntax, "bad x");
  found.error(on_line(sources, 1), DiagnosticId::syntax, "bad x");
  EXPECT_EQ(match_expectations(e, found, sources),
            "error: 'error' diagnostics seen but not expected:\n"
            "  File t.gql Line 1: bad x [syntax]\n");
}

TEST(VerifyMatch, MatchesByTheFileTheDiagnosticPointsInto) {
  SourceManager sources;
  sources.add("main.gql", "import \"lib.gql\";\n");
  sources.add("lib.gql", "fn g() = y;  // expected-error {{unknown name 'y'}}\n");
  const Expectations e = parse_expectations(sources);
  Diagnostics found;
  found.error(Span{1, 9, 10}, DiagnosticId::unknown_name, "unknown name 'y'");
  EXPECT_EQ(match_expectations(e, found, sources), "");
  Diagnostics in_main;
  in_main.error(Span{0, 0, 1}, DiagnosticId::unknown_name, "unknown name 'y'");
  EXPECT_EQ(match_expectations(e, in_main, sources),
            "error: 'expected-error' diagnostics expected but not seen:\n"
            "  File lib.gql Line 1: unknown name 'y'\n"
            "error: 'error' diagnostics seen but not expected:\n"
            "  File main.gql Line 1: unknown name 'y' [unknown-name]\n");
}

TEST(VerifyMatch, NoDirectivesAtAllIsAnError) {
  SourceManager sources;
  const Expectations e = parse(sources, "kernel k() -> u64 { return 1; }\n");
  EXPECT_EQ(match_expectations(e, Diagnostics{}, sources).rfind("error: no expected directives found", 0), 0u);
}

TEST(VerifyMatch, NoDiagnosticsExpectedButOneSeen) {
  SourceManager sources;
  const Expectations e = parse(sources, "// expected-no-diagnostics\nx;\n");
  EXPECT_EQ(match_expectations(e, Diagnostics{}, sources), "");
  Diagnostics found;
  found.error(on_line(sources, 2), DiagnosticId::unknown_name, "unknown name 'x'");
  EXPECT_EQ(match_expectations(e, found, sources),
            "error: 'error' diagnostics seen but not expected:\n"
            "  File t.gql Line 2: unknown name 'x' [unknown-name]\n");
}

TEST(Verify, PrintsMalformedDirectivesWithTheirSourceLine) {
  SourceManager sources;
  sources.add("t.gql", "x;  // expected-error@+5 {{x}}\n");
  Diagnostics found;
  found.error(Span{0, 0, 1}, DiagnosticId::unknown_name, "unknown name 'x'");
  EXPECT_EQ(verify_diagnostics(found, sources),
            "t.gql:1:8: error: 'expected-error' names line 6, outside the file (lines 1 to 2) [verify-directive]\n"
            "x;  // expected-error@+5 {{x}}\n"
            "       ^~~~~~~~~~~~~~~~~~~~~~~\n"
            "error: 'error' diagnostics seen but not expected:\n"
            "  File t.gql Line 1: unknown name 'x' [unknown-name]\n");
}

}  // namespace
}  // namespace gql::compiler
