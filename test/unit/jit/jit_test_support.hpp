// Scratch folders and process races for the JIT tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gql::test {

// A fresh empty folder under the system temp folder, removed when the object goes away.
class ScratchDir {
 public:
  ScratchDir() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("gql-jit-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  std::string str() const { return path_.string(); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The cache shared by every test that compiles kernels (and by reruns of the suite), so that the
// suite compiles each spec once.
inline std::string shared_kernel_cache() { return std::string(GQL_BINARY_DIR) + "/test-jit-cache"; }

// How the children of a race ended: each did the work (exit 0), reused another's (exit 1), or
// ended otherwise (its exit code, 2 when it threw, -1 when it did not exit).
struct RaceResult {
  int did_the_work = 0;
  int reused = 0;
  std::vector<int> other_codes;
};
constexpr int did_the_work = 0;
constexpr int reused_it = 1;

// Starts `processes` children at once, each running `child(n)` (n = 0, 1, ...) and exiting with
// what it returns.
inline RaceResult race_processes(int processes, const std::function<int(int)>& child) {
  std::vector<pid_t> children;
  for (int n = 0; n < processes; ++n) {
    const pid_t pid = fork();
    if (pid == 0) {
      int status = 2;
      try {
        status = child(n);
      } catch (...) {
      }
      _exit(status);
    }
    children.push_back(pid);
  }
  RaceResult result;
  for (const pid_t pid : children) {
    int status = -1;
    const bool exited = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : -1;
    if (code == did_the_work) ++result.did_the_work;
    else if (code == reused_it) ++result.reused;
    else result.other_codes.push_back(code);
  }
  return result;
}

}  // namespace gql::test
