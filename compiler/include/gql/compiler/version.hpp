#pragma once

namespace gql::compiler {

// The gql release this compiler belongs to ("major.minor.patch").
const char* version() noexcept;

}  // namespace gql::compiler
