// The cuSPARSE peer: C = A * A in fp32 plus-times with cusparseSpGEMM (work estimation, compute,
// copy; buffers allocated with cudaMalloc inside the timed call, as a user would). A failure
// (CUSPARSE_STATUS_INSUFFICIENT_RESOURCES, a failed cudaMalloc) is returned as a message, never
// thrown past the caller, so a run records it and goes on. Host code (nvcc or g++ with cuSPARSE).
#pragma once

#include <cuda_runtime_api.h>
#include <cusparse.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gql/device.hpp"
#include "gql/graph.hpp"

namespace gql::bench {

// A device array from cudaMalloc (the peer allocates the way its own samples do).
class CudaArray {
 public:
  CudaArray() = default;
  ~CudaArray() {
    if (data_ != nullptr) cudaFree(data_);
  }
  CudaArray(CudaArray&& other) noexcept : data_(std::exchange(other.data_, nullptr)) {}
  CudaArray& operator=(CudaArray&& other) noexcept {
    std::swap(data_, other.data_);
    return *this;
  }
  CudaArray(const CudaArray&) = delete;
  CudaArray& operator=(const CudaArray&) = delete;

  // Empty string on success, else what failed (the CUDA error is cleared so later calls work).
  std::string allocate(size_t bytes, const char* what) {
    const cudaError_t status = cudaMalloc(&data_, bytes > 0 ? bytes : 1);
    if (status == cudaSuccess) return {};
    data_ = nullptr;
    cudaGetLastError();
    return std::string("cudaMalloc(") + what + ", " + std::to_string(bytes) + " bytes): " + cudaGetErrorString(status);
  }
  void* get() const noexcept { return data_; }

