// The device side of the runtime: device and pinned host memory, streams, events, a stream pool,
// device variants of the containers, and the device memory budget.
//
// Host code only (g++ or nvcc with the CUDA runtime headers); kernels see device data through the
// plain views of gql/device/*.cuh. Every failing CUDA call becomes gql::Error(ErrorKind::cuda) naming
// the call and its source location; a failed allocation, or one over the budget, becomes
// ErrorKind::oom so that callers can split the work and retry.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "gql/device/csr_view.cuh"
#include "gql/error.hpp"
#include "gql/memory_size.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

static_assert(std::is_same_v<gql::offset_t, long> && std::is_same_v<gql::index_t, int>,
              "gql/device/types.cuh spells offset_t and index_t as long and int");

namespace gql {

// ---- Errors -------------------------------------------------------------------------------------

// Throws the gql::Error for a failed CUDA call: ErrorKind::oom for cudaErrorMemoryAllocation,
// ErrorKind::cuda otherwise; the message names the call, the CUDA error and the source location.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call, const char* file, int line);

inline void cuda_check(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) throw_cuda_error(status, call, file, line);
}

}  // namespace gql

#define GQL_CUDA_CHECK(call) ::gql::cuda_check((call), #call, __FILE__, __LINE__)
// After a kernel launch: reports a bad launch configuration at the launch site.
#define GQL_CUDA_CHECK_LAUNCH() ::gql::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)

namespace gql {

// Number of CUDA devices visible (0 when there is no device or no driver; never throws).
int device_count() noexcept;

// What the device start prepares besides the context and the staging buffers of host-device copies.
enum class DeviceStart {
  // Every kernel of the program loaded with the context (CUDA_MODULE_LOADING=EAGER), not at its first
  // launch.
  kernels_loaded,
  // A cuBLAS handle made, the kernels loaded at their first launch: eagerly, cuBLAS's thousands of
  // kernels would be loaded too, which takes seconds.
  with_cublas,
};

// Creates the CUDA context (the first CUDA call pays for it: a few hundred milliseconds) and what
// `what` says (an environment's CUDA_MODULE_LOADING is kept), so that a program can start the device
// before it times a kernel. Error(cuda) when there is no device.
void start_device(DeviceStart what = DeviceStart::kernels_loaded);
// How the kernels of the process will load, as `what` says (CUDA_MODULE_LOADING, unless the
// environment sets it): for a program whose first CUDA call comes before its device start (the GPU
// of an MPI rank, taken at the program's start). No effect once CUDA is initialized.
void choose_module_loading(DeviceStart what);

// ---- Memory budget ------------------------------------------------------------------------------

// How much device memory gql may use. Without a cap it is the device's free memory; a cap (set by
// set_limit or, at first use, by the environment variable GQL_DEVICE_MEMORY_LIMIT) bounds the bytes
// held by gql's DeviceBuffers, so out-of-core plans can be exercised on a large card.
class MemoryBudget {
 public:
  // The process-wide budget that DeviceBuffer allocations are charged to.
  static MemoryBudget& global();

  explicit MemoryBudget(std::optional<size_t> limit = std::nullopt) : limit_(limit.value_or(no_limit)) {}

  void set_limit(std::optional<size_t> bytes) noexcept { limit_.store(bytes.value_or(no_limit)); }
  std::optional<size_t> limit() const noexcept {
    const size_t l = limit_.load();
    return l == no_limit ? std::nullopt : std::optional<size_t>(l);
  }
  size_t in_use() const noexcept { return in_use_.load(); }
  // Bytes that may still be allocated: the device's free memory, bounded by the cap when one is set.
  size_t available() const;
  // Charges `bytes` to the budget; throws Error(oom) when that would exceed the cap.
  void reserve(size_t bytes);
  void release(size_t bytes) noexcept { in_use_.fetch_sub(bytes); }

