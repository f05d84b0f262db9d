// Device and pinned allocations (charged to the global budget) and asynchronous copies.
#include "gql/device.hpp"

namespace gql {

void* device_allocate(size_t bytes, const char* file, int line) {
  MemoryBudget& budget = MemoryBudget::global();
  budget.reserve(bytes);
  void* pointer = nullptr;
  const cudaError_t status = cudaMalloc(&pointer, bytes);
  if (status != cudaSuccess) {
    budget.release(bytes);
    throw_cuda_error(status, ("cudaMalloc of " + std::to_string(bytes) + " bytes").c_str(), file, line);
  }
  return pointer;
}

void device_free(void* pointer, size_t bytes) noexcept {
  if (pointer == nullptr) return;
  cudaFree(pointer);  // a failure here would be a broken context, reported by the next checked call
  MemoryBudget::global().release(bytes);
}

void* pinned_allocate(size_t bytes, const char* file, int line) {
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocHost(&pointer, bytes);
  if (status != cudaSuccess)
    throw_cuda_error(status, ("cudaMallocHost of " + std::to_string(bytes) + " bytes").c_str(), file, line);
  return pointer;
}

void pinned_free(void* pointer) noexcept {
  if (pointer != nullptr) cudaFreeHost(pointer);
}

void copy_async(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const Stream& stream,
                const char* file, int line) {
  if (bytes == 0) return;
  cuda_check(cudaMemcpyAsync(dst, src, bytes, kind, stream.get()), "cudaMemcpyAsync", file, line);
}

void memset_async(void* dst, int byte, size_t bytes, const Stream& stream) {
  if (bytes == 0) return;
  GQL_CUDA_CHECK(cudaMemsetAsync(dst, byte, bytes, stream.get()));
}

}  // namespace gql
