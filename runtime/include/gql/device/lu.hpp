// lu(A) on the GPU: LU with partial pivoting, tiled right-looking (as LAPACK's getrf), for a dense
// row-major n x n float or double matrix. Per panel of `panel` columns: each column's pivot search
// and swap, then its elimination (device/lu_kernels.cuh); the panel's swaps applied to the other
// columns; U12 = L11^-1 A12 (cuBLAS trsm); A22 -= L21 U12 by cuBLAS gemm (`vendor_gemm`) or by the
// register-tiled semiring GEMM of device/closure_kernels.cuh over (+, -a*b).
//
// Result as gql::cpu::lu: L and U packed (L's unit diagonal implied), pivots as LAPACK writes them
// (row i swapped with row pivots[i], 0-based, in order), so P A = L U. A singular matrix (an exactly
// zero pivot column) throws gql::Error (kind usage) naming the first such column.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>

#include "gql/device.hpp"
#include "gql/device/closure.hpp"
#include "gql/device/lu_kernels.cuh"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::gpu {

struct DeviceLuOptions {
  int64_t panel = 128;      // panel width
  bool vendor_gemm = true;  // trailing update by cuBLAS (else the semiring GEMM)
};

template <class T>
struct LuFactors {
  Matrix<T> lu;
  std::vector<int32_t> pivots;
};

inline void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(ErrorKind::cuda, std::string(call) + " failed: cuBLAS status " + std::to_string(static_cast<int>(status)),
                Location{file, line});
}
#define GQL_CUBLAS_CHECK(call) ::gql::gpu::cublas_check((call), #call, __FILE__, __LINE__)

// A cuBLAS handle bound to a stream.
class CublasHandle {
 public:
  explicit CublasHandle(cudaStream_t stream) {
    GQL_CUBLAS_CHECK(cublasCreate(&handle_));
    GQL_CUBLAS_CHECK(cublasSetStream(handle_, stream));
  }
  ~CublasHandle() { cublasDestroy(handle_); }
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const noexcept { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

namespace detail {

// C += sum_k -(a b): the trailing update as a semiring product.
template <class T>
struct MinusTimes {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static T con(T a, T b, long long, long long, long long) { return -(a * b); }
  GQL_HD static T agg(T x, T y) { return x + y; }
  GQL_HD static T zero() { return T{0}; }
  GQL_HD static T terminal() { return T{0}; }
};

template <class T>
void trsm_unit_lower(cublasHandle_t h, int64_t m, int64_t nb, const T* l, T* b, int64_t ld) {
  // Row-major X = L^-1 B is, seen column-major, X^T = B^T L^-T with L^T upper triangular.
  const T one = 1;
  if constexpr (std::is_same_v<T, float>)
    GQL_CUBLAS_CHECK(cublasStrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                                 static_cast<int>(m), static_cast<int>(nb), &one, l, static_cast<int>(ld), b,
                                 static_cast<int>(ld)));
  else
    GQL_CUBLAS_CHECK(cublasDtrsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT,
                                 static_cast<int>(m), static_cast<int>(nb), &one, l, static_cast<int>(ld), b,
                                 static_cast<int>(ld)));
}

// Row-major C(m x q) -= A(m x p) B(p x q), i.e. column-major C^T -= B^T A^T.
template <class T>
void gemm_subtract(cublasHandle_t h, int64_t m, int64_t q, int64_t p, const T* a, const T* b, T* c, int64_t ld) {
  const T minus_one = -1, one = 1;
  const int im = static_cast<int>(m), iq = static_cast<int>(q), ip = static_cast<int>(p), ild = static_cast<int>(ld);
  if constexpr (std::is_same_v<T, float>)
    GQL_CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, iq, im, ip, &minus_one, b, ild, a, ild, &one, c, ild));
  else
    GQL_CUBLAS_CHECK(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, iq, im, ip, &minus_one, b, ild, a, ild, &one, c, ild));
}

}  // namespace detail

