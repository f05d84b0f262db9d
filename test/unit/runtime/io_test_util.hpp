// Helpers for the reader and writer tests: temporary files and a plain map view of a graph.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "gql/error.hpp"
#include "gql/graph.hpp"

namespace gql_test {

// A file under the system temp folder, removed at the end of the test.
class TempFile {
 public:
  explicit TempFile(const std::string& name, const std::string& contents = {}) {
    path_ = (std::filesystem::temp_directory_path() /
             ("gql_io_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++) + "_" + name))
                .string();
    if (!contents.empty()) write(contents);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  void write(const std::string& contents) const { std::ofstream(path_, std::ios::binary) << contents; }
  const std::string& path() const { return path_; }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::string path_;
};

// (row, col) -> value, as doubles: the reference form every test compares against.
template <class T>
std::map<std::pair<int64_t, int64_t>, double> entries(const gql::Csr<T>& g) {
  std::map<std::pair<int64_t, int64_t>, double> out;
  for (int64_t r = 0; r < g.n_rows(); ++r)
    for (gql::offset_t p = g.row_offsets()[r]; p < g.row_offsets()[r + 1]; ++p)
      out[{r, g.col_indices()[p]}] = static_cast<double>(g.value_at(p));
  return out;
}

// Runs `read` and expects Error(io) whose message contains every one of `parts`.
inline void expect_io_error(const std::function<void()>& read, std::initializer_list<std::string> parts) {
  try {
    read();
    ADD_FAILURE() << "expected an io error";
  } catch (const gql::Error& e) {
    EXPECT_EQ(e.kind(), gql::ErrorKind::io) << e.what();
    for (const auto& part : parts) EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

}  // namespace gql_test
