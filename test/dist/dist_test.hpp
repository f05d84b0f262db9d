// What the distributed ops' tests share: the run's World (every rank runs every test, and every test
// makes the same collective calls in the same order on every rank, so a failed check never skips
// one: EXPECT, not ASSERT, after the first exchange) and the graphs of the shared data.
#pragma once

#include <gtest/gtest.h>

#if GQL_HAVE_BLAS
#include <cblas.h>
#endif

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>

#include "gql/dist/world.hpp"
#include "gql/graph.hpp"

namespace gql::dist_test {

const dist::World& world();

inline std::string data_graph(const std::string& file) { return std::string(GQL_SHARED_DATA_DIR) + "/graphs/" + file; }
inline bool have_shared_data() { return std::filesystem::exists(data_graph("SOURCES.md")); }

// Equal shapes and arrays, entry for entry (values bit for bit).
template <class T>
void expect_same(const Csr<T>& got, const Csr<T>& want, const std::string& what = "") {
  EXPECT_EQ(got.n_rows(), want.n_rows()) << what;
  EXPECT_EQ(got.n_cols(), want.n_cols()) << what;
  const auto go = got.row_offsets(), wo = want.row_offsets();
  EXPECT_TRUE(std::equal(go.begin(), go.end(), wo.begin(), wo.end())) << what << ": offsets";
  const auto gc = got.col_indices(), wc = want.col_indices();
  EXPECT_TRUE(std::equal(gc.begin(), gc.end(), wc.begin(), wc.end())) << what << ": columns";
  const auto gv = got.values(), wv = want.values();
  EXPECT_TRUE(std::equal(gv.begin(), gv.end(), wv.begin(), wv.end())) << what << ": values";
}
template <class T>
void expect_same(const Vector<T>& got, const Vector<T>& want, const std::string& what = "") {
  EXPECT_EQ(got.size(), want.size()) << what;
  EXPECT_EQ(got.is_dense(), want.is_dense()) << what;
  const auto gi = got.indices(), wi = want.indices();
  EXPECT_TRUE(std::equal(gi.begin(), gi.end(), wi.begin(), wi.end())) << what << ": indices";
  const auto gv = got.values(), wv = want.values();
  EXPECT_TRUE(gv.size() == wv.size() && std::memcmp(gv.data(), wv.data(), gv.size_bytes()) == 0) << what << ": values";
}

// BLAS's threads set for a scope (OpenBLAS; without BLAS the LU's loops give the same bits on any
// number of threads).
class BlasThreads {
 public:
  explicit BlasThreads(int threads) {
#if GQL_HAVE_BLAS
    openblas_set_num_threads(threads);
#endif
    (void)threads;
  }
  ~BlasThreads() {
#if GQL_HAVE_BLAS
    openblas_set_num_threads(before_);
#endif
  }

 private:
#if GQL_HAVE_BLAS
  int before_ = openblas_get_num_threads();
#endif
};

}  // namespace gql::dist_test
