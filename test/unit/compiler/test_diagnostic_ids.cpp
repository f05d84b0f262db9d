// The diagnostics table (gql/compiler/diagnostics.def): its names, the lookups over them, the ID on a
// rendered diagnostic's first line and the silencing of warnings by ID.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gql/compiler/diagnostic.hpp"

namespace gql::compiler {
namespace {

bool is_kebab_case(const std::string& name) {
  if (name.empty() || name.front() == '-' || name.back() == '-' || name.find("--") != std::string::npos) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  return true;
}

TEST(DiagnosticIds, NamesAreUniqueKebabCaseAndSpellTheEnumerator) {
  std::set<std::string> names;
  for (const DiagnosticInfo& row : diagnostic_table()) {
    EXPECT_TRUE(is_kebab_case(row.name)) << row.name;
    EXPECT_TRUE(names.insert(row.name).second) << "twice: " << row.name;
    EXPECT_NE(row.severity, Severity::note) << row.name;
    EXPECT_NE(std::string(row.description), "") << row.name;
  }
  EXPECT_EQ(names.size(), diagnostic_id_count);
#define GQL_DIAGNOSTIC(id, name, severity, description)                                    \
  {                                                                                        \
    std::string spelled = #id;                                                             \
    for (char& c : spelled) c = c == '_' ? '-' : c;                                        \
    EXPECT_EQ(spelled, name) << "the name is the enumerator in kebab-case";               \
  }
#include "gql/compiler/diagnostics.def"
#undef GQL_DIAGNOSTIC
}

TEST(DiagnosticIds, LookupByNameRoundTrips) {
  for (const DiagnosticInfo& row : diagnostic_table()) {
    EXPECT_EQ(&diagnostic_info(row.id), &row);
    EXPECT_EQ(std::string(to_string(row.id)), row.name);
    EXPECT_EQ(diagnostic_named(row.name), row.id) << row.name;
  }
  EXPECT_EQ(diagnostic_named("unknown-name"), DiagnosticId::unknown_name);
  EXPECT_FALSE(diagnostic_named("unknown_name"));
  EXPECT_FALSE(diagnostic_named(""));
}

TEST(DiagnosticIds, TheRenderedFirstLineEndsWithTheIdAndNotesCarryNone) {
  SourceManager sources;
  const uint32_t file = sources.add("k.gql", "fn f() = 1;\nfn f() = 2;\n");
  Diagnostics diagnostics;
  Diagnostic* d = diagnostics.error(Span{file, 15, 16}, DiagnosticId::redefinition, "redefinition of function 'f'");
  ASSERT_NE(d, nullptr);
  d->notes.push_back({Span{file, 3, 4}, "'f' was first defined here"});
  const std::string text = render(*d, sources);
  EXPECT_EQ(text.substr(0, text.find('\n')), "k.gql:2:4: error: redefinition of function 'f' [redefinition]");
  EXPECT_NE(text.find("k.gql:1:4: note: 'f' was first defined here\n"), std::string::npos) << text;
  // A diagnostic without a place (an unreadable spec) ends with its ID as well.
  const Diagnostic* unplaced =
      diagnostics.error(Span{UINT32_MAX, 0, 0}, DiagnosticId::unreadable_file, "cannot read 'x.gql'");
  EXPECT_EQ(render(*unplaced, sources), "error: cannot read 'x.gql' [unreadable-file]\n");
}

TEST(DiagnosticIds, SilencedWarningsAreLeftOut) {
  Diagnostics diagnostics;
  diagnostics.silence(DiagnosticId::agg_not_associative);
  EXPECT_EQ(diagnostics.warning(Span{}, DiagnosticId::agg_not_associative, "not associative"), nullptr);
  EXPECT_NE(diagnostics.warning(Span{}, DiagnosticId::agg_not_commutative, "not commutative"), nullptr);
  EXPECT_EQ(diagnostics.all().size(), 1u);
  EXPECT_EQ(diagnostics.warning_count(), 1u);
}

}  // namespace
}  // namespace gql::compiler
