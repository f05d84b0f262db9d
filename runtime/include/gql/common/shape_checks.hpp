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

// A masked assignment writes a result of the output's own shape.
inline void check_assignment_shape(int64_t c_rows, int64_t c_cols, int64_t z_rows, int64_t z_cols) {
  if (c_rows != z_rows || c_cols != z_cols)
    throw Error(ErrorKind::usage, "masked assignment: the output is " + std::to_string(c_rows) + " x " +
                                      std::to_string(c_cols) + ", the result " + std::to_string(z_rows) + " x " +
                                      std::to_string(z_cols));
}

}  // namespace gql::common
