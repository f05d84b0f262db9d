// The graph ops of a CUDA kernel on the GPU, over the kernel's values where they are (Residents):
// the empty graph of a constructor, tril and triu (the band kernels of runtime/src/cuda/graph_band.cu),
// transpose (gql/device/device_transpose.hpp), copies, apply, union and intersect (a thread merges a
// row's two sorted column lists), assignment of a scalar, and reduce. Every form runs here: through
// a mask (structural or value, plain or complemented, replace or merge), where the result T is made
// unmasked and merged with C's old entries through the mask (gql/device/values/graph_assign.hpp), and into
// another element type, converted as the host converts (gql::convert_element; a conversion to bool
// keeps every entry, as gql::convert does, while apply, union and intersect into bool leave out
// their false entries, as gql::cpu's ops do). Same results as gql::cpu's ops of the same names; a
// float sum reduces in another order, so it agrees to rounding. Every result is left on the device.
//
// Host code. The band, transpose and masked merge kernels are the runtime library's, so host-compiled
// code (the JIT's NVRTC path) runs tril, triu, transpose and copies within one element type on the
// device too; apply, union and intersect (the spec's functions), conversions, scalar assignments and
// reduce over stored values launch kernels nvcc builds (gql/device/values/graph_kernels.cuh), and
// host-compiled code runs them on the graphs' host sides instead.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>

#include "gql/common/mask.hpp"
#include "gql/cpu/elementwise.hpp"
#include "gql/device.hpp"
#include "gql/device/csr_view.cuh"
#include "gql/device/device_transpose.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/values/graph_assign.hpp"
#include "gql/device/values/graph_mask.hpp"
#include "gql/device/values/mask_values.hpp"
#include "gql/device/values/vector_mask.hpp"
#include "gql/semiring.hpp"

#if defined(__CUDACC__)
#include "gql/device/values/graph_kernels.cuh"
#include "gql/device/values/vector_slots.cuh"
#else
#include "gql/cpu/ops.hpp"
#endif