// Factors the row-major n x n matrix at a (leading dimension ld) in place on the handle's stream s.
// pivots: n ints on the device; singular: one int on the device, set to n before the call and left at
// the first zero-pivot column (or n). Asynchronous.
template <class T>
void lu_on_device(T* a, int64_t n, int64_t ld, int* pivots, int* singular, const DeviceLuOptions& options,
                  cublasHandle_t h, cudaStream_t s) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "lu on the GPU: float or double");
  namespace k = device::lu;
  const int64_t nb = options.panel;
  for (int64_t k0 = 0; k0 < n; k0 += nb) {
    const int64_t k1 = std::min(n, k0 + nb);
    for (int64_t c = k0; c < k1; ++c) {
      k::pivot_column<T><<<1, k::pivot_threads, 0, s>>>(a, ld, n, c, k0, k1, pivots, singular);
      GQL_CUDA_CHECK_LAUNCH();
      if (c + 1 < n) {
        const dim3 block(32, 8);
        k::eliminate_column<T><<<static_cast<unsigned>((n - c - 1 + 7) / 8), block, 0, s>>>(a, ld, n, c, k1);
        GQL_CUDA_CHECK_LAUNCH();
      }
    }
    const int64_t outside = n - (k1 - k0);
    if (outside > 0) {
      k::swap_outside_panel<T><<<static_cast<unsigned>((outside + 255) / 256), 256, 0, s>>>(a, ld, n, k0, k1, pivots);
      GQL_CUDA_CHECK_LAUNCH();
    }
    if (k1 == n) break;
    detail::trsm_unit_lower(h, n - k1, k1 - k0, a + k0 * ld + k0, a + k0 * ld + k1, ld);
    if (options.vendor_gemm) {
      detail::gemm_subtract(h, n - k1, n - k1, k1 - k0, a + k1 * ld + k0, a + k0 * ld + k1, a + k1 * ld + k1, ld);
    } else {
      T* c = a + k1 * ld + k1;
      device::closure::GemmArgs<T> g{a + k1 * ld + k0, ld, a + k0 * ld + k1, ld, c, c, ld, n - k1, k1 - k0, n - k1,
                                     0, 0, 0, 0, 0};
      detail::semiring_gemm<detail::MinusTimes<T>, T, 32>(g, false, s);
    }
  }
}

inline void check_singular(int singular, int64_t n) {
  if (singular < n)
    throw Error(ErrorKind::usage, "lu: the matrix is singular (no nonzero pivot in column " + std::to_string(singular) + ")");
}

template <class T>
LuFactors<T> lu(const Matrix<T>& A, const DeviceLuOptions& options = {}) {
  const int64_t n = A.n_rows();
  if (A.n_cols() != n)
    throw Error(ErrorKind::usage, "lu: the matrix is " + std::to_string(n) + " x " + std::to_string(A.n_cols()) +
                                      ", not square");
  if (options.panel < 1) throw Error(ErrorKind::usage, "lu: the panel width must be positive");
  LuFactors<T> out{A.clone(), std::vector<int32_t>(static_cast<size_t>(n))};
  if (n == 0) return out;
  Stream stream;
  CublasHandle handle(stream.get());
  DeviceBuffer<T> a(static_cast<size_t>(n * n));
  DeviceBuffer<int> pivots(static_cast<size_t>(n));
  DeviceBuffer<int> singular(1);
  const int none = static_cast<int>(n);
  a.copy_from_host(A.data(), stream);
  singular.copy_from_host(std::span<const int>(&none, 1), stream);
  lu_on_device(a.data(), n, n, pivots.data(), singular.data(), options, handle.get(), stream.get());
  int found = none;
  a.copy_to_host(out.lu.data(), stream);
  pivots.copy_to_host(std::span<int>(reinterpret_cast<int*>(out.pivots.data()), out.pivots.size()), stream);
  singular.copy_to_host(std::span<int>(&found, 1), stream);
  stream.synchronize();
  check_singular(found, n);
  return out;
}

}  // namespace gql::gpu
