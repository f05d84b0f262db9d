// Reads of one entry of a value current on the device, without a copy of the value: the host reads only
// the scalars it needs. A dense matrix's or vector's entry is one small read of its slot; a graph's
// entry (i, j) is a binary search in row i's columns, and a sparse vector's entry i one in its indices,
// by one device thread, whose answer (found, and the value) is one small read.
//
// Host code (g++ or nvcc); the search kernel is in the runtime library (src/cuda/element_reads.cu).
#pragma once

#include <cstdint>
#include <optional>
#include <type_traits>

#include "gql/device.hpp"
#include "gql/device/values/sorted_entries.hpp"

namespace gql::gpu {

// Finds entry (row, column) among `entries`; when it is stored, copies its value (entries.value_bytes
// bytes, none for a pattern graph) into `value` and returns true. Waits for the answer.
bool find_entry(const SortedEntries& entries, int64_t row, int64_t column, void* value, const Stream& stream);

// Entry (row, column) of a graph or a sparse vector (row 0) on the device, or nothing where none is
// stored; a pattern graph's entries are true.
template <class T, class Device>
std::optional<T> stored_entry(const Device& value, int64_t row, int64_t column, const Stream& stream) {
  storage_t<T> stored{};
  if (!find_entry(sorted_entries_of(value), row, column, &stored, stream)) return std::nullopt;
  if constexpr (stores_values<T> || !std::is_same_v<Device, DeviceCsr<T>>) return T(stored);
  else return true;
}

}  // namespace gql::gpu