 private:
  static constexpr size_t no_limit = ~size_t{0};
  std::atomic<size_t> limit_;
  std::atomic<size_t> in_use_{0};
};

// ---- Streams and events -------------------------------------------------------------------------

class Stream {
 public:
  Stream();  // a non-blocking stream (does not synchronize with the legacy default stream)
  ~Stream();
  Stream(Stream&& other) noexcept
      : stream_(std::exchange(other.stream_, nullptr)), owned_(std::exchange(other.owned_, false)) {}
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // A caller's stream, used but never destroyed by this object.
  static Stream borrow(cudaStream_t stream) noexcept { return Stream(stream, false); }
  // The stream a kernel call's device work goes on: the caller's (KernelContext::gpu_stream), else
  // a new one of the operation's own.
  static Stream for_call(const KernelContext& ctx) {
    return ctx.gpu_stream() != nullptr ? borrow(static_cast<cudaStream_t>(ctx.gpu_stream())) : Stream();
  }

  cudaStream_t get() const noexcept { return stream_; }
  void synchronize() const;

 private:
  Stream(cudaStream_t stream, bool owned) noexcept : stream_(stream), owned_(owned) {}
  cudaStream_t stream_ = nullptr;
  bool owned_ = true;
};

// The stream of one kernel call: the caller's (KernelContext::gpu_stream), else one made for the
// call and set on the context, so that every op of the call (Stream::for_call) runs in order on one
// stream. A stream made here is waited for when the call ends (its results are complete) and
// destroyed. Scopes nest: an inner one uses the stream of the outer.
class CallStream {
 public:
  explicit CallStream(KernelContext& ctx) : ctx_(ctx) {
    if (ctx.gpu_stream() != nullptr) return;
    owned_.emplace();
    ctx.set_gpu_stream(owned_->get());
  }
  ~CallStream() {
    if (!owned_) return;
    cudaStreamSynchronize(owned_->get());  // an error here is the next checked call's to report
    ctx_.set_gpu_stream(nullptr);
  }
  CallStream(const CallStream&) = delete;
  CallStream& operator=(const CallStream&) = delete;

  Stream stream() const noexcept { return Stream::borrow(static_cast<cudaStream_t>(ctx_.gpu_stream())); }

 private:
  KernelContext& ctx_;
  std::optional<Stream> owned_;
};

class Event {
 public:
  Event();  // timing enabled
  ~Event();
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  Event& operator=(Event&& other) noexcept;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  cudaEvent_t get() const noexcept { return event_; }
  void record(const Stream& stream);
  void synchronize() const;
  bool ready() const;  // true once the work before record() is done
  // Makes `stream` wait for this event (without blocking the host).
  void wait_on(const Stream& stream) const;
  // Milliseconds between two recorded events (both must be complete).
  static float elapsed_ms(const Event& start, const Event& end);

 private:
  cudaEvent_t event_ = nullptr;
};

// A fixed set of streams handed out round robin, for overlapping copies with compute.
class StreamPool {
 public:
  explicit StreamPool(size_t size);
  size_t size() const noexcept { return streams_.size(); }
  Stream& operator[](size_t i) { return streams_.at(i); }
  Stream& next() noexcept { return streams_[next_++ % streams_.size()]; }
  void synchronize_all() const;

