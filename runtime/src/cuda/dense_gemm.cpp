// cuBLAS gemm for products of dense plus_times matrices (gql/device/dense/dense_products.hpp), in the
// library so that host code built without nvcc (the JIT's) calls it too.
#include <cstdint>
#include <type_traits>

#include "gql/device/dense/cublas_lease.hpp"
#include "gql/device/dense/dense_products.hpp"

namespace gql::gpu {

template <class T>
void vendor_gemm(const DeviceMatrix<T>& A, const DeviceMatrix<T>& B, DeviceMatrix<T>& C, const Stream& stream) {
  const int m = static_cast<int>(A.n_rows()), p = static_cast<int>(A.n_cols()), q = static_cast<int>(B.n_cols());
  if (m == 0 || q == 0) return;
  if (p == 0) return C.data().fill_zero(stream);  // an empty sum
  const CublasLease cublas(stream.get());
  const T one = 1, zero = 0;
  // Row-major C = A B is column-major C' = B' A': B as a q x p matrix times A as a p x m one.
  if constexpr (std::is_same_v<T, float>)
    GQL_CUBLAS_CHECK(cublasSgemm(cublas.get(), CUBLAS_OP_N, CUBLAS_OP_N, q, m, p, &one, B.data().data(), q,
                                 A.data().data(), p, &zero, C.data().data(), q));
  else
    GQL_CUBLAS_CHECK(cublasDgemm(cublas.get(), CUBLAS_OP_N, CUBLAS_OP_N, q, m, p, &one, B.data().data(), q,
                                 A.data().data(), p, &zero, C.data().data(), q));
}

template void vendor_gemm<float>(const DeviceMatrix<float>&, const DeviceMatrix<float>&, DeviceMatrix<float>&,
                                 const Stream&);
template void vendor_gemm<double>(const DeviceMatrix<double>&, const DeviceMatrix<double>&, DeviceMatrix<double>&,
                                  const Stream&);

}  // namespace gql::gpu