 private:
  void* data_ = nullptr;
};

// cuSPARSE's product, left on the device (32-bit offsets and columns, fp32 values).
struct CusparseProduct {
  std::string error;  // empty when the product was made
  int64_t n_rows = 0;
  int64_t nvals = 0;
  CudaArray offsets, columns, values;
};

class CusparsePeer {
 public:
  // Uploads A with 32-bit offsets (cuSPARSE's SpGEMM takes 32-bit indices); untimed preparation.
  CusparsePeer(const Csr<float>& A, const Stream& stream) : n_(A.n_rows()), nvals_(A.nvals()) {
    if (A.nvals() >= (int64_t{1} << 31))
      throw Error(ErrorKind::usage, "the cuSPARSE peer needs fewer than 2^31 entries");
    std::vector<int> offsets32(A.row_offsets().begin(), A.row_offsets().end());
    offsets_ = DeviceBuffer<int>(offsets32.size());
    offsets_.copy_from_host(offsets32, stream);
    columns_ = DeviceBuffer<index_t>(static_cast<size_t>(nvals_));
    columns_.copy_from_host(A.col_indices(), stream);
    values_ = DeviceBuffer<float>(static_cast<size_t>(nvals_));
    values_.copy_from_host(A.values(), stream);
    stream.synchronize();
    check(cusparseCreate(&handle_), "cusparseCreate");
    check(cusparseSetStream(handle_, stream.get()), "cusparseSetStream");
    check(cusparseCreateCsr(&a_, n_, A.n_cols(), nvals_, offsets_.data(), columns_.data(), values_.data(),
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
          "cusparseCreateCsr(A)");
  }
  ~CusparsePeer() {
    if (a_ != nullptr) cusparseDestroySpMat(a_);
    if (handle_ != nullptr) cusparseDestroy(handle_);
  }
  CusparsePeer(const CusparsePeer&) = delete;
  CusparsePeer& operator=(const CusparsePeer&) = delete;

  // All phases of C = A * A; returns when C is complete on the device (or with the error).
  CusparseProduct multiply(const Stream& stream) {
    CusparseProduct c;
    c.n_rows = n_;
    const float alpha = 1.0f, beta = 0.0f;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const auto alg = CUSPARSE_SPGEMM_DEFAULT;
    cusparseSpMatDescr_t mat_c = nullptr;
    cusparseSpGEMMDescr_t descr = nullptr;
    CudaArray buffer1, buffer2;
    auto fail = [&](cusparseStatus_t status, const char* call) {
      c.error = std::string(call) + ": " + cusparseGetErrorString(status);
    };
    if ((c.error = c.offsets.allocate(static_cast<size_t>(n_ + 1) * sizeof(int), "C offsets")).empty()) {
      cusparseStatus_t s = cusparseCreateCsr(&mat_c, n_, n_, 0, c.offsets.get(), nullptr, nullptr, CUSPARSE_INDEX_32I,
                                             CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F);
      if (s != CUSPARSE_STATUS_SUCCESS) fail(s, "cusparseCreateCsr(C)");
      if (c.error.empty() && (s = cusparseSpGEMM_createDescr(&descr)) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_createDescr");
      size_t bytes1 = 0, bytes2 = 0;
      if (c.error.empty() && (s = cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, a_, a_, &beta, mat_c, CUDA_R_32F,
                                                                alg, descr, &bytes1, nullptr)) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_workEstimation (size)");
      if (c.error.empty()) c.error = buffer1.allocate(bytes1, "work estimation buffer");
      if (c.error.empty() && (s = cusparseSpGEMM_workEstimation(handle_, op, op, &alpha, a_, a_, &beta, mat_c, CUDA_R_32F,
                                                                alg, descr, &bytes1, buffer1.get())) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_workEstimation");
      if (c.error.empty() && (s = cusparseSpGEMM_compute(handle_, op, op, &alpha, a_, a_, &beta, mat_c, CUDA_R_32F, alg,
                                                         descr, &bytes2, nullptr)) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_compute (size)");
      if (c.error.empty()) c.error = buffer2.allocate(bytes2, "compute buffer");
      if (c.error.empty() && (s = cusparseSpGEMM_compute(handle_, op, op, &alpha, a_, a_, &beta, mat_c, CUDA_R_32F, alg,
                                                         descr, &bytes2, buffer2.get())) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_compute");
      int64_t rows = 0, cols = 0, nvals = 0;
      if (c.error.empty() && (s = cusparseSpMatGetSize(mat_c, &rows, &cols, &nvals)) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpMatGetSize");
      c.nvals = nvals;
      if (c.error.empty()) c.error = c.columns.allocate(static_cast<size_t>(nvals) * sizeof(int), "C columns");
      if (c.error.empty()) c.error = c.values.allocate(static_cast<size_t>(nvals) * sizeof(float), "C values");
      if (c.error.empty() &&
          (s = cusparseCsrSetPointers(mat_c, c.offsets.get(), c.columns.get(), c.values.get())) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseCsrSetPointers");
      if (c.error.empty() && (s = cusparseSpGEMM_copy(handle_, op, op, &alpha, a_, a_, &beta, mat_c, CUDA_R_32F, alg,
                                                      descr)) != CUSPARSE_STATUS_SUCCESS)
        fail(s, "cusparseSpGEMM_copy");
    }
    const cudaError_t synced = cudaStreamSynchronize(stream.get());
    if (c.error.empty() && synced != cudaSuccess) c.error = std::string("cudaStreamSynchronize: ") + cudaGetErrorString(synced);
    if (descr != nullptr) cusparseSpGEMM_destroyDescr(descr);
    if (mat_c != nullptr) cusparseDestroySpMat(mat_c);
    return c;
  }

 private:
  static void check(cusparseStatus_t status, const char* call) {
    if (status != CUSPARSE_STATUS_SUCCESS)
      throw Error(ErrorKind::cuda, std::string(call) + ": " + cusparseGetErrorString(status));
  }

  int64_t n_ = 0;
  int64_t nvals_ = 0;
  DeviceBuffer<int> offsets_;
  DeviceBuffer<index_t> columns_;
  DeviceBuffer<float> values_;
  cusparseHandle_t handle_ = nullptr;
  cusparseSpMatDescr_t a_ = nullptr;
};

}  // namespace gql::bench
