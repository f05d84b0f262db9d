// A minimal checker harness for the GPU tests: plain executables with no test framework, so they
// build on a bare CUDA machine. Each check prints what failed; main returns 1 if any did, 77 (CTest's
// "skipped") when there is no GPU unless GQL_REQUIRE_GPU=1 says one must be there.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "gql/device.hpp"

namespace gql::gpu_test {

inline int& failures() {
  static int count = 0;
  return count;
}

// --small: inputs small enough for compute-sanitizer.
inline bool& small_inputs() {
  static bool small = false;
  return small;
}

inline bool check(bool ok, const std::string& what, const char* file, int line) {
  if (!ok) {
    ++failures();
    if (failures() <= 50) std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
  }
  return ok;
}

// Runs the test body; returns the process exit code.
template <class Body>
int run_main(int argc, char** argv, const char* name, Body body) {
  // Line by line, so a test stopped by a time limit still shows how far it came.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--small") == 0) small_inputs() = true;
  if (device_count() == 0) {
    const char* require = std::getenv("GQL_REQUIRE_GPU");
    const bool required = require != nullptr && std::strcmp(require, "1") == 0;
    std::printf("%s: no CUDA device%s\n", name, required ? " (GQL_REQUIRE_GPU=1: failing)" : "; skipped");
    return required ? 1 : 77;
  }
  try {
    body();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: uncaught exception: %s\n", name, e.what());
    return 1;
  }
  std::printf("%s: %s (%d failed checks)\n", name, failures() == 0 ? "PASS" : "FAIL", failures());
  return failures() == 0 ? 0 : 1;
}

}  // namespace gql::gpu_test

#define GPU_CHECK(cond) ::gql::gpu_test::check((cond), #cond, __FILE__, __LINE__)
#define GPU_CHECK_MSG(cond, msg) ::gql::gpu_test::check((cond), std::string(#cond " -- ") + (msg), __FILE__, __LINE__)
