#include "gql/compiler/verify.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace gql::compiler {

namespace {

constexpr std::string_view directive_prefix = "expected-";

// [begin, end) of each line comment's text (after the "//", up to the line break). Strings and block
// comments are stepped over as the lexer steps over them, so a "//" inside one starts no comment.
struct Comment {
  uint32_t begin = 0;
  uint32_t end = 0;
};

std::vector<Comment> line_comments(std::string_view text) {
  std::vector<Comment> comments;
  size_t pos = 0;
  while (pos < text.size()) {
    const std::string_view rest = text.substr(pos);
    if (rest.starts_with("//")) {
      const size_t end = std::min(text.find('\n', pos), text.size());
      comments.push_back({static_cast<uint32_t>(pos + 2), static_cast<uint32_t>(end)});
      pos = end;
    } else if (rest.starts_with("/*")) {
      const size_t close = text.find("*/", pos + 2);
      pos = close == std::string_view::npos ? text.size() : close + 2;
    } else if (rest[0] == '"') {
      ++pos;
      while (pos < text.size() && text[pos] != '"' && text[pos] != '\n') ++pos;
      if (pos < text.size() && text[pos] == '"') ++pos;
    } else {
      ++pos;
    }
  }
  return comments;
}

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// Reads the directive of one comment, if it starts with one, into `into`.
class DirectiveReader {
 public:
  DirectiveReader(const SourceManager& sources, uint32_t file, Comment comment, Expectations& into)
      : sources_(sources), file_(file), text_(sources.file(file).text), end_(comment.end), pos_(comment.begin),
        into_(into) {
    while (end_ > pos_ && is_blank(text_[end_ - 1])) --end_;
  }

