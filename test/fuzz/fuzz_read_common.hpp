// Shared body of the reader fuzz targets: parse the input under several element types and policies;
// an io error is the expected answer to bad input, anything else (a crash, a sanitizer report, an
// invalid graph, another error kind) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "gql/io.hpp"

namespace gql_fuzz {

// A valid file may declare up to 2^31-1 vertices, and its graph then needs gigabytes of row offsets:
// correct, but not what a fuzzer should spend memory on. Inputs with a number of 7+ digits are skipped.
inline bool has_huge_number(std::string_view text) {
  int run = 0;
  for (char c : text) {
    run = (c >= '0' && c <= '9') ? run + 1 : 0;
    if (run >= 7) return true;
  }
  return false;
}

template <class T>
void parse_checked(std::string_view bytes, gql::Format format, const gql::ReadOptions& options) {
  try {
    gql::Csr<T> g = gql::parse_graph<T>(bytes, format, "fuzz", options);
    g.validate();
  } catch (const gql::Error& e) {
    if (e.kind() != gql::ErrorKind::io) std::abort();
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
