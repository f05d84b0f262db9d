// The distributed LU against the one-process LU, bit for bit where BLAS runs one thread: panels that
// do and do not divide n, more ranks than panels, pivots that swap rows across panels of different
// ranks, float and double; to rounding where OpenBLAS runs several threads (its threaded gemm gives
// an entry other bits when a call holds other columns: the one-process LU differs between one and two
// threads too). A singular matrix and a wrong shape fail on every rank alike.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>

#include "dist_test.hpp"
#include "gql/cpu/lu.hpp"
#include "gql/dist/lu.hpp"
#include "gql/error.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist_test {
namespace {

template <class T>
Matrix<T> random_matrix(int64_t n, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Matrix<T> A(n, n, T{0});
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) A(i, j) = static_cast<T>(value(random));
  return A;
}

template <class T>
void expect_same_factors(const Matrix<T>& A, int64_t tile) {
  const BlasThreads one(1);
  const cpu::LuFactors<T> got = dist::lu(world(), A, tile);
  const cpu::LuFactors<T> want = cpu::lu(A, tile);
  const std::string what = "n " + std::to_string(A.n_rows()) + ", tile " + std::to_string(tile);
  EXPECT_EQ(got.pivots, want.pivots) << what;
  const auto g = got.lu.data(), w = want.lu.data();
  EXPECT_TRUE(g.size() == w.size() && std::memcmp(g.data(), w.data(), g.size() * sizeof(T)) == 0) << what;
}

TEST(DistLu, FactorsEqualOneProcess) {
  for (int64_t n : {1, 5, 64, 127, 128, 129, 300})
    for (int64_t tile : {16, 64, 128}) expect_same_factors(random_matrix<double>(n, 17 + n), tile);
  expect_same_factors(random_matrix<float>(257, 3), 32);
}

TEST(DistLu, SeveralBlasThreadsAgreeToRounding) {
  const BlasThreads two(2);
  const Matrix<double> A = random_matrix<double>(300, 41);
  const cpu::LuFactors<double> got = dist::lu(world(), A, 64);
  const cpu::LuFactors<double> want = cpu::lu(A, 64);
  EXPECT_EQ(got.pivots, want.pivots);
  double worst = 0, largest = 0;
  for (int64_t i = 0; i < 300; ++i)
    for (int64_t j = 0; j < 300; ++j) {
      worst = std::max(worst, std::abs(got.lu(i, j) - want.lu(i, j)));
      largest = std::max(largest, std::abs(want.lu(i, j)));
    }
  EXPECT_LE(worst, 1e-12 * largest);
}

TEST(DistLu, MoreRanksThanPanels) { expect_same_factors(random_matrix<double>(10, 5), 16); }

TEST(DistLu, PivotsSwapRowsAcrossRanksPanels) {
  // Small entries on the diagonal's left, large ones far below: every column pivots on a row of
  // another block, and each swap reaches every rank's panels.
  const int64_t n = 200;
  Matrix<double> A = random_matrix<double>(n, 23);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j <= i && j < n; ++j) A(i, j) *= (i + j) % 3 == 0 ? 1e-3 : 1.0;
  for (int64_t j = 0; j < n; ++j) A(n - 1 - j, j) = 10.0 + static_cast<double>(j);
  expect_same_factors(A, 16);
  // The factors are right, not only alike: P A = L U to rounding.
  const cpu::LuFactors<double> f = dist::lu(world(), A, 16);
  Matrix<double> PA = A.clone();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j) std::swap(PA(k, j), PA(f.pivots[static_cast<size_t>(k)], j));
  double worst = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;
      for (int64_t k = 0; k <= std::min(i, j); ++k) sum += (k == i ? 1.0 : f.lu(i, k)) * f.lu(k, j);
      worst = std::max(worst, std::abs(sum - PA(i, j)));
    }
  EXPECT_LT(worst, 1e-9);
}

TEST(DistLu, SingularMatrixFailsOnEveryRank) {
  // Column 40 (the third panel of 16) holds zeros, and the updates keep them exactly zero.
  Matrix<double> A = random_matrix<double>(70, 9);
  for (int64_t i = 0; i < 70; ++i) A(i, 40) = 0.0;
  try {
    (void)dist::lu(world(), A, 16);
    ADD_FAILURE() << "a singular matrix factored";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::requirement);
    EXPECT_NE(std::string(e.what()).find("singular (no nonzero pivot in column 40)"), std::string::npos) << e.what();
  }
  // The ranks are still in step.
  expect_same_factors(random_matrix<double>(40, 2), 16);
}

TEST(DistLu, NotSquareIsUsageError) {
  const Matrix<double> A(4, 5, 1.0);
  try {
    (void)dist::lu(world(), A, 16);
    ADD_FAILURE() << "a 4 x 5 matrix factored";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
  }
}

TEST(DistLu, KernelOpCountsAndExplains) {
  const Matrix<double> A = random_matrix<double>(90, 4);
  KernelContext ctx;
  Matrix<double> LU;
  Vector<int32_t> pivots;
  dist::lu(world(), LU, pivots, A, cpu::LuOptions{.tile = 32, .label = "k: lu"}, ctx);
  const cpu::LuFactors<double> want = cpu::lu(A, 32);
  EXPECT_EQ(ctx.work().updates, 2 * 90 * 90 * 90 / 3);
  ASSERT_EQ(pivots.size(), 90);
  EXPECT_TRUE(std::equal(want.pivots.begin(), want.pivots.end(), pivots.values().begin()));
  EXPECT_EQ(std::memcmp(LU.data().data(), want.lu.data().data(), 90 * 90 * sizeof(double)), 0);
}

}  // namespace
}  // namespace gql::dist_test
