// ||P A - L U||_F / ||A||_F on the GPU for packed LU factors (L's unit diagonal implied) and
// LAPACK-style pivots (row i swapped with row pivots[i], 0-based, in order): the check of any LU,
// gql's (row-major) or cuSOLVER's (column-major), in O(n^3) on the device through one cuBLAS gemm.
#pragma once

#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include <cublas_v2.h>

#include "gql/device.hpp"
#include "gql/device/dense/lu.hpp"

namespace gql::device::dense::lu {

// Column-major L (unit lower), U (upper) and R = P A from the packed factors and A, both read at
// element (i, j) = base[i * row_stride + j * col_stride].
template <class T>
__global__ void split_factors(const T* a, const T* lu, const int* perm, long long n, long long row_stride,
                              long long col_stride, T* l, T* u, T* r) {
  const long long e = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (e >= n * n) return;
  const long long i = e % n, j = e / n;  // column-major output position
  const T x = lu[i * row_stride + j * col_stride];
  l[e] = i > j ? x : (i == j ? T{1} : T{0});
  u[e] = i <= j ? x : T{0};
  r[e] = a[perm[i] * row_stride + j * col_stride];
}

}  // namespace gql::device::dense::lu

namespace gql::gpu {

template <class T>
double lu_relative_residual(const T* a, const T* lu, const std::vector<int32_t>& pivots, int64_t n, bool column_major) {
  std::vector<int> perm(static_cast<size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  for (int64_t k = 0; k < n; ++k) std::swap(perm[static_cast<size_t>(k)], perm[static_cast<size_t>(pivots[static_cast<size_t>(k)])]);
  Stream stream;
  const CublasLease handle(stream.get());
  const size_t entries = static_cast<size_t>(n) * static_cast<size_t>(n);
  DeviceBuffer<T> l(entries), u(entries), r(entries);
  DeviceBuffer<int> d_perm(perm.size());
  d_perm.copy_from_host(std::span<const int>(perm), stream);
  const long long rs = column_major ? 1 : n, cs = column_major ? n : 1;
  device::dense::lu::split_factors<T><<<static_cast<unsigned>((entries + 255) / 256), 256, 0, stream.get()>>>(
      a, lu, d_perm.data(), n, rs, cs, l.data(), u.data(), r.data());
  GQL_CUDA_CHECK_LAUNCH();
  const T minus_one = -1, one = 1;
  const int in = static_cast<int>(n), count = static_cast<int>(entries);
  T residual = 0, norm = 0;
  if constexpr (std::is_same_v<T, float>) {
    GQL_CUBLAS_CHECK(cublasSgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &minus_one, l.data(), in, u.data(),
                                 in, &one, r.data(), in));
    GQL_CUBLAS_CHECK(cublasSnrm2(handle.get(), count, r.data(), 1, &residual));
    GQL_CUBLAS_CHECK(cublasSnrm2(handle.get(), count, a, 1, &norm));
  } else {
    GQL_CUBLAS_CHECK(cublasDgemm(handle.get(), CUBLAS_OP_N, CUBLAS_OP_N, in, in, in, &minus_one, l.data(), in, u.data(),
                                 in, &one, r.data(), in));
    GQL_CUBLAS_CHECK(cublasDnrm2(handle.get(), count, r.data(), 1, &residual));
    GQL_CUBLAS_CHECK(cublasDnrm2(handle.get(), count, a, 1, &norm));
  }
  stream.synchronize();
  return static_cast<double>(residual) / static_cast<double>(norm);
}

}  // namespace gql::gpu
