// lu(A) on the GPU: LU with partial pivoting, blocked right-looking (as LAPACK's getrf), for a dense
// row-major n x n float or double matrix. Per panel of `panel` columns: its columns factored 32 at
// a time by one cooperative launch each (pivot search, swap and elimination per column,
// device/dense/lu_kernels.cuh), their swaps applied to the other columns in one launch, the rest of the
// panel updated; then U12 = L11^-1 A12 (cuBLAS trsm) and A22 -= L21 U12 by cuBLAS gemm
// (`vendor_gemm`) or by the register-tiled semiring GEMM of device/closure/closure_kernels.cuh over (+, -a*b).
//
// Result as gql::cpu::lu: L and U packed (L's unit diagonal implied), pivots as LAPACK writes them
// (row i swapped with row pivots[i], 0-based, in order), so P A = L U. A singular matrix (an exactly
// zero pivot column) throws gql::Error (kind usage) naming the first such column.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cublas_v2.h>

#include "gql/device.hpp"
#include "gql/device/closure/closure.hpp"
#include "gql/device/closure/closure_kernels.cuh"
#include "gql/device/dense/cublas_lease.hpp"
#include "gql/device/dense/lu_factor.hpp"
#include "gql/device/dense/lu_kernels.cuh"
#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql::gpu {

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

namespace detail {

// The scratch and launch shape of device::dense::lu::factor_panel for an n x n matrix.
template <class T>
class PanelFactorizer {
 public:
  explicit PanelFactorizer(int64_t n) {
    int device = 0, multiprocessors = 0, shared_limit = 0;
    GQL_CUDA_CHECK(cudaGetDevice(&device));
    GQL_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    GQL_CUDA_CHECK(cudaDeviceGetAttribute(&shared_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    // Up to one block per multiprocessor (each holds its rows in shared memory), 64 rows or more each.
    max_blocks_ = static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(multiprocessors, (n + 63) / 64)));
    shared_limit_ = static_cast<size_t>(shared_limit) - 1024;  // the kernel's static shared memory
    constexpr int w = device::dense::lu::panel_width;
    candidate_rows_ = DeviceBuffer<T>(static_cast<size_t>(2 * max_blocks_ * w));
    candidate_values_ = DeviceBuffer<T>(static_cast<size_t>(2 * max_blocks_));
    candidate_index_ = DeviceBuffer<long long>(static_cast<size_t>(2 * max_blocks_));
    row_c_ = DeviceBuffer<T>(static_cast<size_t>(2 * w));
  }

  // Columns [c0, c1) of rows [c0, n), c1 - c0 <= panel_width.
  void factor(T* a, int64_t ld, int64_t n, int64_t c0, int64_t c1, int* pivots, int* singular, cudaStream_t s) {
    namespace k = device::dense::lu;
    const int64_t rows = n - c0;
    const int blocks = static_cast<int>(std::min<int64_t>(max_blocks_, (rows + 63) / 64));
    const int64_t per_block = (rows + blocks - 1) / blocks;
    const size_t bytes = static_cast<size_t>(per_block) * k::panel_width * sizeof(T);
    if (bytes > shared_limit_)
      throw Error(ErrorKind::oom, "lu on the GPU: " + std::to_string(per_block) +
                                      " rows per multiprocessor exceed its shared memory");
    if (bytes > 48 * 1024)
      GQL_CUDA_CHECK(cudaFuncSetAttribute(k::factor_panel<T>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)));
    k::PanelArgs<T> args{a, ld, n, c0, c1, per_block, pivots, singular,
                         {candidate_rows_.data(), candidate_values_.data(), candidate_index_.data(), row_c_.data()}};
    void* params[] = {&args};
    GQL_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(k::factor_panel<T>), dim3(blocks),
                                               dim3(k::panel_threads), params, bytes, s));
  }

 private:
  int max_blocks_ = 1;
  size_t shared_limit_ = 0;
  DeviceBuffer<T> candidate_rows_, candidate_values_;
  DeviceBuffer<long long> candidate_index_;
  DeviceBuffer<T> row_c_;
};

// C(m x q) -= A(m x p) B(p x q), row-major with one leading dimension: cuBLAS, or the semiring GEMM.
template <class T>
void subtract_product(cublasHandle_t h, bool vendor, int64_t m, int64_t q, int64_t p, const T* a, const T* b, T* c,
                      int64_t ld, cudaStream_t s) {
  if (m <= 0 || q <= 0) return;
  if (vendor) return gemm_subtract(h, m, q, p, a, b, c, ld);
  // The table holds the one kernel LU launches, not a closure's whole set.
  static const ClosureKernelTable<T> kernels = [] {
    ClosureKernelTable<T> t = closure_table_facts<MinusTimes<T>>();
    t.gemm[0][0] = kernel_handle(device::closure::semiring_gemm<MinusTimes<T>, T, device::closure::ThreadTile<8, 8>, false>);
    return t;
  }();
  semiring_gemm(kernels, device::closure::GemmArgs<T>{a, ld, b, ld, c, c, ld, m, p, q, 0, 0, 0}, false, 0, s);
}

