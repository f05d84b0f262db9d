// tril / triu (gql/cpu/elementwise.hpp) against a filter of the entries written out in the test.
#include <gtest/gtest.h>

#include <limits>

#include "cpu_test_support.hpp"
#include "gql/cpu/elementwise.hpp"

namespace {

using gql::cpu::Triangle;

template <class T>
void expect_band(const gql::Csr<T>& A, Triangle part, int64_t k) {
  auto want = gql::test::to_map(A);
  std::erase_if(want, [&](const auto& e) {
    const int64_t d = e.first.second - e.first.first;  // j - i
    return part == Triangle::lower ? d > k : d < k;
  });
  const auto got = gql::cpu::triangle(A, part, k);
  ASSERT_NO_THROW(got.validate());
  EXPECT_EQ(got.n_rows(), A.n_rows());
  EXPECT_EQ(got.n_cols(), A.n_cols());
  EXPECT_EQ(gql::test::to_map(got), want) << (part == Triangle::lower ? "tril " : "triu ") << k;
}

TEST(Triangle, EveryDiagonalOfSquareAndRectangularGraphs) {
  const auto square = gql::test::random_csr<int32_t>(40, 40, 0.2, 1);
  const auto wide = gql::test::random_csr<int32_t>(20, 50, 0.2, 2);
  const auto tall = gql::test::random_csr<bool>(50, 20, 0.2, 3);
  for (int64_t k : {int64_t{-60}, int64_t{-3}, int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2}, int64_t{60},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    for (Triangle part : {Triangle::lower, Triangle::upper}) {
      expect_band(square, part, k);
      expect_band(wide, part, k);
      expect_band(tall, part, k);
    }
  }
}

TEST(Triangle, StrictHalvesOfASymmetricGraphSplitItsOffDiagonalEntries) {
  const auto A = gql::test::random_csr<bool>(30, 30, 0.3, 4);
  const auto lower = gql::cpu::triangle(A, Triangle::lower, -1);
  const auto upper = gql::cpu::triangle(A, Triangle::upper, 1);
  const auto diagonal = gql::cpu::triangle(gql::cpu::triangle(A, Triangle::lower, 0), Triangle::upper, 0);
  EXPECT_EQ(lower.nvals() + upper.nvals() + diagonal.nvals(), A.nvals());
}

}  // namespace
