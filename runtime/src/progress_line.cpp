#include "gql/progress_line.hpp"

#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>

namespace gql {

struct ProgressLine::State {
  std::mutex mutex;
  std::condition_variable done_signal;
  bool done = false;
  bool printed = false;
  std::string detail;
  std::thread ticker;
};

namespace {
std::mutex shown_mutex;  // guards ProgressLine::shown_
}  // namespace

ProgressLine::State* ProgressLine::shown_ = nullptr;

ProgressLine::ProgressLine(std::string what) : what_(std::move(what)) {
  std::lock_guard guard(shown_mutex);
  if (shown_) {
    state_ = shown_;
    return;
  }
  if (!isatty(STDERR_FILENO)) return;
  state_ = new State;
  owner_ = true;
  shown_ = state_;
  state_->ticker = std::thread([s = state_, what = what_] {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock lock(s->mutex);
    while (!s->done_signal.wait_for(lock, std::chrono::seconds(1), [s] { return s->done; })) {
      const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "\r\033[Krunning %s ... %.0f s%s%s", what.c_str(), t, s->detail.empty() ? "" : ", ",
                   s->detail.c_str());
      std::fflush(stderr);
      s->printed = true;
    }
  });
}

ProgressLine::~ProgressLine() {
  if (!state_) return;
  if (!owner_) {
    detail("");
    return;
  }
  {
    std::lock_guard guard(shown_mutex);
    shown_ = nullptr;
  }
  {
    std::lock_guard lock(state_->mutex);
    state_->done = true;
  }
  state_->done_signal.notify_one();
  state_->ticker.join();
  if (state_->printed) std::fprintf(stderr, "\r\033[K");
  delete state_;
}

void ProgressLine::detail(const std::string& text) {
  if (!state_) return;
  std::lock_guard lock(state_->mutex);
  state_->detail = owner_ || text.empty() ? text : what_ + ": " + text;
}

}  // namespace gql
