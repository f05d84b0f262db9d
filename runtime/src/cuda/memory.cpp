// Device and pinned allocations (charged to the global budget) and asynchronous copies.
#include <map>
#include <mutex>

#include "gql/device.hpp"

namespace gql {

namespace {

// The pool keeps what is freed, up to this much, for the allocations after it (the default, 0, hands
// it back at every synchronization). Set on the current device's default pool at its first use.
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

// The stream that device values are allocated and freed on, one per device, made at its first use and
// kept for the process (values outlive the streams of the calls that made them). Null, with the
// error left to the caller's next check, where none can be made.
cudaStream_t value_stream() noexcept {
  static std::mutex mutex;
  static auto* streams = new std::map<int, cudaStream_t>;  // never destroyed: values may outlive statics
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return nullptr;
  std::lock_guard lock(mutex);
  cudaStream_t& stream = (*streams)[device];
  if (stream == nullptr && cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) stream = nullptr;
  return stream;
}

// cudaMallocAsync, and once more after handing the pool's kept memory back when the device is full.
cudaError_t pool_allocate(void** pointer, size_t bytes, cudaStream_t stream) {
  keep_freed_memory();
  const cudaError_t status = cudaMallocAsync(pointer, bytes, stream);
  if (status != cudaErrorMemoryAllocation) return status;
  cudaGetLastError();
  int device = 0;
  cudaMemPool_t pool = nullptr;
  if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess) return status;
  cudaDeviceSynchronize();  // what was freed on other streams returns to the pool
  cudaMemPoolTrimTo(pool, 0);
  return cudaMallocAsync(pointer, bytes, stream);
}

}  // namespace

// Values up to this size come from the pool; larger ones from cudaMalloc, whose cost is small next to
// filling them, and which the pool would hand back to the driver at its next synchronization anyway
// (above its release threshold) and then map again, slower than cudaMalloc (fof's 2 GB result on the
// H200: 25.6 ms per call from the pool, 17.1 ms with cudaMalloc).
constexpr size_t pooled_value_limit = size_t{64} << 20;

// A small value's memory comes from the device's pool (a cudaMalloc of megabytes costs tens of
// microseconds, a pool allocation about one) and can be used on any stream once this returns.
// Freeing keeps cudaFree's contract: it waits for the device's work, which may still read the value
// on any stream, then hands the memory to the pool for the next value.
void* device_allocate(size_t bytes, const char* file, int line) {
  MemoryBudget& budget = MemoryBudget::global();
  budget.reserve(bytes);
  void* pointer = nullptr;
  cudaError_t status = cudaSuccess;
  const char* call = "cudaMalloc";
  if (bytes > pooled_value_limit) {
    status = cudaMalloc(&pointer, bytes);
  } else {
    call = "cudaMallocAsync";
    const cudaStream_t stream = value_stream();
    status = stream != nullptr ? pool_allocate(&pointer, bytes, stream) : cudaErrorUnknown;
    if (status == cudaSuccess) {
      status = cudaStreamSynchronize(stream);
      if (status != cudaSuccess) cudaFreeAsync(pointer, stream);
    }
  }
  if (status != cudaSuccess) {
    budget.release(bytes);
    throw_cuda_error(status, (std::string(call) + " of " + std::to_string(bytes) + " bytes for a device value").c_str(),
                     file, line);
  }
  return pointer;
}

void device_free(void* pointer, size_t bytes) noexcept {
  if (pointer == nullptr) return;
  // A failure here would be a broken context, reported by the next checked call.
  if (bytes > pooled_value_limit) {
    cudaFree(pointer);
  } else {
    cudaDeviceSynchronize();
    cudaFreeAsync(pointer, value_stream());
  }
  MemoryBudget::global().release(bytes);
}

void* stream_allocate(size_t bytes, cudaStream_t stream, const char* file, int line) {
  MemoryBudget& budget = MemoryBudget::global();
  budget.reserve(bytes);
  void* pointer = nullptr;
  const cudaError_t status = pool_allocate(&pointer, bytes, stream);
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
