#include "parse/lexer.hpp"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <string>

namespace gql::compiler {
namespace {

bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The longest name, number or string: messages quote tokens, so this bounds what they echo (a
// 16 MB name once made a 16 MB diagnostic); no name, literal or import path needs more.
constexpr size_t max_token_chars = 4096;

// ROWSxCOLS, both without leading zeros: 8x16.
bool is_shape(std::string_view text) {
  const size_t x = text.find('x');
  const auto digits = [](std::string_view d) {
    if (d.empty() || d[0] == '0') return false;
    for (char c : d)
      if (!is_digit(c)) return false;
    return true;
  };
  return x != std::string_view::npos && digits(text.substr(0, x)) && digits(text.substr(x + 1));
}

class Lexer {
 public:
  Lexer(std::string_view text, uint32_t file, Diagnostics& diagnostics)
      : text_(text), file_(file), diagnostics_(diagnostics) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    for (;;) {
      skip_space_and_comments();
      if (pos_ >= text_.size()) break;
      Token t = next();
      if (t.kind != TokenKind::end) tokens.push_back(t);
    }
    Token end;
    end.span = span(static_cast<uint32_t>(text_.size()), static_cast<uint32_t>(text_.size()));
    tokens.push_back(end);
    return tokens;
  }

 private:
  Span span(uint32_t begin, uint32_t end) const { return Span{file_, begin, end}; }

  // Reports the token [begin, pos_) when it is longer than max_token_chars.
  bool too_long(uint32_t begin, const char* what) {
    if (pos_ - begin <= max_token_chars) return false;
    diagnostics_.error(span(begin, static_cast<uint32_t>(pos_)), DiagnosticId::token_too_long,
                       std::string(what) + " of " + std::to_string(pos_ - begin) + " characters; at most " +
                           std::to_string(max_token_chars));
    return true;
  }

  void skip_space_and_comments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '/') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        uint32_t begin = static_cast<uint32_t>(pos_);
        size_t close = text_.find("*/", pos_ + 2);
        if (close == std::string_view::npos) {
          diagnostics_.error(span(begin, begin + 2), DiagnosticId::unterminated_token, "unterminated block comment");
          pos_ = text_.size();
        } else {
          pos_ = close + 2;
        }
      } else {
        return;
      }
    }
  }

  // Returns a token, or a token of kind `end` when the characters were rejected (and reported).
  Token next() {
    uint32_t begin = static_cast<uint32_t>(pos_);
    char c = text_[pos_];
    Token t;
    if (is_ident_start(c)) {
      while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
      if (too_long(begin, "a name")) return Token{};
      t.kind = TokenKind::identifier;
    } else if (is_digit(c) || (c == '.' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1]))) {
      return number(begin);
    } else if (c == '"') {
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\n') ++pos_;
      if (pos_ >= text_.size() || text_[pos_] != '"') {
        diagnostics_.error(span(begin, static_cast<uint32_t>(pos_)), DiagnosticId::unterminated_token,
                           "unterminated string");
        return Token{};
      }
      ++pos_;
      if (too_long(begin, "a string")) return Token{};
      t.kind = TokenKind::string;
      t.text = text_.substr(begin + 1, pos_ - begin - 2);
      t.span = span(begin, static_cast<uint32_t>(pos_));
      return t;
    } else {
      static constexpr std::string_view two_char[] = {"->", ">=", "<=", "==", "!=", "&&", "||"};
      static constexpr std::string_view one_char = "{}()[]<>,;:=+-*/%!@.";
      std::string_view rest = text_.substr(pos_);
      size_t length = 0;
      for (std::string_view op : two_char) {
        if (rest.substr(0, 2) == op) length = 2;
      }
      if (length == 0 && one_char.find(c) != std::string_view::npos) length = 1;
      if (length == 0) {
        ++pos_;
        std::string shown = std::isprint(static_cast<unsigned char>(c))
                                ? std::string("'") + c + "'"
                                : "byte " + std::to_string(static_cast<unsigned char>(c));
        diagnostics_.error(span(begin, begin + 1), DiagnosticId::unexpected_character, "unexpected character " + shown);
        return Token{};
      }
      pos_ += length;
      t.kind = TokenKind::punct;
    }
    t.text = text_.substr(begin, pos_ - begin);
    t.span = span(begin, static_cast<uint32_t>(pos_));
    return t;
  }

  Token number(uint32_t begin) {
    bool is_float = false;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.' &&
        !(pos_ + 1 < text_.size() && text_[pos_ + 1] == '.')) {
      is_float = true;
      ++pos_;
      while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && is_digit(text_[p])) {
        is_float = true;
        pos_ = p;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
      }
    }
    // A number running into letters (12abc) is one bad token, not two; but a shape, 8x16 (no leading
    // zeros), is a word for schedule directives (register_tile 8x16).
    bool trailing = false;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) {
      ++pos_;
      trailing = true;
    }
    if (too_long(begin, "a number")) return Token{};
    Token t;
    t.text = text_.substr(begin, pos_ - begin);
    t.span = span(begin, static_cast<uint32_t>(pos_));
    if (trailing && !is_float && is_shape(t.text)) {
      t.kind = TokenKind::identifier;
      return t;
    }
    if (trailing) {
      diagnostics_.error(t.span, DiagnosticId::malformed_number, "malformed number '" + std::string(t.text) + "'");
      return Token{};
    }
    std::string digits(t.text);
    errno = 0;
    if (is_float) {
      t.kind = TokenKind::floating;
      t.floating = std::strtod(digits.c_str(), nullptr);
      if (errno == ERANGE) diagnostics_.error(t.span, DiagnosticId::literal_out_of_range,
                                              "floating-point literal out of range");
    } else {
      t.kind = TokenKind::integer;
      t.integer = std::strtoull(digits.c_str(), nullptr, 10);
      if (errno == ERANGE) diagnostics_.error(t.span, DiagnosticId::literal_out_of_range,
                                              "integer literal does not fit in 64 bits");
    }
    return t;
  }

  std::string_view text_;
  uint32_t file_;
  Diagnostics& diagnostics_;
  size_t pos_ = 0;
};

}  // namespace

std::vector<Token> lex(const SourceManager& sources, uint32_t file, Diagnostics& diagnostics) {
  return Lexer(sources.file(file).text, file, diagnostics).run();
}

}  // namespace gql::compiler