namespace gql::gpu {

namespace detail {
// offsets[0..n_rows] = the exclusive scan of lengths[0..n_rows) (lengths holds n_rows + 1 slots, the
// last one cleared here); returns the total, read back.
int64_t offsets_of_lengths(offset_t* lengths, offset_t* offsets, int64_t n_rows, const Stream& stream);

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

#if defined(__CUDACC__)
namespace detail {
// A graph of a's structure with fn of each value as R, one value per entry whatever R (a bool
// result's false entries are then dropped by kept_entries).
template <class R, class T, class F>
DeviceCsr<R> mapped(const DeviceCsr<T>& a, F fn, const Stream& stream) {
  const auto nvals = static_cast<size_t>(a.nvals());
  DeviceCsr<R> out(a.n_rows(), a.n_cols(), a.nvals(), DeviceBuffer<offset_t>(static_cast<size_t>(a.n_rows()) + 1),
                   DeviceBuffer<index_t>(nvals), DeviceBuffer<storage_t<R>>(nvals));
  out.row_offsets().copy_from_device(a.row_offsets(), stream);
  out.col_indices().copy_from_device(a.col_indices(), stream);
  const storage_t<T>* in = nullptr;
  if constexpr (stores_values<T>) in = a.values().data();
  slots_detail::launch_for_each(a.nvals(), device::values::MapValues<R, T, F>{in, fn, out.values().data()}, stream);
  stream.synchronize();  // the next op may read it on another stream
  return out;
}

// A result of apply, union or intersect: a graph<bool> stores no values, so the entries whose value
// is false are left out (cpu::detail::keeps), those made with one byte per entry compacted by their
// flags; other results as they are.
template <class T>
DeviceCsr<T> kept_entries(DeviceCsr<T>&& g, const Stream& stream) {
  if constexpr (std::is_same_v<T, bool>) {
    DeviceCsr<bool> kept = true_entries(g.row_offsets().data(), g.col_indices().data(), g.n_rows(), g.n_cols(),
                                        g.nvals(), mask_values<bool>(g.values().data()), stream);
    stream.synchronize();  // g's arrays are freed on return
    return kept;
  } else {
    return std::move(g);
  }
}

// z in the element type R, as gql::convert converts a graph: each value by convert_element, and into
// a pattern graph every entry kept (its structure).
template <class R, class T>
DeviceCsr<R> converted(const DeviceCsr<T>& z, const Stream& stream) {
  if constexpr (!std::is_same_v<R, bool>) {
    return mapped<R>(z, device::values::AsStored{}, stream);
  } else {
    DeviceCsr<bool> out(z.n_rows(), z.n_cols(), z.nvals());
    out.row_offsets().copy_from_device(z.row_offsets(), stream);
    out.col_indices().copy_from_device(z.col_indices(), stream);
    stream.synchronize();
    return out;
  }
}

// The graph a scalar assignment writes before the mask: rows x cols entries (row i's at
// offsets i * cols), or the mask's own entries, every one holding `value` (a pattern graph: none).
template <class T>
DeviceCsr<T> filled_graph(int64_t rows, int64_t cols, const DeviceGraphMask* entries, storage_t<T> value,
                          const Stream& stream) {
  const int64_t nvals = entries != nullptr ? entries->nvals : rows * cols;
  DeviceCsr<T> out(rows, cols, nvals);
  if (entries != nullptr) {
    copy_async(out.row_offsets().data(), entries->row_offsets, (static_cast<size_t>(rows) + 1) * sizeof(offset_t),
               cudaMemcpyDeviceToDevice, stream, __FILE__, __LINE__);
    copy_async(out.col_indices().data(), entries->col_indices, static_cast<size_t>(nvals) * sizeof(index_t),
               cudaMemcpyDeviceToDevice, stream, __FILE__, __LINE__);
  } else {
    slots_detail::launch_for_each(rows + 1, device::values::FullRowOffsets{cols, out.row_offsets().data()}, stream);
    slots_detail::launch_for_each(nvals, device::values::FullColumns{cols, out.col_indices().data()}, stream);
  }
  if constexpr (stores_values<T>)
    slots_detail::launch_for_each(nvals, device::values::Fill<T>{out.values().data(), value}, stream);
  stream.synchronize();
  return out;
}
}  // namespace detail
#endif

// C<mask, replace> = z for z made on the device in its operand's element type: converted to C's
// on the device (by host-compiled code, on the host, as gql::cpu's ops convert), then assigned
// (gql/device/values/graph_assign.hpp).
template <class TC, class Mask, class TZ>
void write_graph(Resident<Csr<TC>>& C, const Mask& mask, bool replace, DeviceCsr<TZ>&& z, const Stream& stream) {
  if constexpr (std::is_same_v<TC, TZ>) {
    assign_graph(C, as_device_graph_mask(mask, stream), replace, std::move(z), stream);
  } else {
#if defined(__CUDACC__)
    assign_graph(C, as_device_graph_mask(mask, stream), replace, detail::converted<TC>(z, stream), stream);
#else
    cpu::assign(C.host_for_write(stream), as_host_mask(mask, stream), replace, z.to_host(stream));
#endif
  }
}

// C<mask, replace> = tril(A, k) / triu(A, k): the entries with j - i <= k / j - i >= k.
template <class TC, class Mask, class TA>
void tril(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, int64_t k,
          const Stream& stream) {
  write_graph(C, mask, replace, detail::band(A.device(stream), k, /*lower=*/true, stream), stream);
}
template <class TC, class Mask, class TA>
void triu(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, int64_t k,
          const Stream& stream) {
  write_graph(C, mask, replace, detail::band(A.device(stream), k, /*lower=*/false, stream), stream);
}

// C<mask, replace> = A': the device transpose (a copy of A when A is known to be symmetric).
template <class TC, class Mask, class TA>
void transpose(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, const Stream& stream) {
  const DeviceCsr<TA>& a = A.device(stream);
  DeviceCsr<TA> t = a.derived().symmetric() ? copy_on_device(a, stream) : transpose(a, stream);
  stream.synchronize();
  write_graph(C, mask, replace, std::move(t), stream);
}

// C<mask, replace> = A: a copy made on the device.
template <class TC, class Mask, class TA>
void assign(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, const Stream& stream) {
  DeviceCsr<TA> copy = copy_on_device(A.device(stream), stream);
  stream.synchronize();
  write_graph(C, mask, replace, std::move(copy), stream);
}

#if defined(__CUDACC__)
// C<mask, replace> = apply(A, fn): A's entries with fn of their values, converted to C's element type.
template <class TC, class Mask, class TA, class F>
void apply(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, F fn, const Stream& stream) {
  const DeviceCsr<TA>& a = A.device(stream);
  DeviceCsr<TC> out = detail::kept_entries(detail::mapped<TC>(a, fn, stream), stream);
  // Values mapped one by one keep a symmetric structure (a bool result's dropped entries need not).
  if (!std::is_same_v<TC, bool> && a.derived().symmetric()) out.derived().mark_symmetric();
  assign_graph(C, as_device_graph_mask(mask, stream), replace, std::move(out), stream);
}

namespace detail {
// Structures only: the rows' offsets and columns (values are passed apart).
template <class T>
device::CsrView<bool> structure_of(const DeviceCsr<T>& g) {
  return {g.n_rows(), g.n_cols(), g.row_offsets().data(), g.col_indices().data(), nullptr};
}

// The rows of A and B merged (union_of_rows: every column of either; else those of both), a thread
// per row, one value per entry whatever TC (a bool result's false entries are then dropped).
template <bool union_of_rows, class TC, class TA, class TB, class F>
DeviceCsr<TC> merged(const DeviceCsr<TA>& a, const DeviceCsr<TB>& b, F fn, const Stream& stream) {
  const int64_t n = a.n_rows();
  const auto rows = static_cast<size_t>(n);
  DeviceBuffer<offset_t> offsets(rows + 1);
  StreamBuffer<offset_t> lengths(rows + 1, stream);
  slots_detail::launch_for_each(
      n, device::values::MergedRowLength<union_of_rows>{structure_of(a), structure_of(b), lengths.data()}, stream);
  const int64_t nvals = offsets_of_lengths(lengths.data(), offsets.data(), n, stream);
  DeviceCsr<TC> out(n, a.n_cols(), nvals, std::move(offsets), DeviceBuffer<index_t>(static_cast<size_t>(nvals)),
                    DeviceBuffer<storage_t<TC>>(static_cast<size_t>(nvals)));
  const storage_t<TA>* a_values = nullptr;
  const storage_t<TB>* b_values = nullptr;
  if constexpr (stores_values<TA>) a_values = a.values().data();
  if constexpr (stores_values<TB>) b_values = b.values().data();
  slots_detail::launch_for_each(
      n,
      device::values::MergedRow<union_of_rows, TC, TA, TB, F>{structure_of(a), structure_of(b), a_values, b_values, fn,
                                                              out.row_offsets().data(), out.col_indices().data(),
                                                              out.values().data()},
      stream);
  stream.synchronize();
  return out;
}
}  // namespace detail

// C<mask, replace> = union(A, B, fn) / intersect(A, B, fn): fn where both have an entry, converted to
// C's element type; union keeps the lone entries as they are.
template <class TC, class Mask, class TA, class TB, class F>
void ewise_union(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, Resident<Csr<TB>>& B,
                 F fn, const Stream& stream) {
  cpu::detail::check_same_shape(A.rows(), A.cols(), B.rows(), B.cols(), "union");
  DeviceCsr<TC> out =
      detail::kept_entries(detail::merged<true, TC>(A.device(stream), B.device(stream), fn, stream), stream);
  assign_graph(C, as_device_graph_mask(mask, stream), replace, std::move(out), stream);
}
template <class TC, class Mask, class TA, class TB, class F>
void ewise_intersect(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A,
                     Resident<Csr<TB>>& B, F fn, const Stream& stream) {
  cpu::detail::check_same_shape(A.rows(), A.cols(), B.rows(), B.cols(), "intersect");
  DeviceCsr<TC> out =
      detail::kept_entries(detail::merged<false, TC>(A.device(stream), B.device(stream), fn, stream), stream);
  assign_graph(C, as_device_graph_mask(mask, stream), replace, std::move(out), stream);
}

// C<mask, replace> = value on a graph: the mask's positions (every position without a mask or under
// a complemented one) hold the value, as gql::cpu::assign_scalar fills them, with its errors.
template <class TC, class Mask, class S>
void assign_scalar(Resident<Csr<TC>>& C, const Mask& mask_in, bool replace, S value, const Stream& stream) {
  const DeviceGraphMask mask = as_device_graph_mask(mask_in, stream);
  const int64_t n = C.rows(), cols = C.cols();
  const bool everywhere = mask.mode() != common::MaskMode::allow;
  if (everywhere && n * cols > (int64_t{1} << 31))
    throw Error(ErrorKind::usage, "assign: filling every position of a " + std::to_string(n) + " x " +
                                      std::to_string(cols) + " graph would store more than 2^31 entries");
  mask.check_shape(n, cols, "assign");  // before its rows are read as the filled graph's
  const auto v = static_cast<storage_t<TC>>(convert_element<TC>(value));
  assign_graph(C, mask, replace, detail::filled_graph<TC>(n, cols, everywhere ? nullptr : &mask, v, stream), stream);
}
#else
template <class TC, class Mask, class TA, class F>
void apply(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, F fn, const Stream& stream) {
  cpu::apply(C.host_for_write(stream), as_host_mask(mask, stream), replace, A.host(stream), fn);
}
template <class TC, class Mask, class TA, class TB, class F>
void ewise_union(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A, Resident<Csr<TB>>& B,
                 F fn, const Stream& stream) {
  cpu::ewise_union(C.host_for_write(stream), as_host_mask(mask, stream), replace, A.host(stream), B.host(stream), fn);
}
template <class TC, class Mask, class TA, class TB, class F>
void ewise_intersect(Resident<Csr<TC>>& C, const Mask& mask, bool replace, Resident<Csr<TA>>& A,
                     Resident<Csr<TB>>& B, F fn, const Stream& stream) {
  cpu::ewise_intersect(C.host_for_write(stream), as_host_mask(mask, stream), replace, A.host(stream), B.host(stream),
                       fn);
}
template <class TC, class Mask, class S>
void assign_scalar(Resident<Csr<TC>>& C, const Mask& mask, bool replace, S value, const Stream& stream) {
  cpu::assign_scalar(C.host_for_write(stream), as_host_mask(mask, stream), replace, value);
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
