// The threads behind BoundKernel::async and async_on: calls on one queue (a CUDA stream, or null for
// calls without one) run one at a time in the order they were made, calls on different queues at
// once. A queue's worker thread exists only while the queue has calls: it ends when the queue runs
// dry, so a program that makes many streams does not collect idle threads.
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

#include "gql/jit.hpp"

namespace gql::jit_detail {
namespace {

struct CallQueue {
  std::deque<std::function<void()>> calls;
};

struct CallQueues {
  std::mutex mutex;
  std::map<const void*, CallQueue> by_key;  // only queues with a worker draining them
};

// Never destroyed: a worker may still be finishing its last call while the program's statics go.
CallQueues& call_queues() {
  static CallQueues* queues = new CallQueues;
  return *queues;
}

// The worker of queue `key`: runs its calls in order, and removes the queue when none is left (a
// later call starts a new worker).
void drain(const void* key) {
  CallQueues& queues = call_queues();
  std::unique_lock lock(queues.mutex);
  for (;;) {
    CallQueue& queue = queues.by_key.at(key);
    if (queue.calls.empty()) {
      queues.by_key.erase(key);
      return;
    }
    std::function<void()> call = std::move(queue.calls.front());
    queue.calls.pop_front();
    lock.unlock();
    call();  // a packaged task: what the kernel throws goes to its future
    lock.lock();
  }
}

}  // namespace

void run_in_order(const void* queue, std::function<void()> call) {
  CallQueues& queues = call_queues();
  std::lock_guard lock(queues.mutex);
  const auto [it, new_queue] = queues.by_key.try_emplace(queue);
  it->second.calls.push_back(std::move(call));
  if (new_queue) std::thread(drain, queue).detach();
}

}  // namespace gql::jit_detail
