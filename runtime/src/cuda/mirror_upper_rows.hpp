// The device half of a symmetric graph's upload (symmetric_upload.cpp; not a public header): the
// buffers the host sends the rows' upper parts into, and the whole graph rebuilt from them
// (mirror_upper_rows.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gql/device.hpp"

namespace gql::detail {

// One allocation for the whole upload (a pool's growth by hundreds of megabytes costs milliseconds,
// a cudaMalloc of them a fraction of one), for a graph of n rows with at most `bound` entries sent.
struct MirrorBuffers {
  DeviceBuffer<unsigned char> memory;
  int64_t n = 0;
  uint64_t bound = 0;
  size_t value_bytes = 0;
  // Filled by the host: per row, the count of entries before its diagonal and from it on; the rows'
  // upper entries one after another, and their values.
  uint32_t* lower = nullptr;
  uint32_t* upper = nullptr;
  uint32_t* columns = nullptr;  // also the sort's keys: each entry's column, or n for a diagonal one
  unsigned char* values = nullptr;
  // The mirroring's: the sort's values (an entry's row for a pattern graph, its position otherwise),
  // the sort's second buffers, each row's first mirrored entry among them, a failed check's flag, and
  // CUB's scratch.
  uint32_t* sort_values = nullptr;
  uint32_t* alt_keys = nullptr;
  uint32_t* alt_values = nullptr;
  offset_t* lower_start = nullptr;
  int* broken = nullptr;
  unsigned char* cub = nullptr;
  size_t cub_bytes = 0;
};

size_t mirror_buffer_bytes(int64_t n, uint64_t bound, size_t value_bytes);
MirrorBuffers mirror_buffers(int64_t n, uint64_t bound, size_t value_bytes);

// Writes the whole graph's offsets, columns and values from the n_upper entries sent (n_lower of the
// rows' entries lie before their diagonals): row i is the mirror of the entries that name column i
// in earlier rows, then its own upper part. Throws ErrorKind::internal where the counts sent do not
// match the mirrored entries (a graph marked symmetric that is not); returns once done.
void mirror_upper_rows(MirrorBuffers& buffers, uint64_t n_upper, uint64_t n_lower, const DeviceCsrParts& out,
                       const Stream& stream);

}  // namespace gql::detail
