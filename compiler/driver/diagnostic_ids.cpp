// The diagnostics table's rows (gql/compiler/diagnostics.def) as DiagnosticInfo values, and the
// lookups over them.
#include "gql/compiler/diagnostic_ids.hpp"

namespace gql::compiler {

const char* to_string(Severity s) noexcept {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

const std::vector<DiagnosticInfo>& diagnostic_table() {
  static const std::vector<DiagnosticInfo> rows = {
#define GQL_DIAGNOSTIC(id, name, severity, description) {DiagnosticId::id, name, Severity::severity, description},
#include "gql/compiler/diagnostics.def"
#undef GQL_DIAGNOSTIC
  };
  return rows;
}

const DiagnosticInfo& diagnostic_info(DiagnosticId id) noexcept { return diagnostic_table()[static_cast<size_t>(id)]; }

const char* to_string(DiagnosticId id) noexcept { return diagnostic_info(id).name; }

std::optional<DiagnosticId> diagnostic_named(std::string_view name) noexcept {
  for (const DiagnosticInfo& row : diagnostic_table())
    if (name == row.name) return row.id;
  return std::nullopt;
}

}  // namespace gql::compiler
