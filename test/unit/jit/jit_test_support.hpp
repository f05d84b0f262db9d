// Scratch folders for the JIT tests.
#pragma once

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

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

}  // namespace gql::test
