// A build of generated source by an outside compiler (the host compiler, nvcc): the source is
// written beside the output, compiled and removed. When the compiler fails it is kept as
// `failed_source`, one file per cache key (repeated failures replace it instead of piling up in the
// cache's temporary folder), and the key's next successful build removes that file.
#pragma once

#include <string>
#include <vector>

namespace gql::jit {

// Writes `source` to `source_path` and runs `argv`, which compiles it. Throws Error(io) when the
// source cannot be written, and Error(jit) "WHAT failed (exit N); the source is kept in PATH", the
// command and the compiler's messages when the compiler fails.
void compile_generated_source(const std::string& source, const std::string& source_path,
                              const std::string& failed_source, const std::vector<std::string>& argv,
                              const std::string& what);

}  // namespace gql::jit
