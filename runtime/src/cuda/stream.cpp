// Streams, events and the stream pool.
#include <map>
#include <mutex>
#include <vector>

#include "gql/device.hpp"

namespace gql {

namespace {

// Streams their owners handed back, kept per device for the next Stream(). Making a stream costs 10
// to 50 microseconds (a program's first call after the device start: 0.05 ms), about what a small op
// takes, and every kernel call makes one or more. A stream handed back may still hold work: the next
// owner's work queues after it, which keeps every order and costs at most a wait.
class IdleStreams {
 public:
  // Never destroyed: streams may be handed back by the destructors of other statics.
  static IdleStreams& process() {
    static IdleStreams* const idle = new IdleStreams;
    return *idle;
  }
  cudaStream_t take(int device) {
    std::lock_guard lock(mutex_);
    std::vector<cudaStream_t>& idle = by_device_[device];
    if (idle.empty()) return nullptr;
    const cudaStream_t stream = idle.back();
    idle.pop_back();
    return stream;
  }
  // False when the device already keeps as many as a process uses at once (the caller destroys it).
  bool give(int device, cudaStream_t stream) {
    std::lock_guard lock(mutex_);
    std::vector<cudaStream_t>& idle = by_device_[device];
    if (idle.size() >= kept_per_device) return false;
    idle.push_back(stream);
    return true;
  }

 private:
  static constexpr size_t kept_per_device = 64;
  std::mutex mutex_;
  std::map<int, std::vector<cudaStream_t>> by_device_;
};

}  // namespace

Stream::Stream() {
  GQL_CUDA_CHECK(cudaGetDevice(&device_));
  stream_ = IdleStreams::process().take(device_);
  if (stream_ == nullptr) GQL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
}

Stream::~Stream() { release(); }

void Stream::release() noexcept {
  if (!owned_ || stream_ == nullptr) return;
  if (!IdleStreams::process().give(device_, stream_)) cudaStreamDestroy(stream_);
  stream_ = nullptr;
}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    release();
    stream_ = std::exchange(other.stream_, nullptr);
    owned_ = std::exchange(other.owned_, false);
    device_ = other.device_;
  }
  return *this;
}

void Stream::synchronize() const { GQL_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

Event::Event() { GQL_CUDA_CHECK(cudaEventCreate(&event_)); }

Event::~Event() {
  if (event_ != nullptr) cudaEventDestroy(event_);
}

Event& Event::operator=(Event&& other) noexcept {
  if (this != &other) {
    if (event_ != nullptr) cudaEventDestroy(event_);
    event_ = std::exchange(other.event_, nullptr);
  }
  return *this;
}

void Event::record(const Stream& stream) { GQL_CUDA_CHECK(cudaEventRecord(event_, stream.get())); }

void Event::synchronize() const { GQL_CUDA_CHECK(cudaEventSynchronize(event_)); }

bool Event::ready() const {
  const cudaError_t status = cudaEventQuery(event_);
  if (status == cudaErrorNotReady) {
    cudaGetLastError();
    return false;
  }
  GQL_CUDA_CHECK(status);
  return true;
}

void Event::wait_on(const Stream& stream) const { GQL_CUDA_CHECK(cudaStreamWaitEvent(stream.get(), event_, 0)); }

float Event::elapsed_ms(const Event& start, const Event& end) {
  float ms = 0.0f;
  GQL_CUDA_CHECK(cudaEventElapsedTime(&ms, start.event_, end.event_));
  return ms;
}

StreamPool::StreamPool(size_t size) {
  if (size == 0) throw Error(ErrorKind::usage, "a stream pool needs at least one stream");
  streams_.reserve(size);
  for (size_t i = 0; i < size; ++i) streams_.emplace_back();
}

void StreamPool::synchronize_all() const {
  for (const Stream& s : streams_) s.synchronize();
}

}  // namespace gql
