// What device single-source paths (gql/device/traversal/sssp.hpp) learn about a graph and hand back, computed
// on the device so that a kernel's graph and paths never travel to the host for it: the weights'
// sum and sign, whether the search reached every out-neighbour of what it reached, and the reached
// vertices' values as a sparse vector. Held by the runtime library (runtime/src/cuda/paths_result.cu);
// host code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gql/device.hpp"

namespace gql::gpu {

struct WeightSummary {
  double sum = 0;
  bool non_negative = true;  // no weight is negative or NaN
};

// Over `count` weights on the device; T is any element type. Waits for the answer.
template <class T>
WeightSummary summarize_weights(const T* weights, int64_t count, const Stream& stream);

// Whether every out-neighbour (offsets/columns: a CSR structure on the device, n rows) of a vertex
// with reached[v] != 0 has reached != 0 too. Waits for the answer.
bool every_out_neighbour_reached(const offset_t* offsets, const index_t* columns, int64_t n,
                                 const unsigned char* reached, const Stream& stream);

namespace detail {
// The ids v < n with reached[v] != 0, in order, into `ids` (n of room); returns how many (waits).
int64_t select_reached(const unsigned char* reached, int64_t n, index_t* ids, const Stream& stream);
// to[i] = from[ids[i]] for i < count, elements of `bytes` (1, 2, 4 or 8) each.
void gather_elements(void* to, const void* from, const index_t* ids, int64_t count, size_t bytes,
                     const Stream& stream);
}  // namespace detail

// The vertices v < n with reached[v] != 0 and their values, as the sparse vector the language returns.
template <class V>
DeviceVector<V> reached_values(const storage_t<V>* values, const unsigned char* reached, int64_t n,
                               const Stream& stream) {
  StreamBuffer<index_t> ids(static_cast<size_t>(n > 0 ? n : 1), stream);
  const int64_t count = n > 0 ? detail::select_reached(reached, n, ids.data(), stream) : 0;
  DeviceVector<V> out = DeviceVector<V>::sparse(n, count);
  if (count > 0) {
    copy_async(out.indices().data(), ids.data(), static_cast<size_t>(count) * sizeof(index_t),
               cudaMemcpyDeviceToDevice, stream, __FILE__, __LINE__);
    detail::gather_elements(out.values().data(), values, ids.data(), count, sizeof(storage_t<V>), stream);
  }
  return out;  // `ids` is freed in the stream's order, after the gather
}

}  // namespace gql::gpu
