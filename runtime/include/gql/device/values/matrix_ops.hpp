// The dense matrices' ops of a CUDA kernel on the GPU, over the kernel's values where they are
// (Residents): the constructor and assignment of a scalar (every position filled), apply, union and
// intersect (the spec's function at every position: a dense matrix has every entry), reduce,
// transpose, dense(G, fill = v) of a graph, and the copy. None takes a mask (sema refuses one into a
// dense matrix). Same results as gql::cpu's ops of the same names (cpu/matrix_ops.hpp,
// cpu/elementwise.hpp, cpu/ops.hpp), element by element; a float sum reduces in another order, so it
// agrees to rounding. Every result is left on the device.
//
// The copy is made where A is current, so that with the element stores that wait with the matrix
// there (gql/device/values/element_ops.hpp) `var D2 = D; D2[i, i] = 0.0` in a loop moves no matrix through
// the host; a matrix current only on the host is copied there, as is a copy that converts the
// element type (cpu::assign).
//
// Host code. Compiled by nvcc the ops run on the device (the element functions are __host__
// __device__ lambdas; the kernels are gql/device/values/matrix_kernels.cuh); compiled by a host compiler
// (the JIT's NVRTC path, which builds no kernels for them) the same calls run gql::cpu's ops on the
// values' host sides, and the copy still copies on the device.
#pragma once

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "gql/common/mask.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/device.hpp"
#include "gql/device/resident.hpp"
#include "gql/semiring.hpp"

#if defined(__CUDACC__)
#include "gql/device/values/graph_kernels.cuh"
#include "gql/device/values/matrix_kernels.cuh"
#endif

