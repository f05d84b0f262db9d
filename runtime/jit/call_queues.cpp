// The threads behind BoundKernel::async and async_on: one worker per queue (a CUDA stream, or null
// for calls without one), so that calls on one stream run in the order they were made while calls
// on different streams overlap.
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "gql/jit.hpp"

namespace gql::jit_detail {
namespace {

class CallQueue {
 public:
  CallQueue() : worker_([this] { work(); }) {}
  ~CallQueue() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    ready_.notify_one();
    worker_.join();  // the calls already queued run first
  }
  CallQueue(const CallQueue&) = delete;
  CallQueue& operator=(const CallQueue&) = delete;

  void push(std::function<void()> call) {
    {
      std::lock_guard lock(mutex_);
      calls_.push_back(std::move(call));
    }
    ready_.notify_one();
  }

 private:
  void work() {
    std::unique_lock lock(mutex_);
    for (;;) {
      ready_.wait(lock, [this] { return stopping_ || !calls_.empty(); });
      if (calls_.empty()) return;  // stopping, and nothing left
      std::function<void()> call = std::move(calls_.front());
      calls_.pop_front();
      lock.unlock();
      call();  // a packaged task: what the kernel throws goes to its future
      lock.lock();
    }
  }

  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> calls_;
  bool stopping_ = false;
  std::thread worker_;  // last: starts once the members it reads exist
};

}  // namespace

void run_in_order(const void* queue, std::function<void()> call) {
  static std::mutex mutex;
  static std::map<const void*, std::unique_ptr<CallQueue>> queues;
  CallQueue* target;
  {
    std::lock_guard lock(mutex);
    std::unique_ptr<CallQueue>& slot = queues[queue];
    if (!slot) slot = std::make_unique<CallQueue>();
    target = slot.get();
  }
  target->push(std::move(call));
}

}  // namespace gql::jit_detail
