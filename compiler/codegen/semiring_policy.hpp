// A semiring instance as the policy struct that kernel templates take (gql/semiring.hpp), and the
// module's pure functions as GQL_HD C++ functions. Shared by every target.
#pragma once

#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::codegen {

std::string emit_semiring_policy(const ir::SemiringInstance& s);
std::string emit_function(const ir::Function& f);
// The C++ identifier of a Monoid enumerator: "gql::Monoid::sum".
std::string monoid_enumerator(gql::Monoid m);

}  // namespace gql::compiler::codegen