namespace gql::gpu {

// C = A (dense matrices take no mask), made on the side where A is current: a matrix only in host
// memory is not uploaded for a copy (out of core, the device may hold neither).
template <class TC, class TA>
void assign(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, const Stream& stream) {
  if constexpr (std::is_same_v<TC, TA>) {
    if (A.on_device()) {
      DeviceMatrix<TC> copy = copy_on_device(A.device(stream), stream);
      stream.synchronize();
      C.set_device(std::move(copy));
      return;
    }
  }
  cpu::assign(C.host_for_write(stream), common::no_mask(), false, A.host(stream));
}

#if defined(__CUDACC__)
// A rows x cols matrix on the device holding `value` (stored as it is) at every position; the
// dimensions checked as the host's Matrix checks them.
template <class T>
DeviceMatrix<T> filled_matrix(int64_t rows, int64_t cols, storage_t<T> value, const Stream& stream) {
  DeviceMatrix<T> m(checked_dimension(rows, "a matrix's number of rows"),
                    checked_dimension(cols, "a matrix's number of columns"));
  slots_detail::launch_for_each(rows * cols, device::values::Fill<T>{m.data().data(), value}, stream);
  stream.synchronize();  // the next op may read it on another stream
  return m;
}

// matrix<T>(rows, cols[, fill = value]) made on the device (a matrix without a fill is all zero).
template <class T, class S>
DeviceMatrix<T> filled_matrix_of(int64_t rows, int64_t cols, S value, const Stream& stream) {
  return filled_matrix<T>(rows, cols, cpu::detail::cast_value<T>(value), stream);
}

// C = value: every position of C, its shape kept.
template <class TC, class S>
void assign_scalar(Resident<Matrix<TC>>& C, common::NoMask, bool, S value, const Stream& stream) {
  C.set_device(filled_matrix_of<TC>(C.rows(), C.cols(), value, stream));
}

// C = apply(A, fn): fn of every entry, converted to C's element type.
template <class TC, class TA, class F>
void apply(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, F fn, const Stream& stream) {
  const DeviceMatrix<TA>& a = A.device(stream);
  DeviceMatrix<TC> out(a.n_rows(), a.n_cols());
  slots_detail::launch_for_each(a.n_rows() * a.n_cols(),
                                device::values::MapValues<TC, TA, F>{a.data().data(), fn, out.data().data()}, stream);
  stream.synchronize();
  C.set_device(std::move(out));
}

namespace matrix_detail {
// out (cols x rows) = in (rows x cols)', converted from TA to R: the tiled transpose.
template <class R, class TA>
void launch_transpose(const storage_t<TA>* in, storage_t<R>* out, long long rows, long long cols,
                      const Stream& stream) {
  if (rows == 0 || cols == 0) return;
  namespace dv = device::values;
  const long long tiles =
      ((rows + dv::transpose_tile - 1) / dv::transpose_tile) * ((cols + dv::transpose_tile - 1) / dv::transpose_tile);
  const dim3 threads(dv::transpose_tile, dv::transpose_rows_per_pass);
  dv::transpose_tiles<R, TA><<<static_cast<unsigned>(std::min<long long>(tiles, 65535)), threads, 0, stream.get()>>>(
      in, out, rows, cols);
  GQL_CUDA_CHECK_LAUNCH();
}

// fn(A(i, j), B(i, j)) at every position, as TC.
template <class TC, class TA, class TB, class F>
DeviceMatrix<TC> combined(Resident<Matrix<TA>>& A, Resident<Matrix<TB>>& B, F fn, const char* op,
                          const Stream& stream) {
  cpu::detail::check_same_shape(A.rows(), A.cols(), B.rows(), B.cols(), op);
  const DeviceMatrix<TA>& a = A.device(stream);
  const DeviceMatrix<TB>& b = B.device(stream);
  DeviceMatrix<TC> out(a.n_rows(), a.n_cols());
  slots_detail::launch_for_each(
      a.n_rows() * a.n_cols(),
      device::values::CombineEntries<TC, TA, TB, F>{a.data().data(), b.data().data(), fn, out.data().data()}, stream);
  stream.synchronize();
  return out;
}
}  // namespace matrix_detail

// C = union(A, B, fn) and C = intersect(A, B, fn): both hold every entry, so fn at every position.
template <class TC, class TA, class TB, class F>
void ewise_union(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, Resident<Matrix<TB>>& B,
                 F fn, const Stream& stream) {
  C.set_device(matrix_detail::combined<TC>(A, B, fn, "union", stream));
}
template <class TC, class TA, class TB, class F>
void ewise_intersect(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A,
                     Resident<Matrix<TB>>& B, F fn, const Stream& stream) {
  C.set_device(matrix_detail::combined<TC>(A, B, fn, "intersect", stream));
}

// C = A': the tiled transpose on the device.
template <class TC, class TA>
void transpose(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, const Stream& stream) {
  const DeviceMatrix<TA>& a = A.device(stream);
  DeviceMatrix<TC> out(a.n_cols(), a.n_rows());
  matrix_detail::launch_transpose<TC, TA>(a.data().data(), out.data().data(), a.n_rows(), a.n_cols(), stream);
  stream.synchronize();
  C.set_device(std::move(out));
}

// C = dense(G, fill = value): `value` everywhere, then G's entries scattered over it (its values cast
// as cpu::densify casts them).
template <class TC, class TG, class F>
void densify(Resident<Matrix<TC>>& C, Resident<Csr<TG>>& G, F value, const Stream& stream) {
  const DeviceCsr<TG>& g = G.device(stream);
  DeviceMatrix<TC> out = filled_matrix<TC>(g.n_rows(), g.n_cols(), static_cast<storage_t<TC>>(value), stream);
  slots_detail::launch_for_each(g.nvals(), device::values::ScatterEntries<TC, TG>{g.view(), out.data().data()}, stream);
  stream.synchronize();
  C.set_device(std::move(out));
}

// reduce(A, M) of every entry: one read of the result.
template <Monoid M, class R, class T>
R reduce(Resident<Matrix<T>>& A, const Stream& stream) {
  const DeviceMatrix<T>& a = A.device(stream);
  return reduce_values<M, R, T>(a.data().data(), a.n_rows() * a.n_cols(), stream);
}
#else
// Built by a host compiler: the OpenMP ops, each writing a new host value of C (C's old value is
// never read, so never downloaded).
template <class T, class S>
Matrix<T> filled_matrix_of(int64_t rows, int64_t cols, S value, const Stream&) {
  return Matrix<T>(rows, cols, cpu::detail::cast_value<T>(value));
}
template <class TC, class S>
void assign_scalar(Resident<Matrix<TC>>& C, common::NoMask, bool, S value, const Stream& stream) {
  C.set_host(filled_matrix_of<TC>(C.rows(), C.cols(), value, stream));
}
template <class TC, class TA, class F>
void apply(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, F fn, const Stream& stream) {
  Matrix<TC> out;
  cpu::apply(out, common::no_mask(), false, A.host(stream), fn);
  C.set_host(std::move(out));
}
template <class TC, class TA, class TB, class F>
void ewise_union(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, Resident<Matrix<TB>>& B,
                 F fn, const Stream& stream) {
  Matrix<TC> out;
  cpu::ewise_union(out, common::no_mask(), false, A.host(stream), B.host(stream), fn);
  C.set_host(std::move(out));
}
template <class TC, class TA, class TB, class F>
void ewise_intersect(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A,
                     Resident<Matrix<TB>>& B, F fn, const Stream& stream) {
  Matrix<TC> out;
  cpu::ewise_intersect(out, common::no_mask(), false, A.host(stream), B.host(stream), fn);
  C.set_host(std::move(out));
}
template <class TC, class TA>
void transpose(Resident<Matrix<TC>>& C, common::NoMask, bool, Resident<Matrix<TA>>& A, const Stream& stream) {
  Matrix<TC> out;
  cpu::transpose(out, common::no_mask(), false, A.host(stream));
  C.set_host(std::move(out));
}
template <class TC, class TG, class F>
void densify(Resident<Matrix<TC>>& C, Resident<Csr<TG>>& G, F value, const Stream& stream) {
  Matrix<TC> out;
  cpu::densify(out, G.host(stream), value);
  C.set_host(std::move(out));
}
template <Monoid M, class R, class T>
R reduce(Resident<Matrix<T>>& A, const Stream& stream) {
  return cpu::reduce<M, R>(A.host(stream));
}
#endif

}  // namespace gql::gpu
