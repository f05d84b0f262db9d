#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gql/cpu/lu.hpp"

namespace {

// ||P A - L U||_F / ||A||_F computed directly from the packed factors.
template <class T>
double relative_residual(const gql::Matrix<T>& A, const gql::cpu::LuFactors<T>& f) {
  const int64_t n = A.n_rows();
  auto pa = A.clone();
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) std::swap(pa(i, j), pa(f.pivots[static_cast<size_t>(i)], j));
  double num = 0, den = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t k = 0; k <= std::min(i, j); ++k) s += (k == i ? 1.0 : static_cast<double>(f.lu(i, k))) * f.lu(k, j);
      num += (pa(i, j) - s) * (pa(i, j) - s);
      den += static_cast<double>(A(i, j)) * A(i, j);
    }
  return std::sqrt(num / den);
}

template <class T>
gql::Matrix<T> random_matrix(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  gql::Matrix<T> A(n, n);
  for (auto& x : A.data()) x = static_cast<T>(u(rng));
  return A;
}

TEST(Lu, DoubleResidualSmallAcrossTiles) {
  for (int64_t n : {1, 5, 64, 133})
    for (int64_t tile : {1, 16, 200}) {
      const auto A = random_matrix<double>(n, static_cast<uint32_t>(n + tile));
      const auto f = gql::cpu::lu(A, tile);
      EXPECT_LT(relative_residual(A, f), 1e-13) << "n " << n << ", tile " << tile;
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_GE(f.pivots[static_cast<size_t>(i)], i);
        EXPECT_LT(f.pivots[static_cast<size_t>(i)], n);
      }
    }
}

TEST(Lu, FloatUsesGemmAndStaysAccurate) {
  const auto A = random_matrix<float>(150, 7);
  EXPECT_LT(relative_residual(A, gql::cpu::lu(A, 32)), 1e-5);
}

TEST(Lu, LongDoubleTakesTheTiledLoop) {
  const auto A = random_matrix<long double>(90, 8);
  EXPECT_LT(relative_residual(A, gql::cpu::lu(A, 16)), 1e-15);
}

TEST(Lu, PivotsRowsWithLargerEntries) {
  // The first column's largest entry is in row 2: it must become the first pivot.
  gql::Matrix<double> A(3, 3, gql::Array<double>{1, 2, 3, 4, 5, 6, 10, 8, 10});
  const auto f = gql::cpu::lu(A, 2);
  EXPECT_EQ(f.pivots[0], 2);
  EXPECT_LT(relative_residual(A, f), 1e-15);
}

TEST(Lu, SingularMatrixIsAnError) {
  gql::Matrix<double> A(3, 3, gql::Array<double>{1, 2, 3, 2, 4, 6, 1, 1, 1});
  try {
    gql::cpu::lu(A, 2);
    FAIL() << "a singular matrix was factored";
  } catch (const gql::Error& e) {
    EXPECT_EQ(e.kind(), gql::ErrorKind::requirement);  // the matrix's values, not the call, are wrong
    EXPECT_NE(std::string(e.what()).find("singular"), std::string::npos);
  }
}

}  // namespace
