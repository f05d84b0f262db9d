// The library's build id for cache keys: the gql version, the content of the runtime headers the
// kernels are compiled against and the runtime library they are linked with. Computed once per
// layout and process.
#pragma once

#include <string>

#include "gql/compiler/install_layout.hpp"

namespace gql::jit {

std::string build_id(const compiler::RuntimeLayout& layout);
// A library file as a cache key sees it: its path, size and modification time.
std::string library_identity(const std::string& path);

}  // namespace gql::jit
