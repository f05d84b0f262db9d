// The phases of a CUDA program (gql/program.hpp): its graph, matrix and vector arguments uploaded
// once before the runs, each run's compute on the device timed apart from its result's download.
//
// Host code (nvcc, in the programs that gqlc builds).
#pragma once

#include <type_traits>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/program.hpp"

namespace gql::gpu {

namespace detail {
template <class T> size_t host_bytes(const Csr<T>& g) {
  return (static_cast<size_t>(g.n_rows()) + 1) * sizeof(offset_t) +
         static_cast<size_t>(g.nvals()) * (sizeof(index_t) + (stores_values<T> ? sizeof(T) : 0));
}
template <class T> size_t host_bytes(const Matrix<T>& m) {
  return static_cast<size_t>(m.n_rows()) * static_cast<size_t>(m.n_cols()) * sizeof(storage_t<T>);
}
template <class T> size_t host_bytes(const Vector<T>& v) {
  return static_cast<size_t>(v.is_dense() ? v.size() : v.nvals()) * (sizeof(index_t) + sizeof(storage_t<T>));
}
}  // namespace detail

// A kernel argument, uploaded (and current on the host as well). A value over half the device's free
// memory stays on the host only: the ops that take such a value stream it from there (an
// out-of-core closure), and the others upload it when they first read it.
template <class Host>
Resident<Host> uploaded(const Host& value) {
  Resident<Host> argument = Resident<Host>::borrow(value);
  if (detail::host_bytes(value) <= MemoryBudget::global().available() / 2) {
    const Stream stream;
    argument.device(stream);
    stream.synchronize();
  }
  return argument;
}

// One run of a kernel over Residents: the kernel on the run's stream until the device is done (its
// compute), then the result brought to the host (its download).
template <class F>
auto compute_then_download(Run& run, F&& kernel) {
  KernelContext& ctx = run.context();
  const CallStream call_stream(ctx);
  auto result = kernel(ctx);
  call_stream.stream().synchronize();
  run.computed();
  return take_host(std::move(result), call_stream.stream());
}

}  // namespace gql::gpu
