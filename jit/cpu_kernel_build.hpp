// Builds a CPU kernel library from generated source: with the cache's precompiled prelude when there
// is one, else (or when the compiler refuses it) from the plain source. The precompiled header only
// ever saves time: any trouble with it falls back to the plain compile.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "disk_cache.hpp"
#include "host_compiler.hpp"

namespace gql::jit {

struct KernelBuild {
  enum class Prelude {
    none,      // not asked for (GQL_JIT_PCH=0, or the source opens with no #include)
    used,      // compiled against the precompiled prelude
    refused,   // the compile with it failed and the plain compile succeeded: it was stale, discarded
    unusable,  // it could not be precompiled; `prelude_error` says why
  };
  Prelude prelude = Prelude::none;
  CacheOrigin prelude_origin = CacheOrigin::disk;  // for `used` and `refused`
  double prelude_seconds = 0;                      // time spent precompiling it (0 on a hit)
  std::string prelude_error;
};

// Builds `source` into `output`. With `prelude_key` (a key over everything the kernel's key holds
// but its source), the leading #include lines are precompiled under that key plus their text.
// Throws gql::Error(jit) when the source does not compile, which is then kept as `failed_source`.
KernelBuild build_kernel_library(DiskCache& cache, const std::optional<CacheKeyBuilder>& prelude_key,
                                 const HostCompiler& compiler, const std::vector<std::string>& flags,
                                 const std::vector<std::string>& libraries, const std::string& source,
                                 const std::string& output, const std::string& failed_source);

// For GQL_JIT_VERBOSE: e.g. "with the precompiled runtime headers (reused from the disk cache)".
std::string describe(const KernelBuild& build);

}  // namespace gql::jit
