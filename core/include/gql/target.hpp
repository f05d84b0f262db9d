// The back ends a spec is compiled for: OpenMP C++ on the host's cores, or CUDA on the GPU. One
// enum for the compiler's IR (gql::compiler::ir::Target) and the JIT's options (gql::Target).
#pragma once

namespace gql {

enum class Target { openmp, cuda };

// "openmp" or "cuda": the word a schedule block and the command lines use.
constexpr const char* target_name(Target t) noexcept { return t == Target::cuda ? "cuda" : "openmp"; }

}  // namespace gql
