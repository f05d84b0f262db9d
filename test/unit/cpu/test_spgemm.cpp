#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include "cpu_test_support.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/cpu/spgemm_dot.hpp"
#include "gql/cpu/transpose.hpp"

namespace {

using gql::Csr;
using gql::cpu::Accumulator;
using gql::cpu::MatrixMask;
using gql::cpu::SpgemmOptions;
using Key = std::pair<int64_t, int64_t>;

template <class S, class TA, class TB>
void expect_matches_reference(const Csr<TA>& A, const Csr<TB>& B, const Csr<bool>* mask, bool complement,
                              const SpgemmOptions& options) {
  const MatrixMask m = mask ? gql::cpu::structural_mask(*mask, complement) : MatrixMask{};
  gql::cpu::SpgemmStats stats;
  const auto start = std::chrono::steady_clock::now();
  const auto C = gql::cpu::spgemm<S>(A, B, m, options, &stats);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_NO_THROW(C.validate());
  // The phase timers split the call's time: none negative, together no more than the call took.
  for (double phase : {stats.seconds_bounds, stats.seconds_symbolic, stats.seconds_allocate, stats.seconds_numeric})
    EXPECT_GE(phase, 0.0);
  EXPECT_LE(stats.seconds_bounds + stats.seconds_symbolic + stats.seconds_allocate + stats.seconds_numeric, elapsed);
  gql::test::expect_same_entries(C, gql::test::reference_product<S>(A, B, mask, complement));
  EXPECT_EQ(stats.nvals, C.nvals());
}

// Every accumulator policy and a few thread counts, with no mask, a mask and its complement; and by
// the mask's entries.
template <class S, class TA, class TB>
void check_all_ways(const Csr<TA>& A, const Csr<TB>& B, uint32_t seed) {
  const auto mask = gql::test::random_csr<bool>(A.n_rows(), B.n_cols(), 0.3, seed + 1, 1);
  for (Accumulator acc : {Accumulator::dense, Accumulator::hash, Accumulator::automatic}) {
    for (int threads : {1, 3}) {
      SpgemmOptions options;
      options.accumulator = acc;
      options.hash_fraction = 0.25;
      options.chunks_per_thread = 5;
      gql::test::with_threads(threads, [&] {
        SCOPED_TRACE(testing::Message() << "accumulator " << static_cast<int>(acc) << ", threads " << threads);
        expect_matches_reference<S>(A, B, nullptr, false, options);
        expect_matches_reference<S>(A, B, &mask, false, options);
        expect_matches_reference<S>(A, B, &mask, true, options);
      });
    }
  }
  // The same product by the mask's entries (spgemm_dot.hpp), B read through its transpose.
  const auto Bt = gql::cpu::transpose(B);
  for (int threads : {1, 3}) {
    gql::test::with_threads(threads, [&] {
      SCOPED_TRACE(testing::Message() << "by the mask, threads " << threads);
      const auto C = gql::cpu::masked_dot_product<S>(A, B, Bt, gql::cpu::structural_mask(mask));
      gql::test::expect_same_entries(C, gql::test::reference_product<S>(A, B, &mask, false));
    });
  }
}

TEST(Spgemm, PathsCountOnPatternGraphs) {
  const auto A = gql::test::random_csr<bool>(70, 60, 0.08, 1);
  const auto B = gql::test::random_csr<bool>(60, 90, 0.1, 2);
  check_all_ways<gql::test::Paths>(A, B, 3);
}

TEST(Spgemm, MinPlusFloatAndInt) {
  const auto Af = gql::test::random_csr<float>(50, 50, 0.1, 4);
  const auto Bf = gql::test::random_csr<float>(50, 50, 0.1, 5);
  check_all_ways<gql::test::MinPlus<float>>(Af, Bf, 6);
  const auto Ai = gql::test::random_csr<int32_t>(80, 40, 0.05, 7);
  const auto Bi = gql::test::random_csr<int32_t>(40, 80, 0.2, 8);
  check_all_ways<gql::test::MinPlus<int32_t>>(Ai, Bi, 9);
}

TEST(Spgemm, MaxMinWithTerminalEarlyExit) {
  const auto A = gql::test::random_csr<int32_t>(60, 60, 0.15, 10);
  const auto B = gql::test::random_csr<int32_t>(60, 60, 0.15, 11);
  check_all_ways<gql::test::MaxMinCapped>(A, B, 12);
}

TEST(Spgemm, MaxTimesDouble) {
  const auto A = gql::test::random_csr<double>(40, 70, 0.1, 13);
  const auto B = gql::test::random_csr<double>(70, 30, 0.1, 14);
  check_all_ways<gql::test::MaxTimes>(A, B, 15);
}

TEST(Spgemm, AnyPairGivesThePatternOfTheProduct) {
  const auto A = gql::test::random_csr<bool>(90, 90, 0.05, 16);
  check_all_ways<gql::test::AnyPair>(A, A, 17);
}

TEST(Spgemm, OrAndDropsFalseEntriesOfABooleanResult) {
  const auto A = gql::test::random_csr<int32_t>(50, 50, 0.1, 18);
  const auto B = gql::test::random_csr<int32_t>(50, 50, 0.1, 19);
  check_all_ways<gql::test::OrAnd>(A, B, 20);
}

TEST(Spgemm, PositionalConSeesIKJ) {
  const auto A = gql::test::random_csr<bool>(30, 40, 0.1, 21);
  const auto B = gql::test::random_csr<bool>(40, 50, 0.1, 22);
  check_all_ways<gql::test::MinPosition>(A, B, 23);
}

TEST(Spgemm, UserMonoid) {
  const auto A = gql::test::random_csr<int32_t>(40, 40, 0.2, 24);
  const auto B = gql::test::random_csr<int32_t>(40, 40, 0.2, 25);
  check_all_ways<gql::test::UserMod7>(A, B, 26);
}

TEST(Spgemm, MixedOperandTypesConvert) {
  // A pattern graph times an int graph under paths-with-values: the pattern's entries read as 1.
  const auto A = gql::test::random_csr<bool>(40, 40, 0.1, 27);
  const auto B = gql::test::random_csr<int32_t>(40, 40, 0.1, 28);
  check_all_ways<gql::test::MinPlus<int32_t>>(A, B, 29);
}

TEST(Spgemm, EmptyAndDegenerateShapes) {
  const Csr<bool> empty(0, 0);
  EXPECT_EQ(gql::cpu::spgemm<gql::test::Paths>(empty, empty).nvals(), 0);
  const Csr<bool> no_edges(5, 7);
  const auto B = gql::test::random_csr<bool>(7, 3, 0.5, 30);
  const auto C = gql::cpu::spgemm<gql::test::Paths>(no_edges, B);
  EXPECT_EQ(C.n_rows(), 5);
  EXPECT_EQ(C.n_cols(), 3);
  EXPECT_EQ(C.nvals(), 0);
}

TEST(Spgemm, RejectsMismatchedShapes) {
  const auto A = gql::test::random_csr<bool>(4, 5, 0.5, 31);
  EXPECT_THROW(gql::cpu::spgemm<gql::test::Paths>(A, A), gql::Error);
  const auto B = gql::test::random_csr<bool>(5, 4, 0.5, 32);
  const auto wrong_mask = gql::test::random_csr<bool>(3, 4, 0.5, 33);
  EXPECT_THROW(gql::cpu::spgemm<gql::test::Paths>(A, B, gql::cpu::structural_mask(wrong_mask)), gql::Error);
}

TEST(Spgemm, StatsCountProductsAndRowClasses) {
  const auto A = gql::test::random_csr<bool>(60, 60, 0.05, 34);
  gql::cpu::SpgemmStats stats;
  const auto C = gql::cpu::spgemm<gql::test::Paths>(A, A, {}, {}, &stats);
  int64_t products = 0;
  for (const auto& [ik, v] : gql::test::to_map(A)) products += A.row_degree(ik.second);
  EXPECT_EQ(stats.products, products);
  // Every nonempty product is the sum of the counts.
  uint64_t total = 0;
  for (auto x : C.values()) total += x;
  EXPECT_EQ(static_cast<int64_t>(total), products);
  EXPECT_GT(stats.rows_dense + stats.rows_hash, 0);
}

// Semirings whose con is a constant (reads neither operands nor positions): the product takes its
// shortcuts (c for an idempotent monoid, c * p for an integer sum, nothing for a false pattern).
template <class V, gql::Monoid M, long long c>
struct ConstantCon {
  using a_type = int32_t;
  using b_type = bool;
  using value_type = V;
  static constexpr gql::Monoid monoid = M;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static V con(int32_t, bool, long long, long long, long long) { return static_cast<V>(c); }
  static V agg(V x, V y) {
    if constexpr (M == gql::Monoid::min) return y < x ? y : x;
    else if constexpr (M == gql::Monoid::lor) return x || y;
    else return static_cast<V>(x + y);
  }
  static V zero() {
    if constexpr (M == gql::Monoid::min) return std::numeric_limits<V>::max();
    else return V{};
  }
  static V terminal() { return zero(); }
};

TEST(Spgemm, ConstantConIdempotentGivesTheConstant) {
  const auto A = gql::test::random_csr<int32_t>(70, 50, 0.08, 35);
  const auto B = gql::test::random_csr<bool>(50, 80, 0.1, 36);
  check_all_ways<ConstantCon<int32_t, gql::Monoid::min, 7>>(A, B, 37);
}

TEST(Spgemm, ConstantConSignedSumIsConstantTimesPaths) {
  const auto A = gql::test::random_csr<int32_t>(60, 60, 0.1, 38);
  const auto B = gql::test::random_csr<bool>(60, 60, 0.12, 39);
  check_all_ways<ConstantCon<int64_t, gql::Monoid::sum, -3>>(A, B, 40);
}

TEST(Spgemm, ConstantConPatternTrueAndFalse) {
  const auto A = gql::test::random_csr<int32_t>(50, 50, 0.1, 41);
  const auto B = gql::test::random_csr<bool>(50, 50, 0.1, 42);
  check_all_ways<ConstantCon<bool, gql::Monoid::lor, 1>>(A, B, 43);
  check_all_ways<ConstantCon<bool, gql::Monoid::lor, 0>>(A, B, 44);
  EXPECT_EQ((gql::cpu::spgemm<ConstantCon<bool, gql::Monoid::lor, 0>>(A, B).nvals()), 0);
}

TEST(Spgemm, DenseRowsOfBCountedByBitmap) {
  // B's first rows hold about 210 of 300 columns: the symbolic phase takes them as bitmaps.
  const auto A = gql::test::random_csr<bool>(120, 300, 0.03, 45);
  const auto B = gql::test::random_csr<bool>(300, 300, 0.02, 46, 5);
  check_all_ways<gql::test::Paths>(A, B, 47);
  check_all_ways<gql::test::AnyPair>(A, B, 48);
  check_all_ways<ConstantCon<int32_t, gql::Monoid::min, 7>>(gql::test::random_csr<int32_t>(120, 300, 0.03, 49), B, 50);
}

TEST(Spgemm, CountsOfManyDenseRowsOfB) {
  // B's rows hold about 100 of 700 columns, so the counting product adds them whole (bit-sliced);
  // A's first rows reach about 490 of them, more than the bit-sliced counters hold at once, the
  // others about 14.
  const auto A = gql::test::random_csr<bool>(40, 700, 0.02, 52, 3);
  const auto B = gql::test::random_csr<bool>(700, 700, 0.15, 53, 0);
  for (int threads : {1, 3}) {
    gql::test::with_threads(threads, [&] {
      SCOPED_TRACE(testing::Message() << "threads " << threads);
      expect_matches_reference<gql::test::Paths>(A, B, nullptr, false, {});
    });
  }
}

// A (1 x width) times B (width x 3): A's row is full; B's row k holds column 0, column 1 when k is
// even and column 2 when k is a multiple of 3. C's entry (0, 0) is reached by width products.
std::pair<Csr<bool>, Csr<bool>> wide_count_operands(int64_t width) {
  gql::Array<gql::offset_t> a_off{0, width};
  gql::Array<gql::index_t> a_col(static_cast<size_t>(width));
  for (int64_t k = 0; k < width; ++k) a_col[static_cast<size_t>(k)] = static_cast<gql::index_t>(k);
  gql::Array<gql::offset_t> b_off{0};
  gql::Array<gql::index_t> b_col;
  for (int64_t k = 0; k < width; ++k) {
    b_col.push_back(0);
    if (k % 2 == 0) b_col.push_back(1);
    if (k % 3 == 0) b_col.push_back(2);
    b_off.push_back(static_cast<gql::offset_t>(b_col.size()));
  }
  return {Csr<bool>(1, width, std::move(a_off), std::move(a_col)), Csr<bool>(width, 3, std::move(b_off), std::move(b_col))};
}

TEST(Spgemm, PathCountsOfOneEntryPastSixteenBits) {
  // An entry reached by 65535, 65536 and 70001 products: exact (a 16-bit counter would wrap).
  for (int64_t width : {int64_t{65535}, int64_t{65536}, int64_t{70001}}) {
    const auto [A, B] = wide_count_operands(width);
    for (Accumulator acc : {Accumulator::dense, Accumulator::hash, Accumulator::automatic}) {
      SCOPED_TRACE(testing::Message() << "width " << width << ", accumulator " << static_cast<int>(acc));
      SpgemmOptions options;
      options.accumulator = acc;
      expect_matches_reference<gql::test::Paths>(A, B, nullptr, false, options);
      const auto C = gql::cpu::spgemm<gql::test::Paths>(A, B, {}, options);
      ASSERT_EQ(C.nvals(), 3);
      EXPECT_EQ(C.values()[0], static_cast<uint64_t>(width));
    }
  }
}

TEST(Spgemm, LargeOutputLeftUninitializedIsWrittenWhole) {
  // About 4.9 M entries in arrays left uninitialized (gql/array.hpp): every entry must be written by
  // its row, on one thread or several.
  const int64_t n = 2300;
  const auto A = gql::test::random_csr<bool>(n, n, 0.05, 51);
  std::vector<uint64_t> want(static_cast<size_t>(n * n), 0);  // the counts, row-major
  int64_t want_nvals = 0;
  const auto off = A.row_offsets();
  const auto col = A.col_indices();
  for (int64_t i = 0; i < n; ++i)
    for (auto p = off[static_cast<size_t>(i)]; p < off[static_cast<size_t>(i) + 1]; ++p) {
      const int64_t k = col[static_cast<size_t>(p)];
      for (auto q = off[static_cast<size_t>(k)]; q < off[static_cast<size_t>(k) + 1]; ++q)
        want_nvals += want[static_cast<size_t>(i * n + col[static_cast<size_t>(q)])]++ == 0 ? 1 : 0;
    }
  ASSERT_GT(want_nvals, int64_t{4} << 20);
  for (int threads : {1, 3}) {
    gql::test::with_threads(threads, [&] {
      SCOPED_TRACE(testing::Message() << "threads " << threads);
      const auto C = gql::cpu::spgemm<gql::test::Paths>(A, A);
      ASSERT_NO_THROW(C.validate());
      ASSERT_EQ(C.nvals(), want_nvals);
      const auto c_off = C.row_offsets();
      for (int64_t i = 0; i < n; ++i)
        for (auto p = c_off[static_cast<size_t>(i)]; p < c_off[static_cast<size_t>(i) + 1]; ++p)
          ASSERT_EQ(C.values()[static_cast<size_t>(p)],
                    want[static_cast<size_t>(i * n + C.col_indices()[static_cast<size_t>(p)])])
              << "at (" << i << ", " << C.col_indices()[static_cast<size_t>(p)] << ")";
    });
  }
}

}  // namespace
