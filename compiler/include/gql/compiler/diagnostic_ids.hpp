// The diagnostic IDs, read from the diagnostics table (gql/compiler/diagnostics.def): what each
// diagnostic reports, its kebab-case name and whether it is an error or a warning.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gql::compiler {

enum class Severity { error, warning, note };
const char* to_string(Severity s) noexcept;

enum class DiagnosticId : uint16_t {
#define GQL_DIAGNOSTIC(id, name, severity, description) id,
#include "gql/compiler/diagnostics.def"
#undef GQL_DIAGNOSTIC
};

inline constexpr size_t diagnostic_id_count = 0
#define GQL_DIAGNOSTIC(id, name, severity, description) +1
#include "gql/compiler/diagnostics.def"
#undef GQL_DIAGNOSTIC
    ;

struct DiagnosticInfo {
  DiagnosticId id;
  const char* name;         // kebab-case: shown after the message, named by -verify and -Wno-NAME
  Severity severity;        // error or warning: which of Diagnostics::error and ::warning reports it
  const char* description;  // one line: what it reports
};

const DiagnosticInfo& diagnostic_info(DiagnosticId id) noexcept;
const char* to_string(DiagnosticId id) noexcept;  // its name
// The ID of this name, or nothing.
std::optional<DiagnosticId> diagnostic_named(std::string_view name) noexcept;
// Every row of the table, in DiagnosticId order.
const std::vector<DiagnosticInfo>& diagnostic_table();

}  // namespace gql::compiler