 private:
  std::vector<Stream> streams_;
  size_t next_ = 0;
};

// ---- Raw memory (charged to MemoryBudget::global()) ---------------------------------------------

// A device value's memory, from the device's memory pool up to 64 MiB (cudaMalloc above): usable on
// any stream once made; freeing waits for the device's work first, as cudaFree does
// (runtime/src/cuda/memory.cpp).
void* device_allocate(size_t bytes, const char* file, int line);
void device_free(void* pointer, size_t bytes) noexcept;
// Page-locked host memory; blocks of up to 64 KiB come from slabs kept for the process
// (runtime/src/cuda/pinned_memory.cpp), larger ones from cudaMallocHost.
void* pinned_allocate(size_t bytes, const char* file, int line);
void pinned_free(void* pointer, size_t bytes) noexcept;
void copy_async(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const Stream& stream,
                const char* file, int line);
void memset_async(void* dst, int byte, size_t bytes, const Stream& stream);
// Stream-ordered scratch from the device's memory pool (cudaMallocAsync), which keeps freed memory
// for the next allocation up to a release threshold: no cudaMalloc, and no device-wide wait of a
// cudaFree, per op. Freed on the stream it was allocated on, after the work issued there.
void* stream_allocate(size_t bytes, cudaStream_t stream, const char* file, int line);
void stream_free(void* pointer, size_t bytes, cudaStream_t stream) noexcept;
// 256 bytes of pinned memory of the calling thread, kept for the process: the target of the small
// reads (a count, a reduction) that an op waits for before it goes on.
void* small_pinned_scratch();
// The value at `on_device`, after what `stream` holds: one small read through the calling thread's
// pinned scratch.
template <class T>
T read_back(const T* on_device, const Stream& stream) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 256, "a small read fits the pinned scratch");
  auto* host = static_cast<T*>(small_pinned_scratch());
  copy_async(host, on_device, sizeof(T), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  stream.synchronize();
  return *host;
}
// Copies of host memory that return once done, after what `stream` holds: pageable ones of 256 KiB
// and more go through pinned staging buffers kept for the process, host threads copying one while
// the DMA engine fills or drains another; page-locked memory and small copies go straight through
// the driver (runtime/src/cuda/staged_copy.cpp). The parts of one value (a graph's offsets, columns
// and values; a vector's indices and values) go as one copy: one pipeline through the staging
// buffers, which fills and drains once.
struct CopyPart {
  void* to;
  const void* from;
  size_t bytes;
};
void download(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line);
void upload(std::span<const CopyPart> parts, const Stream& stream, const char* file, int line);
// An upload into device memory made on the way: `allocate` sets each part's `to`, on the calling
// thread while the others copy the first chunk into a staging buffer (a graph's 126 MB of columns
// cost cudaMalloc 0.13-0.18 ms, which that copy hides). Its exceptions reach the caller.
void upload(std::span<CopyPart> parts, const std::function<void()>& allocate, const Stream& stream, const char* file,
            int line);
inline void download(void* host, const void* device, size_t bytes, const Stream& stream, const char* file, int line) {
  const CopyPart part{host, device, bytes};
  download(std::span<const CopyPart>(&part, 1), stream, file, line);
}
inline void upload(void* device, const void* host, size_t bytes, const Stream& stream, const char* file, int line) {
  const CopyPart part{device, host, bytes};
  upload(std::span<const CopyPart>(&part, 1), stream, file, line);
}
// Makes the staging buffers (pinned allocations of tens of milliseconds) ahead of the first copy, and
// moves them through the device once: a program's device start, before its timed upload.
void prepare_staged_copies();
// Makes the first slab of small pinned blocks (a cudaMallocHost of about a millisecond) ahead of the
// first search's counters: a program's device start.
void prepare_pinned_blocks();

// ---- Buffers ------------------------------------------------------------------------------------

// `count` elements of T in device memory (uninitialized), freed on destruction.
template <class T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable elements");

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count_ > 0) data_ = static_cast<T*>(device_allocate(bytes(), __FILE__, __LINE__));
  }
  ~DeviceBuffer() { device_free(data_, bytes()); }
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      device_free(data_, bytes());
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  size_t size() const noexcept { return count_; }
  size_t bytes() const noexcept { return count_ * sizeof(T); }
  bool empty() const noexcept { return count_ == 0; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }

  // Asynchronous copies; the host span must stay alive until the stream reaches the copy (pinned
  // memory makes them truly asynchronous). Copy into/out of the first src.size() elements.
  void copy_from_host(std::span<const T> src, const Stream& stream) {
    check_fits(src.size());
    copy_async(data_, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, stream, __FILE__, __LINE__);
  }
  void copy_to_host(std::span<T> dst, const Stream& stream) const {
    check_fits(dst.size());
    copy_async(dst.data(), data_, dst.size_bytes(), cudaMemcpyDeviceToHost, stream, __FILE__, __LINE__);
  }
  // Copies into/out of the first src.size() elements that return once done (pageable host memory
  // at the link's speed: download() and upload() above).
  void upload(std::span<const T> src, const Stream& stream) {
    check_fits(src.size());
    gql::upload(data_, src.data(), src.size_bytes(), stream, __FILE__, __LINE__);
  }
  void download(std::span<T> dst, const Stream& stream) const {
    check_fits(dst.size());
    gql::download(dst.data(), data_, dst.size_bytes(), stream, __FILE__, __LINE__);
  }
  void copy_from_device(const DeviceBuffer& src, const Stream& stream) {
    check_fits(src.size());
    copy_async(data_, src.data(), src.bytes(), cudaMemcpyDeviceToDevice, stream, __FILE__, __LINE__);
  }
  void fill_zero(const Stream& stream) { memset_async(data_, 0, bytes(), stream); }

 private:
  void check_fits(size_t count) const {
    if (count > count_)
      throw Error(ErrorKind::usage, "copy of " + std::to_string(count) + " elements into a device buffer of " +
                                        std::to_string(count_));
  }

  T* data_ = nullptr;
  size_t count_ = 0;
};

