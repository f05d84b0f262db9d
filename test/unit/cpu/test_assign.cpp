#include <gtest/gtest.h>

#include "cpu_test_support.hpp"
#include "gql/cpu/assign.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/vector_assign.hpp"

#include <random>

namespace {

using Key = std::pair<int64_t, int64_t>;

// GraphBLAS C<M, replace> = Z without accumulator, entry by entry.
std::map<Key, int32_t> reference_assign(const gql::Csr<int32_t>& C, const gql::Csr<int32_t>& Z,
                                        const gql::Csr<bool>& M, bool complement, bool replace) {
  const auto c = gql::test::to_map(C), z = gql::test::to_map(Z);
  const auto m = gql::test::to_map(M);
  std::map<Key, int32_t> out;
  for (int64_t i = 0; i < C.n_rows(); ++i)
    for (int64_t j = 0; j < C.n_cols(); ++j) {
      const bool allowed = m.contains({i, j}) != complement;
      const auto& source = allowed ? z : c;
      if (!allowed && replace) continue;
      if (const auto it = source.find({i, j}); it != source.end()) out[{i, j}] = it->second;
    }
  return out;
}

TEST(MaskedAssign, FollowsGraphBlasMaskAndReplace) {
  const auto C = gql::test::random_csr<int32_t>(40, 30, 0.3, 1);
  const auto Z = gql::test::random_csr<int32_t>(40, 30, 0.3, 2);
  const auto M = gql::test::random_csr<bool>(40, 30, 0.4, 3);
  for (bool complement : {false, true})
    for (bool replace : {false, true}) {
      const auto got = gql::cpu::masked_assign(C, Z, gql::cpu::structural_mask(M, complement), replace);
      ASSERT_NO_THROW(got.validate());
      EXPECT_EQ(gql::test::to_map(got), reference_assign(C, Z, M, complement, replace))
          << "complement " << complement << ", replace " << replace;
    }
}

TEST(MaskedAssign, NoMaskCopiesTheResult) {
  const auto C = gql::test::random_csr<int32_t>(10, 10, 0.3, 4);
  const auto Z = gql::test::random_csr<int32_t>(10, 10, 0.3, 5);
  EXPECT_EQ(gql::test::to_map(gql::cpu::masked_assign(C, Z, {}, true)), gql::test::to_map(Z));
}

TEST(MaskedAssign, PatternGraphs) {
  const auto C = gql::test::random_csr<bool>(20, 20, 0.3, 6);
  const auto Z = gql::test::random_csr<bool>(20, 20, 0.3, 7);
  const auto M = gql::test::random_csr<bool>(20, 20, 0.3, 8);
  const auto got = gql::cpu::masked_assign(C, Z, gql::cpu::structural_mask(M), false);
  const auto c = gql::test::to_map(C), z = gql::test::to_map(Z), m = gql::test::to_map(M);
  for (int64_t i = 0; i < 20; ++i)
    for (int64_t j = 0; j < 20; ++j) {
      const bool want = m.contains({i, j}) ? z.contains({i, j}) : c.contains({i, j});
      EXPECT_EQ(gql::test::to_map(got).contains({i, j}), want);
    }
}

TEST(MaskedAssign, RejectsShapeMismatch) {
  const auto C = gql::test::random_csr<int32_t>(4, 4, 0.5, 9);
  const auto Z = gql::test::random_csr<int32_t>(4, 5, 0.5, 10);
  EXPECT_THROW(gql::cpu::masked_assign(C, Z, {}, false), gql::Error);
}

// w[i] = x on sparse and dense vectors, in random order with repeats, against a map; the vector
// stays valid (sorted unique indices) and holds exactly the last value stored at each index.
TEST(SetElement, SparseAndDenseVectorsHoldTheLastStore) {
  std::mt19937 rng(7);
  for (const bool dense : {false, true}) {
    SCOPED_TRACE(dense ? "dense" : "sparse");
    const int64_t n = 1000;
    auto w = dense ? gql::Vector<int32_t>::dense(n, -1) : gql::Vector<int32_t>(n);
    std::map<int64_t, int32_t> want;
    if (dense)
      for (int64_t i = 0; i < n; ++i) want[i] = -1;
    for (int k = 0; k < 3000; ++k) {
      const int64_t i = static_cast<int64_t>(rng() % (k < 1500 ? 50 : n));  // many repeats first
      const auto x = static_cast<int32_t>(rng() % 1000);
      gql::cpu::set_element(w, i, x);
      want[i] = x;
    }
    ASSERT_NO_THROW(w.validate());
    ASSERT_EQ(w.nvals(), static_cast<int64_t>(want.size()));
    std::map<int64_t, int32_t> got;
    if (w.is_dense()) {
      for (int64_t i = 0; i < n; ++i) got[i] = w.values()[static_cast<size_t>(i)];
    } else {
      for (size_t p = 0; p < w.indices().size(); ++p) got[w.indices()[p]] = w.values()[p];
    }
    EXPECT_EQ(got, want);
  }
  gql::Vector<int32_t> w(5);
  EXPECT_THROW(gql::cpu::set_element(w, 5, 1), gql::Error);
  EXPECT_THROW(gql::cpu::set_element(w, -1, 1), gql::Error);
}

// C(i, j) = x on a graph, in random order with repeats, against a map: the graph stays valid, holds
// every entry it had and the last value stored at each (i, j); a pattern graph gains the positions.
TEST(SetElement, GraphsHoldTheirEntriesAndTheLastStore) {
  std::mt19937 rng(11);
  auto C = gql::test::random_csr<int32_t>(60, 45, 0.1, 5);
  auto P = gql::test::random_csr<bool>(60, 45, 0.1, 6);
  auto want = gql::test::to_map(C);
  auto want_pattern = gql::test::to_map(P);
  for (int k = 0; k < 2000; ++k) {
    const int64_t i = static_cast<int64_t>(rng() % 60), j = static_cast<int64_t>(rng() % 45);
    const auto x = static_cast<int32_t>(rng() % 1000);
    gql::cpu::set_element(C, i, j, x);
    gql::cpu::set_element(P, i, j, true);
    want[{i, j}] = x;
    want_pattern[{i, j}] = true;
  }
  ASSERT_NO_THROW(C.validate());
  ASSERT_NO_THROW(P.validate());
  EXPECT_EQ(gql::test::to_map(C), want);
  EXPECT_EQ(gql::test::to_map(P), want_pattern);
  EXPECT_THROW(gql::cpu::set_element(C, 60, 0, 1), gql::Error);
  EXPECT_THROW(gql::cpu::set_element(C, 0, -1, 1), gql::Error);
}

}  // namespace
