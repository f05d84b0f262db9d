// A BFS's levels on the device as the sparse vector the language returns: the reached vertices and
// their depths. Held by the runtime library (runtime/src/cuda/levels_vector.cu); host code.
#pragma once

#include <cstdint>

#include "gql/device.hpp"

namespace gql::gpu {

// `narrow` holds bytes (0xff: not reached) or `wide` ints (INT_MAX: not reached); the other is null.
// `reached`: how many vertices the search reached (it counts them step by step), checked against the
// levels (Error(internal) when they differ). Runs on `stream` and returns once the vector is made.
DeviceVector<int32_t> levels_vector(const unsigned char* narrow, const int* wide, int64_t n, int64_t reached,
                                    const Stream& stream);

}  // namespace gql::gpu