  void read() {
    skip_blanks();
    if (!rest().starts_with(directive_prefix)) return;
    begin_ = pos_;
    pos_ += directive_prefix.size();
    const uint32_t word_begin = pos_;
    while (pos_ < end_ && (std::islower(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '-')) ++pos_;
    const std::string_view word = text_.substr(word_begin, pos_ - word_begin);
    if (word == "no-diagnostics") return read_no_diagnostics();
    if (word == "error") return read_expectation(Severity::error);
    if (word == "warning") return read_expectation(Severity::warning);
    if (word == "note") return read_expectation(Severity::note);
    malformed("unknown directive 'expected-" + std::string(word) +
              "'; the directives are expected-error, expected-warning, expected-note and expected-no-diagnostics");
  }

 private:
  // The comment's text from pos_ on.
  std::string_view rest() const { return text_.substr(pos_, end_ - pos_); }

  void skip_blanks() {
    while (pos_ < end_ && is_blank(text_[pos_])) ++pos_;
  }

  void malformed(std::string message) {
    into_.malformed.push_back(
        Diagnostic{Severity::error, DiagnosticId::verify_directive, Span{file_, begin_, end_}, std::move(message), {}});
  }

  void read_no_diagnostics() {
    skip_blanks();
    if (pos_ < end_) return malformed("'expected-no-diagnostics' takes nothing after it");
    if (!into_.no_diagnostics) into_.no_diagnostics = Span{file_, begin_, end_};
  }

  void read_expectation(Severity severity) {
    const std::string directive = std::string(directive_prefix) + to_string(severity);
    const auto line = expected_line(directive);
    if (!line) return;
    skip_blanks();
    std::optional<DiagnosticId> id;
    if (rest().starts_with("[")) {
      id = expected_id(severity);
      if (!id) return;
      skip_blanks();
    }
    if (!rest().starts_with("{{"))
      return malformed("'" + directive + "' takes the text of the diagnostic in '{{' and '}}'");
    const size_t close = rest().find("}}", 2);
    if (close == std::string_view::npos) return malformed("'{{' without a closing '}}'");
    std::string expected(rest().substr(2, close - 2));
    if (expected.empty()) return malformed("the text in '{{' and '}}' is empty; name what the diagnostic says");
    pos_ += static_cast<uint32_t>(close + 2);
    skip_blanks();
    if (pos_ < end_) return malformed("'" + directive + "' takes one '{{...}}' and nothing after it");
    into_.expected.push_back(Expectation{severity, file_, *line, std::move(expected), id});
  }

  // The ID in "[NAME]": one of the table's, of the directive's severity.
  std::optional<DiagnosticId> expected_id(Severity severity) {
    const size_t close = rest().find(']');
    if (close == std::string_view::npos) {
      malformed("'[' without a closing ']'");
      return std::nullopt;
    }
    const std::string name(rest().substr(1, close - 1));
    pos_ += static_cast<uint32_t>(close + 1);
    if (severity == Severity::note) {
      malformed("a note has no ID; 'expected-note' takes only '{{...}}'");
      return std::nullopt;
    }
    const auto id = diagnostic_named(name);
    if (!id) {
      malformed("unknown diagnostic ID '" + name + "'; gqlc --list-diagnostics lists them");
      return std::nullopt;
    }
    if (diagnostic_info(*id).severity != severity) {
      malformed("'" + name + "' is an ID of " + to_string(diagnostic_info(*id).severity) + "s, not " +
                to_string(severity) + "s");
      return std::nullopt;
    }
    return id;
  }

  // The line the directive names: its own, or the one its @N, @+N or @-N says.
  std::optional<uint32_t> expected_line(const std::string& directive) {
    const int64_t own = sources_.line_column(file_, begin_).line;
    if (pos_ >= end_ || text_[pos_] != '@') return static_cast<uint32_t>(own);
    ++pos_;
    const char sign = pos_ < end_ && (text_[pos_] == '+' || text_[pos_] == '-') ? text_[pos_++] : '\0';
    // Past this a number names no line of any file a compilation can read (1 MiB of text).
    constexpr int64_t beyond_any_file = int64_t{1} << 32;
    int64_t number = 0;
    const uint32_t digits = pos_;
    for (; pos_ < end_ && std::isdigit(static_cast<unsigned char>(text_[pos_])); ++pos_)
      number = std::min(number * 10 + (text_[pos_] - '0'), beyond_any_file);
    if (pos_ == digits) {
      malformed("'" + directive + "@' takes a line: @N, @+N or @-N");
      return std::nullopt;
    }
    const int64_t line = sign == '+' ? own + number : sign == '-' ? own - number : number;
    // A diagnostic at the end of a file that ends in a line break is on the empty line after it.
    const auto lines = static_cast<int64_t>(sources_.file(file_).line_starts.size());
    if (line < 1 || line > lines) {
      malformed("'" + directive + "' names line " + std::to_string(line) + ", outside the file (lines 1 to " +
                std::to_string(lines) + ")");
      return std::nullopt;
    }
    return static_cast<uint32_t>(line);
  }

  const SourceManager& sources_;
  uint32_t file_;
  std::string_view text_;
  uint32_t end_;
  uint32_t pos_;
  uint32_t begin_ = 0;  // where the directive's "expected-" starts
  Expectations& into_;
};

// A diagnostic or one of its notes, as the expectations see it.
struct Seen {
  Severity severity;
  Span span;
  const std::string* message;
  std::optional<DiagnosticId> id;  // none for a note
};

std::vector<Seen> everything_seen(const Diagnostics& found) {
  std::vector<Seen> seen;
  for (const Diagnostic& d : found.all()) {
    seen.push_back({d.severity, d.span, &d.message, d.id});
    for (const Note& n : d.notes) seen.push_back({Severity::note, n.span, &n.message, std::nullopt});
  }
  return seen;
}

// " [unknown-name]" after a message in the report, as its diagnostic shows it.
std::string bracketed(std::optional<DiagnosticId> id) {
  return id ? " [" + std::string(to_string(*id)) + "]" : "";
}

// 0 for a diagnostic that points into no file ("cannot read" the spec).
uint32_t line_of(Span span, const SourceManager& sources) {
  if (span.file >= sources.size()) return 0;
  const uint32_t size = static_cast<uint32_t>(sources.file(span.file).text.size());
  return sources.line_column(span.file, std::min(span.begin, size)).line;
}

std::string where(uint32_t file, uint32_t line, const SourceManager& sources) {
  if (file >= sources.size()) return "(no file)";
  return "File " + sources.file(file).path + " Line " + std::to_string(line);
}

}  // namespace

Expectations parse_expectations(const SourceManager& sources) {
  Expectations expectations;
  for (uint32_t file = 0; file < sources.size(); ++file) {
    for (const Comment& comment : line_comments(sources.file(file).text))
      DirectiveReader(sources, file, comment, expectations).read();
  }
  if (expectations.no_diagnostics && !expectations.expected.empty())
    expectations.malformed.push_back(Diagnostic{Severity::error, DiagnosticId::verify_directive,
                                                *expectations.no_diagnostics,
                                                "'expected-no-diagnostics' goes with no other directive, but the "
                                                "spec expects diagnostics",
                                                {}});
  return expectations;
}

std::string match_expectations(const Expectations& expectations, const Diagnostics& found,
                               const SourceManager& sources) {
  if (expectations.expected.empty() && !expectations.no_diagnostics && expectations.malformed.empty())
    return "error: no expected directives found: state each diagnostic with 'expected-error {{...}}' (or "
           "-warning, -note), or a clean spec with 'expected-no-diagnostics'\n";
  // Each diagnostic takes the first expectation it meets that no earlier diagnostic took.
  const std::vector<Seen> seen = everything_seen(found);
  std::vector<bool> met(expectations.expected.size(), false);
  std::vector<const Seen*> unexpected;
  for (const Seen& s : seen) {
    const uint32_t line = line_of(s.span, sources);
    bool matched = false;
    for (size_t i = 0; i < expectations.expected.size() && !matched; ++i) {
      const Expectation& e = expectations.expected[i];
      matched = !met[i] && e.severity == s.severity && e.file == s.span.file && e.line == line &&
                s.message->find(e.text) != std::string::npos && (!e.id || e.id == s.id);
      if (matched) met[i] = true;
    }
    if (!matched) unexpected.push_back(&s);
  }
  std::string report;
  for (Severity severity : {Severity::error, Severity::warning, Severity::note}) {
    const std::string name = to_string(severity);
    std::string missing, extra;
    for (size_t i = 0; i < expectations.expected.size(); ++i) {
      const Expectation& e = expectations.expected[i];
      if (!met[i] && e.severity == severity)
        missing += "  " + where(e.file, e.line, sources) + ": " + e.text + bracketed(e.id) + "\n";
    }
    for (const Seen* s : unexpected) {
      if (s->severity == severity)
        extra += "  " + where(s->span.file, line_of(s->span, sources), sources) + ": " + *s->message + bracketed(s->id) +
                 "\n";
    }
    if (!missing.empty()) report += "error: 'expected-" + name + "' diagnostics expected but not seen:\n" + missing;
    if (!extra.empty()) report += "error: '" + name + "' diagnostics seen but not expected:\n" + extra;
  }
  return report;
}

std::string verify_diagnostics(const Diagnostics& found, const SourceManager& sources) {
  const Expectations expectations = parse_expectations(sources);
  std::string report;
  for (const Diagnostic& d : expectations.malformed) report += render(d, sources);
  return report + match_expectations(expectations, found, sources);
}

}  // namespace gql::compiler
