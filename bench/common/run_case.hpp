// One case of a benchmark run (a graph, a file, a source): a gql::Error it throws is reported as
// "WHAT NAME: reason" and counts as a failed case, so the other cases still run.
#pragma once

#include <cstdio>
#include <string>

#include "gql/error.hpp"

namespace gql::bench {

template <class F>
bool run_case(const char* what, const std::string& name, F&& run) {
  try {
    return run();
  } catch (const Error& e) {
    std::fprintf(stderr, "%s %s: %s\n", what, name.c_str(), e.what());
    return false;
  }
}

}  // namespace gql::bench
