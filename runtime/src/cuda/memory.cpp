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

namespace {

// The pool keeps what ops free, up to this much, for the ops after them (the default, 0, hands it
// back at every synchronization). Set on the current device's default pool at its first use.
constexpr uint64_t pool_release_threshold = uint64_t{2} << 30;

void keep_freed_memory() {
  thread_local int configured_device = -1;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess || device == configured_device) return;
  cudaMemPool_t pool = nullptr;
  if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess) {
    uint64_t threshold = pool_release_threshold;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold);
  }
  configured_device = device;
}

}  // namespace

void* stream_allocate(size_t bytes, cudaStream_t stream, const char* file, int line) {
  keep_freed_memory();
  MemoryBudget& budget = MemoryBudget::global();
  budget.reserve(bytes);
  void* pointer = nullptr;
  const cudaError_t status = cudaMallocAsync(&pointer, bytes, stream);
  if (status != cudaSuccess) {
    budget.release(bytes);
    throw_cuda_error(status, ("cudaMallocAsync of " + std::to_string(bytes) + " bytes").c_str(), file, line);
  }
  return pointer;
}

void stream_free(void* pointer, size_t bytes, cudaStream_t stream) noexcept {
  if (pointer == nullptr) return;
  cudaFreeAsync(pointer, stream);  // a failure here would be a broken context, reported by the next checked call
  MemoryBudget::global().release(bytes);
}

void* small_pinned_scratch() {
  struct Scratch {
    void* pointer = nullptr;
    ~Scratch() { pinned_free(pointer); }
  };
  thread_local Scratch scratch;
  if (scratch.pointer == nullptr) scratch.pointer = pinned_allocate(256, __FILE__, __LINE__);
  return scratch.pointer;
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
