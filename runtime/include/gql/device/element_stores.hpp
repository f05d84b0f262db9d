// Element stores into a dense device matrix, kept on the host until the matrix is next read and then
// written by one launch (GraphBLAS's pending tuples, gql/pending_stores.hpp). A loop of `D[i, i] = x`
// over a matrix on the device costs a host append per store, not a transfer and a synchronization each.
//
// Host code (g++ or nvcc); the launch is in the runtime library (src/cuda/element_stores.cu).
#pragma once

#include <cstddef>
#include <cstdint>

#include "gql/device.hpp"
#include "gql/pending_stores.hpp"

namespace gql::gpu {

// data[positions[n]] = values[n] for n < count, on `stream`: `count` distinct positions of elements of
// `element_bytes` bytes (1, 2, 4 or 8); positions and values are host arrays, read before the return.
void scatter_elements(void* data, size_t element_bytes, const int64_t* positions, const void* values, int64_t count,
                      const Stream& stream);

// Writes a dense matrix's pending stores into its device data in one launch (of two stores to one
// position the later wins), then forgets them.
template <class V>
void write_stores(PendingStores<V>& pending, DeviceBuffer<V>& data, const Stream& stream) {
  if (pending.empty()) return;
  const auto stores = pending.resolved();
  scatter_elements(data.data(), sizeof(V), stores.positions.data(), stores.values.data(),
                   static_cast<int64_t>(stores.positions.size()), stream);
  pending.clear();
}

}  // namespace gql::gpu