// `count` elements of T in pinned (page-locked) host memory: the source or target of truly
// asynchronous copies.
template <class T>
class HostBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "pinned buffers hold trivially copyable elements");

 public:
  HostBuffer() = default;
  explicit HostBuffer(size_t count) : count_(count) {
    if (count_ > 0) data_ = static_cast<T*>(pinned_allocate(count_ * sizeof(T), __FILE__, __LINE__));
  }
  ~HostBuffer() { pinned_free(data_, count_ * sizeof(T)); }
  HostBuffer(HostBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  HostBuffer& operator=(HostBuffer&& other) noexcept {
    if (this != &other) {
      pinned_free(data_, count_ * sizeof(T));
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  HostBuffer(const HostBuffer&) = delete;
  HostBuffer& operator=(const HostBuffer&) = delete;

  size_t size() const noexcept { return count_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::span<T> span() noexcept { return {data_, count_}; }
  std::span<const T> span() const noexcept { return {data_, count_}; }
  T& operator[](size_t i) noexcept { return data_[i]; }
  const T& operator[](size_t i) const noexcept { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
};

// Device scratch of one op, on `stream`'s order (stream_allocate): made and freed on the stream, so
// the stream must outlive it; never handed over as a value.
template <class T>
class StreamBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold trivially copyable elements");

 public:
  StreamBuffer(size_t count, const Stream& stream) : count_(count), stream_(stream.get()) {
    if (count_ > 0) data_ = static_cast<T*>(stream_allocate(count_ * sizeof(T), stream_, __FILE__, __LINE__));
  }
  ~StreamBuffer() { stream_free(data_, count_ * sizeof(T), stream_); }
  StreamBuffer(StreamBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)), stream_(other.stream_) {}
  StreamBuffer& operator=(StreamBuffer&&) = delete;
  StreamBuffer(const StreamBuffer&) = delete;
  StreamBuffer& operator=(const StreamBuffer&) = delete;

  size_t size() const noexcept { return count_; }
  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
  cudaStream_t stream_;
};

// ---- Device containers --------------------------------------------------------------------------

// A CSR graph in device memory: the device twin of Csr<T> (no value array for pattern graphs).
template <class T>
class DeviceCsr {
 public:
  using value_type = T;

  DeviceCsr() = default;
  // Uninitialized arrays for a graph of this shape and entry count.
  DeviceCsr(int64_t n_rows, int64_t n_cols, int64_t nvals)
      : n_rows_(n_rows),
        n_cols_(n_cols),
        nvals_(nvals),
        row_offsets_(static_cast<size_t>(n_rows) + 1),
        col_indices_(static_cast<size_t>(nvals)),
        values_(stores_values<T> ? static_cast<size_t>(nvals) : 0) {}
  // Takes ownership of arrays already filled on the device.
  DeviceCsr(int64_t n_rows, int64_t n_cols, int64_t nvals, DeviceBuffer<offset_t> row_offsets,
            DeviceBuffer<index_t> col_indices, DeviceBuffer<storage_t<T>> values)
      : n_rows_(n_rows),
        n_cols_(n_cols),
        nvals_(nvals),
        row_offsets_(std::move(row_offsets)),
        col_indices_(std::move(col_indices)),
        values_(std::move(values)) {}

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  int64_t nvals() const noexcept { return nvals_; }
  // Writing access drops what was derived from the contents (gql/derived.hpp).
  DeviceBuffer<offset_t>& row_offsets() noexcept { return derived_.clear(), row_offsets_; }
  DeviceBuffer<index_t>& col_indices() noexcept { return derived_.clear(), col_indices_; }
  DeviceBuffer<storage_t<T>>& values() noexcept { return derived_.clear(), values_; }
  // What is kept with these contents: a search's state over them, their transpose, symmetry, ...
  const Derived& derived() const noexcept { return derived_; }
  const DeviceBuffer<offset_t>& row_offsets() const noexcept { return row_offsets_; }
  const DeviceBuffer<index_t>& col_indices() const noexcept { return col_indices_; }
  const DeviceBuffer<storage_t<T>>& values() const noexcept { return values_; }

  device::CsrView<T> view() const noexcept {
    return {n_rows_, n_cols_, row_offsets_.data(), col_indices_.data(),
            stores_values<T> ? values_.data() : nullptr};
  }

  // Copies the graph back; waits for the stream.
  Csr<T> to_host(const Stream& stream) const {
    Array<offset_t> offsets(static_cast<size_t>(n_rows_) + 1);  // every element downloaded
    Array<index_t> cols(static_cast<size_t>(nvals_));
    Array<storage_t<T>> vals(stores_values<T> ? static_cast<size_t>(nvals_) : 0);
    const CopyPart parts[] = {{offsets.data(), row_offsets_.data(), offsets.size() * sizeof(offset_t)},
                              {cols.data(), col_indices_.data(), cols.size() * sizeof(index_t)},
                              {vals.data(), values_.data(), vals.size() * sizeof(storage_t<T>)}};
    download(parts, stream, __FILE__, __LINE__);
    Csr<T> host(n_rows_, n_cols_, std::move(offsets), std::move(cols), std::move(vals));
    if (derived_.symmetric()) host.derived().mark_symmetric();
    return host;
  }

 private:
  int64_t n_rows_ = 0;
  int64_t n_cols_ = 0;
  int64_t nvals_ = 0;
  DeviceBuffer<offset_t> row_offsets_;
  DeviceBuffer<index_t> col_indices_;
  DeviceBuffer<storage_t<T>> values_;
  Derived derived_;
};

// Copies a host graph to the device after what `stream` holds; returns once copied.
template <class T>
DeviceCsr<T> to_device(const Csr<T>& graph, const Stream& stream) {
  const auto values = graph.values();
  CopyPart parts[] = {{nullptr, graph.row_offsets().data(), graph.row_offsets().size() * sizeof(offset_t)},
                      {nullptr, graph.col_indices().data(), graph.col_indices().size() * sizeof(index_t)},
                      {nullptr, values.data(), stores_values<T> ? values.size() * sizeof(storage_t<T>) : 0}};
  DeviceCsr<T> out;
  const auto allocate = [&] {
    out = DeviceCsr<T>(graph.n_rows(), graph.n_cols(), graph.nvals());
    parts[0].to = out.row_offsets().data();
    parts[1].to = out.col_indices().data();
    parts[2].to = out.values().data();
  };
  upload(parts, allocate, stream, __FILE__, __LINE__);
  if (graph.derived().symmetric()) out.derived().mark_symmetric();
  return out;
}

// A dense row-major matrix in device memory.
template <class T>
class DeviceMatrix {
 public:
  using value_type = T;

  DeviceMatrix() = default;
  DeviceMatrix(int64_t n_rows, int64_t n_cols)
      : n_rows_(n_rows), n_cols_(n_cols), data_(static_cast<size_t>(n_rows * n_cols)) {}

  int64_t n_rows() const noexcept { return n_rows_; }
  int64_t n_cols() const noexcept { return n_cols_; }
  DeviceBuffer<storage_t<T>>& data() noexcept { return data_; }
  const DeviceBuffer<storage_t<T>>& data() const noexcept { return data_; }

  Matrix<T> to_host(const Stream& stream) const {
    Array<storage_t<T>> host(data_.size());  // every element downloaded
    data_.download(std::span<storage_t<T>>(host), stream);
    return Matrix<T>(n_rows_, n_cols_, std::move(host));
  }

 private:
  int64_t n_rows_ = 0;
  int64_t n_cols_ = 0;
  DeviceBuffer<storage_t<T>> data_;
};

template <class T>
DeviceMatrix<T> to_device(const Matrix<T>& matrix, const Stream& stream) {
  CopyPart part{nullptr, matrix.data().data(), matrix.data().size_bytes()};
  DeviceMatrix<T> out;
  const auto allocate = [&] {
    out = DeviceMatrix<T>(matrix.n_rows(), matrix.n_cols());
    part.to = out.data().data();
  };
  upload(std::span<CopyPart>(&part, 1), allocate, stream, __FILE__, __LINE__);
  return out;
}

// A vector in device memory, dense (values of every entry) or sparse (sorted indices + values).
template <class T>
class DeviceVector {
 public:
  using value_type = T;

  DeviceVector() = default;
  static DeviceVector dense(int64_t size) {
    DeviceVector v;
    v.size_ = size;
    v.dense_ = true;
    v.values_ = DeviceBuffer<storage_t<T>>(static_cast<size_t>(size));
    return v;
  }
  static DeviceVector sparse(int64_t size, int64_t nvals) {
    DeviceVector v;
    v.size_ = size;
    v.indices_ = DeviceBuffer<index_t>(static_cast<size_t>(nvals));
    v.values_ = DeviceBuffer<storage_t<T>>(static_cast<size_t>(nvals));
    return v;
  }
  // A dense vector over `values` (one per index), taken over.
  static DeviceVector dense(int64_t size, DeviceBuffer<storage_t<T>> values) {
    if (values.size() != static_cast<size_t>(size))
      throw Error(ErrorKind::internal, "a dense device vector of " + std::to_string(size) + " entries given " +
                                           std::to_string(values.size()) + " values");
    DeviceVector v;
    v.size_ = size;
    v.dense_ = true;
    v.values_ = std::move(values);
    return v;
  }

  int64_t size() const noexcept { return size_; }
  bool is_dense() const noexcept { return dense_; }
  int64_t nvals() const noexcept { return dense_ ? size_ : static_cast<int64_t>(indices_.size()); }
  DeviceBuffer<index_t>& indices() noexcept { return indices_; }
  DeviceBuffer<storage_t<T>>& values() noexcept { return values_; }
  const DeviceBuffer<index_t>& indices() const noexcept { return indices_; }
  const DeviceBuffer<storage_t<T>>& values() const noexcept { return values_; }

  Vector<T> to_host(const Stream& stream) const {
    Array<storage_t<T>> vals(values_.size());  // every element downloaded
    Array<index_t> idx(indices_.size());
    const CopyPart parts[] = {{vals.data(), values_.data(), vals.size() * sizeof(storage_t<T>)},
                              {idx.data(), indices_.data(), idx.size() * sizeof(index_t)}};
    download(parts, stream, __FILE__, __LINE__);
    if (dense_) return Vector<T>::dense(size_, std::move(vals));
    return Vector<T>::sparse(size_, std::move(idx), std::move(vals));
  }

 private:
  int64_t size_ = 0;
  bool dense_ = false;
  DeviceBuffer<index_t> indices_;
  DeviceBuffer<storage_t<T>> values_;
};

template <class T>
DeviceVector<T> to_device(const Vector<T>& vector, const Stream& stream) {
  const auto indices = vector.is_dense() ? std::span<const index_t>() : vector.indices();
  CopyPart parts[] = {{nullptr, indices.data(), indices.size_bytes()},
                      {nullptr, vector.values().data(), vector.values().size() * sizeof(storage_t<T>)}};
  DeviceVector<T> out;
  const auto allocate = [&] {
    out = vector.is_dense() ? DeviceVector<T>::dense(vector.size())
                            : DeviceVector<T>::sparse(vector.size(), vector.nvals());
    parts[0].to = out.indices().data();
    parts[1].to = out.values().data();
  };
  upload(parts, allocate, stream, __FILE__, __LINE__);
  return out;
}

}  // namespace gql
