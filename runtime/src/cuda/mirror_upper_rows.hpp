// The device half of a symmetric graph's upload (symmetric_upload.cpp; not a public header): the
// rows' upper parts as they arrived, and the whole graph rebuilt from them (mirror_upper_rows.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gql/device.hpp"

namespace gql::detail {

// On the device, as the host sent them: per row, the count of entries before its diagonal (`lower`)
// and from it on (`upper`), and the rows' upper entries one after another.
struct UpperRows {
  const uint32_t* lower;
  const uint32_t* upper;
  const index_t* columns;
  const void* values;  // nullptr for a pattern graph
  size_t value_bytes;
  int64_t n;
  uint64_t n_upper;  // entries sent
  uint64_t n_lower;  // entries before the diagonals, to be mirrored
};

// Device scratch that mirror_upper_rows takes for a graph of n rows with n_upper entries sent.
size_t mirror_scratch_bytes(int64_t n, uint64_t n_upper);
// Writes the whole graph's offsets, columns and values: row i is the mirror of the entries that name
// column i in earlier rows, then its own upper part. Throws ErrorKind::internal where the counts sent
// do not match the mirrored entries (a graph marked symmetric that is not); returns once done.
void mirror_upper_rows(const UpperRows& in, const DeviceCsrParts& out, const Stream& stream);

}  // namespace gql::detail
