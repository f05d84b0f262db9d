// Splits .gql text into tokens. Comments and white space are skipped; bad characters and
// unterminated comments or strings become diagnostics and the lexer moves on.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gql/compiler/diagnostic.hpp"
#include "gql/compiler/source.hpp"

namespace gql::compiler {

enum class TokenKind { identifier, integer, floating, string, punct, end };

struct Token {
  TokenKind kind = TokenKind::end;
  std::string_view text;   // the token as written (strings: without quotes)
  uint64_t integer = 0;
  double floating = 0.0;
  Span span;
};

// Tokens of one file, always ending in one `end` token.
std::vector<Token> lex(const SourceManager& sources, uint32_t file, Diagnostics& diagnostics);

}  // namespace gql::compiler
