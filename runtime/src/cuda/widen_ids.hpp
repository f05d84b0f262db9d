// Widens a narrowed upload's elements on the device (runtime/src/cuda/widen_ids.cu; not a public header).
#pragma once

#include <cstddef>

#include "gql/device.hpp"

namespace gql::gpu {

// `count` elements of `wire_bytes` each (little-endian) at `packed` into `out`, `element_bytes` (4 or
// 8) each, after what `stream` holds.
void widen_on_device(const unsigned char* packed, unsigned wire_bytes, void* out, unsigned element_bytes,
                     size_t count, const Stream& stream);

}  // namespace gql::gpu
