// The pinned staging buffers that copies of pageable host memory pass through (staged_copy.cpp,
// symmetric_upload.cpp; not a public header): a few buffers kept for the process, each with the
// event of the last DMA into or out of it, used by one copy at a time.
#pragma once

#include <cstddef>
#include <mutex>
#include <optional>

#include "gql/device.hpp"

namespace gql::staging {

constexpr size_t buffer_bytes = size_t{32} << 20;  // one staging buffer
constexpr int n_buffers = 3;                        // DMA in one, host threads in another, one ahead
constexpr size_t min_chunk = size_t{1} << 20;       // a pipeline step; smaller ones cost more than they overlap

class Staging {
 public:
  // Never freed: a static's destructor would call CUDA after the runtime's own teardown at exit.
  static Staging& process() {
    static Staging* const staging = new Staging;
    return *staging;
  }
  // Buffers and events are made on first use, under the lock a copy holds.
  std::unique_lock<std::mutex> acquire() {
    std::unique_lock lock(mutex_);
    if (!buffers_[0]) {
      for (int b = 0; b < n_buffers; ++b) {
        buffers_[b].emplace(buffer_bytes);
        events_[b].emplace();
      }
    }
    return lock;
  }
  unsigned char* buffer(int b) { return buffers_[b]->data(); }
  Event& event(int b) { return *events_[b]; }

 private:
  std::mutex mutex_;
  std::optional<HostBuffer<unsigned char>> buffers_[n_buffers];
  std::optional<Event> events_[n_buffers];
};

}  // namespace gql::staging
