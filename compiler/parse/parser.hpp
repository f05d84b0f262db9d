// Recursive-descent parser for .gql. Reports syntax errors to `diagnostics` and recovers at the
// next statement or declaration, so one run finds many errors; nesting is limited so that no
// input can exhaust the stack.
#pragma once

#include <cstdint>

#include "gql/compiler/ast.hpp"
#include "gql/compiler/diagnostic.hpp"
#include "gql/compiler/source.hpp"

namespace gql::compiler {

inline constexpr int max_nesting = 200;

ast::File parse_file(const SourceManager& sources, uint32_t file, Diagnostics& diagnostics);

}  // namespace gql::compiler
