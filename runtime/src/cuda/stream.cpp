// Streams, events and the stream pool.
#include "gql/device.hpp"

namespace gql {

Stream::Stream() { GQL_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }

Stream::~Stream() {
  if (owned_ && stream_ != nullptr) cudaStreamDestroy(stream_);
}

Stream& Stream::operator=(Stream&& other) noexcept {
  if (this != &other) {
    if (owned_ && stream_ != nullptr) cudaStreamDestroy(stream_);
    stream_ = std::exchange(other.stream_, nullptr);
    owned_ = std::exchange(other.owned_, false);
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
