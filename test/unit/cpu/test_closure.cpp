#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "cpu_test_support.hpp"
#include "gql/cpu/closure.hpp"

namespace {

using gql::Matrix;
using gql::cpu::ClosureOptions;
using gql::cpu::ClosureVariant;

using MaxMin = gql::reference_semirings::MaxMin<int32_t>;
using MaxTimesReliability = gql::test::MaxTimes;  // over probabilities in [0, 1]; 0 = no edge
using gql::test::OrAnd;

// min_plus on int32 with an absorbing "no path" value (no overflow).
struct MinPlusSat : gql::test::PolicyShape<int32_t, int32_t, int32_t, gql::Monoid::min> {
  static constexpr int32_t none = 1 << 29;
  static int32_t con(int32_t a, int32_t b, long long, long long, long long) {
    return a >= none || b >= none ? none : a + b;
  }
  static int32_t agg(int32_t x, int32_t y) { return y < x ? y : x; }
  static int32_t zero() { return none; }
  static int32_t terminal() { return none; }
};

// The textbook triple loop.
template <class S, class T>
void reference_closure(Matrix<T>& D) {
  const int64_t n = D.n_rows();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) D(i, j) = S::agg(D(i, j), S::con(D(i, k), D(k, j), i, k, j));
}

// A random weighted digraph as a dense matrix: `edge` of the entries get weight(rng), others zero().
template <class S, class T, class Weight>
Matrix<T> random_dense(int64_t n, double edge, uint32_t seed, Weight weight) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  Matrix<T> D(n, n, S::zero());
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      if (coin(rng) < edge) D(i, j) = weight(rng);
  return D;
}

std::vector<ClosureOptions> all_variants() {
  std::vector<ClosureOptions> out;
  for (auto variant : {ClosureVariant::tasks, ClosureVariant::parallel_for, ClosureVariant::recursive})
    for (int64_t tile : {int64_t{16}, int64_t{48}})
      out.push_back({variant, tile, tile / 2});
  return out;
}

template <class S, class T, class Weight>
void expect_all_variants_exact(int64_t n, double edge, uint32_t seed, Weight weight) {
  const auto input = random_dense<S, T>(n, edge, seed, weight);
  auto want = input.clone();
  reference_closure<S>(want);
  for (const auto& options : all_variants()) {
    for (int threads : {1, 3}) {
      auto got = input.clone();
      gql::test::with_threads(threads, [&] { gql::cpu::closure<S>(got, options); });
      ASSERT_TRUE(std::equal(got.data().begin(), got.data().end(), want.data().begin()))
          << "variant " << static_cast<int>(options.variant) << ", tile " << options.tile << ", n " << n
          << ", threads " << threads;
    }
  }
}

TEST(Closure, MinPlusIntegersExactInEveryVariant) {
  const auto weight = [](std::mt19937& rng) { return static_cast<int32_t>(rng() % 100 + 1); };
  for (int64_t n : {1, 7, 100, 131}) expect_all_variants_exact<MinPlusSat, int32_t>(n, 0.05, 1, weight);
}

TEST(Closure, MinPlusFloatWithIntegerWeightsExact) {
  const auto weight = [](std::mt19937& rng) { return static_cast<float>(rng() % 50); };
  expect_all_variants_exact<gql::test::MinPlus<float>, float>(97, 0.08, 2, weight);
}

TEST(Closure, TransitiveClosureOrAnd) {
  const auto weight = [](std::mt19937&) { return uint8_t{1}; };
  expect_all_variants_exact<OrAnd, bool>(90, 0.02, 3, weight);
}

TEST(Closure, WidestPathsMaxMin) {
  const auto weight = [](std::mt19937& rng) { return static_cast<int32_t>(rng() % 1000 + 1); };
  expect_all_variants_exact<MaxMin, int32_t>(110, 0.05, 4, weight);
}

TEST(Closure, MaxTimesCloseToReference) {
  const auto weight = [](std::mt19937& rng) { return 0.5 + 0.5 * std::uniform_real_distribution<double>()(rng); };
  const auto input = random_dense<MaxTimesReliability, double>(80, 0.05, 5, weight);
  auto want = input.clone();
  reference_closure<MaxTimesReliability>(want);
  for (const auto& options : all_variants()) {
    auto got = input.clone();
    gql::cpu::closure<MaxTimesReliability>(got, options);
    for (size_t p = 0; p < got.data().size(); ++p)
      ASSERT_NEAR(got.data()[p], want.data()[p], 1e-12) << "variant " << static_cast<int>(options.variant);
  }
}

TEST(Closure, PredecessorsSpellShortestPaths) {
  const auto weight = [](std::mt19937& rng) { return static_cast<int32_t>(rng() % 20 + 1); };
  const int64_t n = 75;
  const auto input = random_dense<MinPlusSat, int32_t>(n, 0.06, 6, weight);
  auto want = input.clone();
  reference_closure<MinPlusSat>(want);
  for (const auto& options : all_variants()) {
    auto got = input.clone();
    auto pred = gql::cpu::initial_predecessors<MinPlusSat>(input);
    gql::cpu::closure<MinPlusSat>(got, options, &pred);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        ASSERT_EQ(got(i, j), want(i, j));
        if (i == j || got(i, j) >= MinPlusSat::none) continue;
        // Walk back from j to i along the predecessors, summing the original edge weights.
        int64_t cost = 0, v = j, steps = 0;
        while (v != i && steps++ <= n) {
          const int32_t u = pred(i, v);
          ASSERT_GE(u, 0) << "no predecessor on the path " << i << " -> " << j;
          ASSERT_LT(input(u, v), MinPlusSat::none) << "predecessor edge missing";
          cost += input(u, v);
          v = u;
        }
        EXPECT_EQ(cost, got(i, j)) << "path " << i << " -> " << j;
      }
  }
}

TEST(Closure, RejectsNonSquare) {
  Matrix<int32_t> D(3, 4, 0);
  EXPECT_THROW(gql::cpu::closure<MinPlusSat>(D), gql::Error);
}

}  // namespace
