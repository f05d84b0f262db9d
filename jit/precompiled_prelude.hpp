// The runtime headers that generated CPU kernels start with, precompiled once per cache:
//   DIR/v1/KEY.prelude.hpp       the leading #include lines of the generated source
//   DIR/v1/KEY.prelude.hpp.gch   its precompiled form, a cache entry like the kernels (trailer, lock,
//                                atomic publish, LRU); clang++ and g++ both read it for `-include`
// Parsing those headers is a third of a cold kernel compile; with the prelude precompiled, only the
// spec's own code is parsed, instantiated and optimized.
#pragma once

#include <string>
#include <vector>

#include "disk_cache.hpp"
#include "host_compiler.hpp"

namespace gql::jit {

// The #include lines that open `source` (comments and blank lines between them skipped: the
// generated source's first comment names the spec, which must not split the prelude); "" when none.
std::string prelude_of(const std::string& source);

struct PrecompiledPrelude {
  std::string header;  // pass to build_shared_object; its .gch sits next to it
  CacheEntry entry;    // the precompiled header
};

// The precompiled `prelude` for `key` (a key over the prelude and everything the kernel keys hold but
// the source), built on a miss with `flags`. Throws gql::Error when it cannot be built.
PrecompiledPrelude precompiled_prelude(DiskCache& cache, const CacheKey& key, const HostCompiler& compiler,
                                       const std::vector<std::string>& flags, const std::string& prelude);

// Removes a precompiled header that the compiler refused (a header it was built from has changed on
// disk since): the next kernel build makes it again.
void discard(const PrecompiledPrelude& prelude);

}  // namespace gql::jit
