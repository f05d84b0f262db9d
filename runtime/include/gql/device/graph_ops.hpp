// The graph ops of a CUDA kernel on the GPU, over the kernel's values where they are (Residents):
// the empty graph of a constructor, tril and triu (the band kernels of runtime/src/cuda/graph_band.cu),
// transpose (gql/device/device_transpose.hpp), apply and reduce. The plan places them on the device
// when they write their whole output (no mask), in its input's element type (apply: in any but bool);
// the other forms run gql::cpu's ops of the same names on the host. Same results as those ops; a float sum reduces in another order,
// so it agrees to rounding. Every result is left on the device.
//
// Host code. The band and transpose kernels are the runtime library's, so host-compiled code (the
// JIT's NVRTC path) runs them on the device too; apply (the spec's function) and reduce over stored
// values launch kernels nvcc builds, and host-compiled code runs them on the graph's host side instead.
#pragma once

#include <cstdint>
#include <type_traits>
#include <utility>

#include "gql/cpu/elementwise.hpp"
#include "gql/cpu/mask.hpp"
#include "gql/device.hpp"
#include "gql/device/device_transpose.hpp"
#include "gql/device/resident.hpp"
#include "gql/semiring.hpp"

#if defined(__CUDACC__)
#include "gql/device/vector_slots.cuh"
#endif

namespace gql::gpu {

namespace detail {
// Where each row's kept run starts in the graph (first) and the band's row offsets and entry count.
struct BandRows {
  DeviceBuffer<offset_t> offsets;
  DeviceBuffer<offset_t> first;
  int64_t nvals;
};
// The rows of the band j - i <= k (lower) or j - i >= k (upper) of a graph's structure.
BandRows band_rows(const offset_t* offsets, const index_t* columns, int64_t n_rows, int64_t n_cols, int64_t k,
                   bool lower, const Stream& stream);
// The band's columns and values (elements of `value_bytes`, 0: none) gathered from the graph's.
void band_entries(const BandRows& band, int64_t n_rows, const index_t* columns, const void* values, size_t value_bytes,
                  index_t* band_columns, void* band_values, const Stream& stream);

template <class T>
DeviceCsr<T> band(const DeviceCsr<T>& g, int64_t k, bool lower, const Stream& stream) {
  BandRows rows = band_rows(g.row_offsets().data(), g.col_indices().data(), g.n_rows(), g.n_cols(), k, lower, stream);
  const auto nvals = static_cast<size_t>(rows.nvals);
  DeviceBuffer<index_t> columns(nvals);
  DeviceBuffer<storage_t<T>> values(stores_values<T> ? nvals : 0);
  if constexpr (stores_values<T>)
    band_entries(rows, g.n_rows(), g.col_indices().data(), g.values().data(), sizeof(storage_t<T>), columns.data(),
                 values.data(), stream);
  else
    band_entries(rows, g.n_rows(), g.col_indices().data(), nullptr, 0, columns.data(), nullptr, stream);
  stream.synchronize();  // the next op may read it on another stream
  return DeviceCsr<T>(g.n_rows(), g.n_cols(), rows.nvals, std::move(rows.offsets), std::move(columns),
                      std::move(values));
}
}  // namespace detail

// graph<T>(rows, cols): no entries, made on the device.
template <class T>
DeviceCsr<T> empty_graph(int64_t rows, int64_t cols, const Stream& stream) {
  DeviceCsr<T> g(rows, cols, 0);
  memset_async(g.row_offsets().data(), 0, (static_cast<size_t>(rows) + 1) * sizeof(offset_t), stream);
  stream.synchronize();
  return g;
}

// C = tril(A, k) / triu(A, k): the entries with j - i <= k / j - i >= k.
template <class T>
void tril(Resident<Csr<T>>& C, cpu::NoMask, bool, Resident<Csr<T>>& A, int64_t k, const Stream& stream) {
  C.set_device(detail::band(A.device(stream), k, /*lower=*/true, stream));
}
template <class T>
void triu(Resident<Csr<T>>& C, cpu::NoMask, bool, Resident<Csr<T>>& A, int64_t k, const Stream& stream) {
  C.set_device(detail::band(A.device(stream), k, /*lower=*/false, stream));
}

// C = A': the device transpose (a copy of A when A is known to be symmetric).
template <class T>
void transpose(Resident<Csr<T>>& C, cpu::NoMask, bool, Resident<Csr<T>>& A, const Stream& stream) {
  const DeviceCsr<T>& a = A.device(stream);
  DeviceCsr<T> t = a.derived().symmetric() ? copy_on_device(a, stream) : transpose(a, stream);
  stream.synchronize();
  C.set_device(std::move(t));
}

#if defined(__CUDACC__)
namespace detail {
// out[p] = fn(in[p]) as R, over a graph's stored values (a pattern graph's are all true: in is null).
template <class R, class T, class F>
struct MapValues {
  const storage_t<T>* in;
  F fn;
  storage_t<R>* out;
  __device__ void operator()(long long p) const { out[p] = slots_detail::cast_to<R>(fn(in != nullptr ? T(in[p]) : T(true))); }
};
}  // namespace detail

// C = apply(A, fn): A's entries with fn of their values, converted to C's element type. A bool result
// drops its false entries (as on the host), so it is made there.
template <class TC, class TA, class F>
  requires(!std::is_same_v<TC, bool>)
void apply(Resident<Csr<TC>>& C, cpu::NoMask, bool, Resident<Csr<TA>>& A, F fn, const Stream& stream) {
  const DeviceCsr<TA>& a = A.device(stream);
  DeviceCsr<TC> out(a.n_rows(), a.n_cols(), a.nvals());
  out.row_offsets().copy_from_device(a.row_offsets(), stream);
  out.col_indices().copy_from_device(a.col_indices(), stream);
  const storage_t<TA>* in = nullptr;
  if constexpr (stores_values<TA>) in = a.values().data();
  slots_detail::launch_for_each(a.nvals(), detail::MapValues<TC, TA, F>{in, fn, out.values().data()}, stream);
  stream.synchronize();
  if (a.derived().symmetric()) out.derived().mark_symmetric();  // values mapped one by one stay symmetric
  C.set_device(std::move(out));
}
#else
template <class TC, class TA, class F>
void apply(Resident<Csr<TC>>& C, cpu::NoMask mask, bool replace, Resident<Csr<TA>>& A, F fn, const Stream& stream) {
  cpu::apply(C.host_for_write(stream), mask, replace, A.host(stream), fn);
}
#endif

// reduce(A, M) of A's stored entries: a pattern graph's entries are all true, so its count decides;
// stored values are reduced on the device (by a host-compiled caller, on the host), one read back.
template <Monoid M, class R, class T>
R reduce(Resident<Csr<T>>& A, const Stream& stream) {
  if constexpr (!stores_values<T>) {
    return cpu::reduce_pattern<M, R>(A.nvals());
  } else {
#if defined(__CUDACC__)
    const DeviceCsr<T>& g = A.device(stream);
    return reduce_values<M, R, T>(g.values().data(), g.nvals(), stream);
#else
    return cpu::reduce<M, R>(A.host(stream));
#endif
  }
}

}  // namespace gql::gpu
