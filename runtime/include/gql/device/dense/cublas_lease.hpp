// cuBLAS from gql's device code: its status as gql::Error (GQL_CUBLAS_CHECK) and a handle leased from a
// pool kept for the process, bound to the caller's stream (LU's trsm and gemm, dense plus_times products).
// Host code.
#pragma once

#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <cublas_v2.h>

#include "gql/device.hpp"
#include "gql/error.hpp"

namespace gql::gpu {

inline void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(ErrorKind::cuda, std::string(call) + " failed: cuBLAS status " + std::to_string(static_cast<int>(status)),
                Location{file, line});
}
#define GQL_CUBLAS_CHECK(call) ::gql::gpu::cublas_check((call), #call, __FILE__, __LINE__)

// A cuBLAS handle from a pool kept for the process (cublasCreate costs far more than an LU step),
// bound to `stream` while held: one holder at a time, so calls on several threads each get their own.
class CublasLease {
 public:
  explicit CublasLease(cudaStream_t stream) : handle_(take()) {
    try {
      GQL_CUBLAS_CHECK(cublasSetStream(handle_, stream));
    } catch (...) {
      give_back(handle_);
      throw;
    }
  }
  ~CublasLease() { give_back(handle_); }
  CublasLease(const CublasLease&) = delete;
  CublasLease& operator=(const CublasLease&) = delete;
  cublasHandle_t get() const noexcept { return handle_; }

 private:
  struct Pool {
    std::mutex mutex;
    std::vector<std::pair<int, cublasHandle_t>> idle;  // (device, handle)
  };
  static Pool& pool() {
    static Pool* kept = new Pool;  // never destroyed: cuBLAS may be gone before static destructors run
    return *kept;
  }
  static cublasHandle_t take() {
    int device = 0;
    GQL_CUDA_CHECK(cudaGetDevice(&device));
    {
      Pool& p = pool();
      std::lock_guard lock(p.mutex);
      for (auto it = p.idle.begin(); it != p.idle.end(); ++it)
        if (it->first == device) {
          const cublasHandle_t h = it->second;
          p.idle.erase(it);
          return h;
        }
    }
    cublasHandle_t h = nullptr;
    GQL_CUBLAS_CHECK(cublasCreate(&h));
    return h;
  }
  static void give_back(cublasHandle_t h) noexcept {
    int device = 0;
    if (cudaGetDevice(&device) != cudaSuccess) return;
    Pool& p = pool();
    std::lock_guard lock(p.mutex);
    p.idle.emplace_back(device, h);
  }

  cublasHandle_t handle_;
};

}  // namespace gql::gpu
