// Shared body of the reader fuzz targets: parse the input under several element types and policies;
// an io error (or oom past the memory cap) is the expected answer to bad input, anything else (a crash, a sanitizer report, an
// invalid graph, another error kind) is a finding.
#pragma once

#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gql/io.hpp"

namespace gql_fuzz {

// A valid file may declare up to 2^31-1 vertices, and its graph then needs gigabytes of row offsets.
// Such inputs are fuzzed too, under a host memory cap the readers honor (GQL_HOST_MEMORY_LIMIT, set
// before the first input): past it they must refuse with Error(oom) naming the file, never allocate.
// The cap bounds an input's time as well, which grows with the vertices it declares: about 1 M fit
// under 16 MiB, 2.6 s under the sanitizers (a shared machine's load makes that tens of seconds). One
// thread, since OpenMP's waiting threads spin on a loaded machine.
inline void cap_memory() {
  setenv("GQL_HOST_MEMORY_LIMIT", "16M", 0);
  omp_set_num_threads(1);
}

template <class T>
void parse_checked(std::string_view bytes, gql::Format format, const gql::ReadOptions& options) {
  try {
    gql::Csr<T> g = gql::parse_graph<T>(bytes, format, "fuzz", options);
    g.validate();
  } catch (const gql::Error& e) {
    if (e.kind() != gql::ErrorKind::io && e.kind() != gql::ErrorKind::oom) std::abort();
  }
}

inline void parse_all(std::string_view bytes, gql::Format format) {
  parse_checked<bool>(bytes, format, {});
  parse_checked<double>(bytes, format, {.duplicates = gql::Duplicates::sum, .symmetrize = true});
  parse_checked<int8_t>(bytes, format, {.self_loops = gql::SelfLoops::drop, .duplicates = gql::Duplicates::sum});
  parse_checked<uint32_t>(bytes, format, {.duplicates = gql::Duplicates::error, .symmetrize = true});
  parse_checked<float>(bytes, format, {.duplicates = gql::Duplicates::max});
}

}  // namespace gql_fuzz

// The readers' targets start here: the memory cap first.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  gql_fuzz::cap_memory();
  return 0;
}
