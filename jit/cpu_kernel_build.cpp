#include "cpu_kernel_build.hpp"

#include <cstdio>

#include "gql/error.hpp"
#include "precompiled_prelude.hpp"

namespace gql::jit {
namespace {

// The compiler's first error line in a build failure's message, else the message's first line.
std::string first_diagnostic(const std::string& message) {
  for (const char* marker : {"fatal error: ", "error: "}) {
    const size_t at = message.find(marker);
    if (at != std::string::npos) return message.substr(at, message.find('\n', at) - at);
  }
  return message.substr(0, message.find('\n'));
}

}  // namespace

KernelBuild build_kernel_library(DiskCache& cache, const std::optional<CacheKeyBuilder>& prelude_key,
                                 const HostCompiler& compiler, const std::vector<std::string>& flags,
                                 const std::vector<std::string>& libraries, const std::string& source,
                                 const std::string& output, const std::string& failed_source) {
  KernelBuild build;
  const std::string prelude = prelude_key ? prelude_of(source) : "";
  if (prelude.empty()) {
    build_shared_object(compiler, flags, libraries, source, output, failed_source);
    return build;
  }
  std::optional<PrecompiledPrelude> precompiled;
  try {
    precompiled = precompiled_prelude(cache, CacheKeyBuilder(*prelude_key).add("prelude", prelude).finish(), compiler,
                                      flags, prelude);
  } catch (const Error& e) {
    build.prelude = KernelBuild::Prelude::unusable;
    build.prelude_error = e.what();
    build_shared_object(compiler, flags, libraries, source, output, failed_source);
    return build;
  }
  build.prelude_origin = precompiled->entry.origin;
  build.prelude_seconds = precompiled->entry.build_seconds;
  try {
    build_shared_object(compiler, flags, libraries, source, output, failed_source, precompiled->header);
    build.prelude = KernelBuild::Prelude::used;
    return build;
  } catch (const Error& e) {
    // Either the source is wrong (the plain compile fails too, and its messages are the ones to
    // report) or the compiler refused the precompiled header: a header it was built from changed.
    build.prelude_error = e.what();
  }
  build_shared_object(compiler, flags, libraries, source, output, failed_source);
  build.prelude = KernelBuild::Prelude::refused;
  discard(*precompiled);
  return build;
}

std::string describe(const KernelBuild& build) {
  switch (build.prelude) {
    case KernelBuild::Prelude::none: return "without a precompiled prelude";
    case KernelBuild::Prelude::used: {
      if (build.prelude_seconds <= 0) return "with the precompiled runtime headers (" + std::string(to_string(build.prelude_origin)) + ")";
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.2f s", build.prelude_seconds);
      return "with the runtime headers precompiled first (" + std::string(seconds) + ")";
    }
    case KernelBuild::Prelude::refused:
      return "without the precompiled runtime headers (the compiler refused them, so they are rebuilt next time: " +
             first_diagnostic(build.prelude_error) + ")";
    case KernelBuild::Prelude::unusable:
      return "without the precompiled runtime headers (" + first_diagnostic(build.prelude_error) + ")";
  }
  return "";
}

}  // namespace gql::jit
