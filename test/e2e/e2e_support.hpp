// Helpers for end-to-end tests: run a gqlc-built program, find the shared data, and the
// straightforward reference computations the programs' results are checked against.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gql/graph.hpp"
#include "gql/io.hpp"

namespace gql::e2e {

inline std::string program(const std::string& name) { return std::string(GQL_E2E_PROGRAM_DIR) + "/" + name; }

inline std::string data_graph(const std::string& file) {
  return std::string(GQL_SHARED_DATA_DIR) + "/graphs/" + file;
}
inline bool have_shared_data() { return std::filesystem::exists(data_graph("SOURCES.md")); }

#define GQL_REQUIRE_SHARED_DATA() \
  if (!gql::e2e::have_shared_data()) GTEST_SKIP() << "no shared data at " GQL_SHARED_DATA_DIR

// A fresh folder per test for outputs.
inline std::string scratch_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() /
             ("gql-e2e-" + std::to_string(getpid())) / (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::create_directories(dir);
  return dir.string();
}

struct RunResult {
  int status = -1;
  std::string output;  // stdout and stderr together
};

// Runs `command` (a shell command line) and captures what it prints.
inline RunResult run(const std::string& command) {
  const std::string log = scratch_dir() + "/run.log";
  const int raw = std::system((command + " >" + log + " 2>&1").c_str());
  RunResult r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(log);
  std::stringstream ss;
  ss << in.rdbuf();
  r.output = ss.str();
  return r;
}

// Runs a program and expects success; returns the path of its --out file.
inline std::string run_ok(const std::string& program_name, const std::string& kernel, const std::string& args,
                          const std::string& out_name = "out.mtx") {
  const std::string out = scratch_dir() + "/" + out_name;
  const RunResult r = run(program(program_name) + " " + kernel + " " + args + " --out " + out);
  EXPECT_EQ(r.status, 0) << r.output;
  return out;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- reference computations -------------------------------------------------------------------

// A sparse matrix as an ordered map of rows, for comparisons that print well.
template <class V>
using RowMap = std::vector<std::map<index_t, V>>;

template <class T, class V = T>
RowMap<V> to_rows(const Csr<T>& g) {
  RowMap<V> rows(static_cast<size_t>(g.n_rows()));
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[i]; p < g.row_offsets()[i + 1]; ++p)
      rows[i][g.col_indices()[p]] = static_cast<V>(g.value_at(p));
  return rows;
}

// C = A * B with con(a, b, i, k, j) and agg; the plainest possible loops.
template <class V, class T, class Con, class Agg>
RowMap<V> reference_product(const Csr<T>& A, const Csr<T>& B, Con con, Agg agg) {
  RowMap<V> C(static_cast<size_t>(A.n_rows()));
  for (int64_t i = 0; i < A.n_rows(); ++i)
    for (offset_t p = A.row_offsets()[i]; p < A.row_offsets()[i + 1]; ++p) {
      const index_t k = A.col_indices()[p];
      for (offset_t q = B.row_offsets()[k]; q < B.row_offsets()[k + 1]; ++q) {
        const index_t j = B.col_indices()[q];
        const V x = con(A.value_at(p), B.value_at(q), i, k, j);
        auto [it, fresh] = C[i].emplace(j, x);
        if (!fresh) it->second = agg(it->second, x);
      }
    }
  return C;
}

// Integers (and min/max results) must match exactly; sums of floats to a relative 1e-5.
template <class V>
void expect_same(const RowMap<V>& expected, const RowMap<V>& actual, double tolerance = 0) {
  ASSERT_EQ(expected.size(), actual.size());
  int64_t reported = 0;
  for (size_t i = 0; i < expected.size() && reported < 10; ++i) {
    if (expected[i].size() != actual[i].size()) {
      ADD_FAILURE() << "row " << i << ": expected " << expected[i].size() << " entries, got " << actual[i].size();
      ++reported;
      continue;
    }
    for (const auto& [j, v] : expected[i]) {
      auto it = actual[i].find(j);
      if (it == actual[i].end()) {
        ADD_FAILURE() << "(" << i << ", " << j << ") missing";
        ++reported;
      } else if (tolerance == 0 ? !(it->second == v)
                                : std::abs(double(it->second) - double(v)) > tolerance * std::max(1.0, std::abs(double(v)))) {
        ADD_FAILURE() << "(" << i << ", " << j << "): expected " << v << ", got " << it->second;
        ++reported;
      }
    }
  }
}

}  // namespace gql::e2e
