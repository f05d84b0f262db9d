#include "gql/compiler/version.hpp"

namespace gql::compiler {

const char* version() noexcept { return GQL_VERSION; }

}  // namespace gql::compiler