// Columns [k0, k1) of the row-major n x n matrix at a factored in place, 32 at a time (one cooperative
// launch of device::dense::lu::factor_panel each; their swaps applied to every other column at once;
// the block's remaining columns updated by trsm and gemm). The trailing columns past k1 are the
// caller's to update.
template <class T>
void factor_block_columns(PanelFactorizer<T>& panels, cublasHandle_t h, bool vendor_gemm, T* a, int64_t n,
                          int64_t ld, int64_t k0, int64_t k1, int* pivots, int* singular, cudaStream_t s) {
  namespace k = device::dense::lu;
  for (int64_t c0 = k0; c0 < k1; c0 += k::panel_width) {
    const int64_t c1 = std::min(k1, c0 + k::panel_width);
    panels.factor(a, ld, n, c0, c1, pivots, singular, s);
    const int64_t outside = n - (c1 - c0);
    if (outside > 0) {
      k::swap_outside_panel<T><<<static_cast<unsigned>((outside + 255) / 256), 256, 0, s>>>(a, ld, n, c0, c1, pivots);
      GQL_CUDA_CHECK_LAUNCH();
    }
    if (c1 == k1) break;
    trsm_unit_lower(h, k1 - c1, c1 - c0, a + c0 * ld + c0, a + c0 * ld + c1, ld);
    subtract_product(h, vendor_gemm, n - c1, k1 - c1, c1 - c0, a + c1 * ld + c0, a + c0 * ld + c1, a + c1 * ld + c1,
                     ld, s);
  }
}

}  // namespace detail

// Factors the row-major n x n matrix at a (leading dimension ld) in place on the handle's stream s,
// blocked right-looking: per panel of options.panel columns, its columns are factored 32 at a time
// (device::dense::lu::factor_panel, one cooperative launch each; their swaps applied to every other
// column at once; the panel's remaining columns updated by trsm and gemm), then U12 = L11^-1 A12
// (cuBLAS trsm) and A22 -= L21 U12 (gemm). pivots: n ints on the device; singular: one int on the
// device, set to n before the call and left at the first zero-pivot column (or n). Returns when done.
template <class T>
void lu_on_device(T* a, int64_t n, int64_t ld, int* pivots, int* singular, const DeviceLuOptions& options,
                  cublasHandle_t h, cudaStream_t s) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "lu on the GPU: float or double");
  detail::PanelFactorizer<T> panels(n);
  const int64_t nb = options.panel;
  for (int64_t k0 = 0; k0 < n; k0 += nb) {
    const int64_t k1 = std::min(n, k0 + nb);
    detail::factor_block_columns(panels, h, options.vendor_gemm, a, n, ld, k0, k1, pivots, singular, s);
    if (k1 == n) break;
    detail::trsm_unit_lower(h, n - k1, k1 - k0, a + k0 * ld + k0, a + k0 * ld + k1, ld);
    detail::subtract_product(h, options.vendor_gemm, n - k1, n - k1, k1 - k0, a + k1 * ld + k0, a + k0 * ld + k1,
                             a + k1 * ld + k1, ld, s);
  }
  GQL_CUDA_CHECK(cudaStreamSynchronize(s));  // the panel scratch is freed on return
}

inline void check_singular(int singular, int64_t n) {
  if (singular < n)
    throw Error(ErrorKind::requirement,
                "lu: the matrix is singular (no nonzero pivot in column " + std::to_string(singular) + ")");
}

inline void check_lu_shape(int64_t rows, int64_t cols, const DeviceLuOptions& options) {
  if (rows != cols)
    throw Error(ErrorKind::usage,
                "lu: the matrix is " + std::to_string(rows) + " x " + std::to_string(cols) + ", not square");
  if (options.panel < 1) throw Error(ErrorKind::usage, "lu: the panel width must be positive");
}

template <class T>
DeviceVector<int32_t> lu_in_place(DeviceMatrix<T>& A, const DeviceLuOptions& options, const Stream& stream) {
  const int64_t n = A.n_rows();
  check_lu_shape(n, A.n_cols(), options);
  DeviceVector<int32_t> pivots = DeviceVector<int32_t>::dense(n);
  if (n == 0) return pivots;
  const CublasLease cublas(stream.get());
  StreamBuffer<int> singular(1, stream);
  int* found = static_cast<int*>(small_pinned_scratch());
  *found = static_cast<int>(n);
  copy_async(singular.data(), found, sizeof(int), cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
  lu_on_device(A.data().data(), n, n, pivots.values().data(), singular.data(), options, cublas.get(), stream.get());
  copy_async(found, singular.data(), sizeof(int), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  check_singular(*found, n);
  return pivots;
}

template <class T>
LuFactors<T> lu(const Matrix<T>& A, const DeviceLuOptions& options, Stream stream) {
  check_lu_shape(A.n_rows(), A.n_cols(), options);
  DeviceMatrix<T> a = to_device(A, stream);
  const DeviceVector<int32_t> pivots = lu_in_place(a, options, stream);
  LuFactors<T> out{a.to_host(stream), std::vector<int32_t>(static_cast<size_t>(A.n_rows()))};
  pivots.values().copy_to_host(std::span<int32_t>(out.pivots), stream);
  stream.synchronize();
  return out;
}

}  // namespace gql::gpu
