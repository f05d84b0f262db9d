// Element reads and stores of a CUDA kernel (`x = v[i]`, `x = G[i, j]`, `x = M[i, j]`, `v[i] = x`,
// `G[i, j] = x`, `M[i, j] = x`) over the kernel's values where they are current (Residents):
// - a read of a value current on the host reads it there; of a value current only on the device it
//   reads that one entry there (gql/device/values/element_reads.hpp), never a copy of the value, and leaves
//   the value there. A missing entry is the host's error, at the read's place in the spec;
// - a store into a value current on the device waits with it and is written there at its next read
//   (gql/device/values/element_stores.hpp); into a value current only on the host it is the host's store
//   (whose new entries wait too: gql/pending_stores.hpp).
// Same results and errors as gql::cpu's element and set_element.
//
// Host code (g++ or nvcc): the kernels are the runtime library's, so host-compiled code (the JIT's
// NVRTC path) reads and stores on the device too.
#pragma once

#include <cstdint>

#include "gql/cpu/ops.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/element_reads.hpp"
#include "gql/error.hpp"

namespace gql::gpu {

// v[i]
template <class T>
T element(Resident<Vector<T>>& v, int64_t i, const Location& where, const Stream& stream) {
  if (v.on_host()) return cpu::element(v.host(stream), i, where);
  cpu::check_vector_index(i, v.rows(), where);
  const DeviceVector<T>& d = v.device(stream);  // the waiting stores written first
  if (d.is_dense()) return T(read_back(d.values().data() + i, stream));
  const std::optional<T> stored = stored_entry<T>(d, 0, i, stream);
  if (!stored) throw cpu::missing_entry(i, where);
  return *stored;
}

// A(i, j) of a graph
template <class T>
T element(Resident<Csr<T>>& A, int64_t i, int64_t j, const Location& where, const Stream& stream) {
  if (A.on_host()) return cpu::element(A.host(stream), i, j, where);
  cpu::check_element_index(i, j, A.rows(), A.cols(), "graph");
  const std::optional<T> stored = stored_entry<T>(A.device(stream), i, j, stream);
  if (!stored) throw cpu::missing_entry(i, j, where);
  return *stored;
}

// M(i, j) of a dense matrix
template <class T>
T element(Resident<Matrix<T>>& M, int64_t i, int64_t j, const Location& where, const Stream& stream) {
  if (M.on_host()) return cpu::element(M.host(stream), i, j, where);
  cpu::check_element_index(i, j, M.rows(), M.cols(), "matrix");
  return T(read_back(M.device(stream).data().data() + i * M.cols() + j, stream));
}

// w[i] = value
template <class TW, class S>
void set_element(Resident<Vector<TW>>& w, int64_t i, S value, const Stream& stream) {
  cpu::check_vector_index(i, w.rows());
  if (!w.on_device()) {
    cpu::set_element(w.host_for_write(stream), i, value);
    return;
  }
  w.store_on_device(i, static_cast<storage_t<TW>>(convert_element<TW>(value)), stream);
}

// C(i, j) = value of a graph (a pattern graph's entry is true whatever the value)
template <class TC, class S>
void set_element(Resident<Csr<TC>>& C, int64_t i, int64_t j, S value, const Stream& stream) {
  cpu::check_element_index(i, j, C.rows(), C.cols(), "graph");
  if (!C.on_device()) {
    cpu::set_element(C.host_for_write(stream), i, j, value);
    return;
  }
  C.store_on_device(i * C.cols() + j, static_cast<storage_t<TC>>(cpu::detail::cast_value<TC>(value)), stream);
}

// C(i, j) = value of a dense matrix
template <class TC, class S>
void set_element(Resident<Matrix<TC>>& C, int64_t i, int64_t j, S value, const Stream& stream) {
  cpu::check_element_index(i, j, C.rows(), C.cols(), "matrix");
  if (!C.on_device()) {
    cpu::set_element(C.host_for_write(stream), i, j, value);
    return;
  }
  C.store_on_device(i * C.cols() + j, cpu::detail::cast_value<TC>(value), stream);
}

}  // namespace gql::gpu
