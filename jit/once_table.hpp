// The in-process table: one value per key, made once however many threads ask at the same time.
// A hot lookup costs a mutex and a hash lookup; a failed make is forgotten so that a later call
// tries again, and the threads that waited for it see its exception.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace gql::jit {

template <class Key, class Value, class Hash = std::hash<Key>>
class OnceTable {
 public:
  // The value for `key`, calling make() when no thread made it yet. `made` tells whether this call made it.
  std::shared_ptr<const Value> get(const Key& key, const std::function<std::shared_ptr<const Value>()>& make,
                                   bool* made = nullptr) {
    std::promise<std::shared_ptr<const Value>> promise;
    std::shared_future<std::shared_ptr<const Value>> future;
    {
      std::lock_guard lock(mutex_);
      auto [it, inserted] = table_.try_emplace(key);
      if (!inserted) {
        future = it->second;
        if (made) *made = false;
      } else {
        it->second = promise.get_future().share();
      }
    }
    if (future.valid()) return future.get();
    if (made) *made = true;
    try {
      std::shared_ptr<const Value> value = make();
      promise.set_value(value);
      return value;
    } catch (...) {
      {
        std::lock_guard lock(mutex_);
        table_.erase(key);
      }
      promise.set_exception(std::current_exception());
      throw;
    }
  }

  // Drops every value (handles already given out stay valid).
  void clear() {
    std::lock_guard lock(mutex_);
    table_.clear();
  }

 private:
  std::mutex mutex_;
  std::unordered_map<Key, std::shared_future<std::shared_ptr<const Value>>, Hash> table_;
};

}  // namespace gql::jit
