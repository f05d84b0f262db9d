// What is derived from a container's contents and kept with it: its transpose, its device copy, a
// traversal's state over it, and facts such as "this graph is symmetric". A container drops all of it
// whenever it is written (each of its non-const accessors clears it), so nothing derived outlives the
// contents it was made from, and nothing is ever found again by a container's address. Moving a
// container moves what is derived with it; clone() starts afresh.
//
// Reads are thread-safe (several kernel calls may share one graph); writing a container while
// another thread reads it is a race, as it is for the container's own arrays.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>

namespace gql {

class Derived {
 public:
  Derived() = default;
  ~Derived() { delete state_.load(); }
  Derived(Derived&& other) noexcept : state_(other.state_.exchange(nullptr)) {}
  Derived& operator=(Derived&& other) noexcept {
    if (this != &other) delete state_.exchange(other.state_.exchange(nullptr));
    return *this;
  }
  Derived(const Derived&) = delete;
  Derived& operator=(const Derived&) = delete;

  // The value kept under `key` as a T, made by `make()` (which returns a T) the first time it is asked
  // for, or value-initialized when no `make` is given. It lives until the container is written or
  // destroyed.
  template <class T, class Make>
  T& get(std::string_view key, Make&& make) const {
    return slot<T>(key, [&] { return std::make_shared<T>(make()); });
  }
  template <class T>
  T& get(std::string_view key) const {
    return slot<T>(key, [] { return std::make_shared<T>(); });
  }

  // Whether the contents are known to be symmetric (A == A'): set by whoever made them so (a reader
  // asked to symmetrize, say); pull steps over such a graph read the graph itself as its transpose.
  bool symmetric() const noexcept {
    const State* s = state_.load(std::memory_order_acquire);
    return s != nullptr && s->symmetric;
  }
  void mark_symmetric() const { state().symmetric = true; }

  // Forgets everything: the contents are about to change. Cheap when nothing was derived.
  void clear() noexcept {
    if (state_.load(std::memory_order_relaxed) != nullptr) delete state_.exchange(nullptr);
  }

 private:
  struct State {
    std::recursive_mutex mutex;
    std::map<std::string, std::shared_ptr<void>, std::less<>> slots;
    bool symmetric = false;
  };
  template <class T, class Make>
  T& slot(std::string_view key, Make&& make) const {
    State& s = state();
    std::string name = std::string(key) + '\0' + typeid(T).name();  // a key never yields another type
    std::lock_guard lock(s.mutex);  // recursive: make() may derive from this container too
    auto it = s.slots.find(name);
    if (it == s.slots.end()) it = s.slots.emplace(std::move(name), make()).first;
    return *static_cast<T*>(it->second.get());
  }

  // Made on first use; two threads asking at once agree on one.
  State& state() const {
    State* s = state_.load(std::memory_order_acquire);
    if (s != nullptr) return *s;
    auto* fresh = new State;
    if (state_.compare_exchange_strong(s, fresh, std::memory_order_acq_rel)) return *fresh;
    delete fresh;
    return *s;
  }

  mutable std::atomic<State*> state_{nullptr};
};

// State kept with a container's contents that calls take turns on (a traversal's device buffers over a
// graph, say): made by the first call that needs it, then reused by the later ones, one at a time.
template <class T>
struct KeptState {
  std::mutex turn;
  std::optional<T> state;
};

}  // namespace gql
