// Shape checks that the OpenMP ops and the GPU ops make alike, with the same messages.
#pragma once

#include <cstdint>
#include <string>

#include "gql/error.hpp"

namespace gql::common {

// Error(usage) naming `op` when two vectors' sizes differ.
inline void check_same_size(int64_t a, int64_t b, const char* op) {
  if (a != b)
    throw Error(ErrorKind::usage, std::string(op) + ": vectors of " + std::to_string(a) + " and " +
                                      std::to_string(b) + " entries");
}

}  // namespace gql::common
