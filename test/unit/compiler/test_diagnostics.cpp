// Diagnostics: clang-style rendering with a caret under the span, and the error cap.
#include <gtest/gtest.h>

#include "gql/compiler/diagnostic.hpp"

namespace gql::compiler {
namespace {

TEST(Diagnostics, RendersLineColumnSourceAndCaret) {
  SourceManager sources;
  uint32_t id = sources.add("k.gql", "kernel k() -> u64 {\n  return cuont;\n}\n");
  Diagnostics diagnostics;
  Diagnostic* d = diagnostics.error(Span{id, 29, 34}, DiagnosticId::unknown_name, "unknown name 'cuont'");
  ASSERT_NE(d, nullptr);
  d->notes.push_back({Span{id, 7, 8}, "in kernel 'k'"});
  EXPECT_EQ(render(*d, sources),
            "k.gql:2:10: error: unknown name 'cuont' [unknown-name]\n"
            "  return cuont;\n"
            "         ^~~~~\n"
            "k.gql:1:8: note: in kernel 'k'\n"
            "kernel k() -> u64 {\n"
            "       ^\n");
}

TEST(Diagnostics, CaretStopsAtTheEndOfTheLine) {
  SourceManager sources;
  uint32_t id = sources.add("k.gql", "ab\ncd");
  Diagnostics diagnostics;
  const Diagnostic* d = diagnostics.warning(Span{id, 1, 5}, DiagnosticId::unused_directive, "spans two lines");
  EXPECT_EQ(render(*d, sources), "k.gql:1:2: warning: spans two lines [unused-directive]\nab\n ^\n");
}

TEST(Diagnostics, CapsTheNumberOfErrors) {
  SourceManager sources;
  uint32_t id = sources.add("k.gql", "x");
  Diagnostics diagnostics(3);
  for (int i = 0; i < 10; ++i) diagnostics.error(Span{id, 0, 1}, DiagnosticId::syntax, "e" + std::to_string(i));
  EXPECT_TRUE(diagnostics.saturated());
  EXPECT_EQ(diagnostics.all().size(), 4u);
  EXPECT_EQ(diagnostics.all().back().message, "too many errors; stopping here");
  EXPECT_EQ(diagnostics.all().back().id, DiagnosticId::too_many_errors);
}

TEST(Diagnostics, SortsByPositionKeepingTheCapLast) {
  SourceManager sources;
  uint32_t id = sources.add("k.gql", "abcdef");
  Diagnostics diagnostics;
  diagnostics.error(Span{id, 4, 5}, DiagnosticId::syntax, "second");
  diagnostics.warning(Span{id, 1, 2}, DiagnosticId::unused_directive, "first");
  diagnostics.sort_by_location();
  EXPECT_EQ(diagnostics.all()[0].message, "first");
  EXPECT_EQ(diagnostics.all()[1].message, "second");
}

}  // namespace
}  // namespace gql::compiler
