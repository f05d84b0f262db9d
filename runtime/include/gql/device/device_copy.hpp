// The device copy of a host graph, made once and kept with the graph's contents (gql/derived.hpp):
// a graph that a loop's products, many searches or many kernel calls read is uploaded once, and a
// graph that is written is uploaded again on its next use (its old copy is dropped with it).
//
// Host code (g++ or nvcc).
#pragma once

#include "gql/device.hpp"
#include "gql/graph.hpp"

namespace gql::gpu {

// The copy is made on `stream` and complete when this returns, so any stream may read it.
template <class T>
const DeviceCsr<T>& device_copy(const Csr<T>& graph, const Stream& stream) {
  return graph.derived().template get<DeviceCsr<T>>("gpu/copy", [&] { return to_device(graph, stream); });
}

}  // namespace gql::gpu
