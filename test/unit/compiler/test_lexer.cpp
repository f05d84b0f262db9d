// Lexer: tokens, spans, comments, numbers and the errors it recovers from.
#include <gtest/gtest.h>

#include "../../../compiler/parse/lexer.hpp"

namespace gql::compiler {
namespace {

std::vector<Token> lex_text(SourceManager& sources, Diagnostics& diagnostics, std::string text) {
  uint32_t id = sources.add("t.gql", std::move(text));
  return lex(sources, id, diagnostics);
}

TEST(Lexer, TokensAndSpans) {
  SourceManager sources;
  Diagnostics diagnostics;
  auto tokens = lex_text(sources, diagnostics, "C<!G, replace> = G * G over paths; // done\n x>=1.5e3");
  std::vector<std::string> texts;
  for (const Token& t : tokens) texts.emplace_back(t.text);
  std::vector<std::string> expected = {"C", "<", "!", "G", ",", "replace", ">", "=", "G", "*", "G",
                                       "over", "paths", ";", "x", ">=", "1.5e3", ""};
  EXPECT_EQ(texts, expected);
  EXPECT_FALSE(diagnostics.has_errors());
  EXPECT_EQ(tokens[15].span.begin, 45u);
  EXPECT_EQ(tokens[15].span.end, 47u);
  EXPECT_EQ(tokens[16].kind, TokenKind::floating);
  EXPECT_DOUBLE_EQ(tokens[16].floating, 1500.0);
  EXPECT_EQ(tokens.back().kind, TokenKind::end);
}

TEST(Lexer, IntegersUpTo64Bits) {
  SourceManager sources;
  Diagnostics diagnostics;
  auto tokens = lex_text(sources, diagnostics, "18446744073709551615 18446744073709551616");
  ASSERT_EQ(tokens.size(), 3u);
  EXPECT_EQ(tokens[0].integer, UINT64_MAX);
  EXPECT_EQ(diagnostics.error_count(), 1u);  // the second one overflows
}

TEST(Lexer, BlockCommentsAndStrings) {
  SourceManager sources;
  Diagnostics diagnostics;
  auto tokens = lex_text(sources, diagnostics, "a /* b \n c */ import \"std/x.gql\"");
  ASSERT_EQ(tokens.size(), 4u);
  EXPECT_EQ(tokens[2].kind, TokenKind::string);
  EXPECT_EQ(tokens[2].text, "std/x.gql");
}

TEST(Lexer, RecoversFromBadInput) {
  SourceManager sources;
  Diagnostics diagnostics;
  auto tokens = lex_text(sources, diagnostics, "a $ b 12ab \"open\n /* never closed");
  std::vector<std::string> texts;
  for (const Token& t : tokens) texts.emplace_back(t.text);
  EXPECT_EQ(texts, (std::vector<std::string>{"a", "b", ""}));
  EXPECT_EQ(diagnostics.error_count(), 4u);  // '$', 12ab, unterminated string, unterminated comment
}

}  // namespace
}  // namespace gql::compiler
