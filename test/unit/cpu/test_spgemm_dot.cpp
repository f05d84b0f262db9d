// The product driven by the mask (gql/cpu/spgemm_dot.hpp): its ways of joining, symmetric operands,
// degenerate masks, the choice between it and the row-by-row product, and the op. Every semiring
// by the mask is in test_spgemm.cpp's check_all_ways.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "cpu_test_support.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/spgemm_dot.hpp"
#include "gql/cpu/transpose.hpp"

namespace {

using gql::Csr;
using gql::cpu::MaskedMethod;

template <class S, class TA, class TB>
void expect_dot_matches_reference(const Csr<TA>& A, const Csr<TB>& B, const Csr<TB>& Bt, const Csr<bool>& mask) {
  for (int threads : {1, 3}) {
    gql::test::with_threads(threads, [&] {
      gql::cpu::SpgemmStats stats;
      const auto C = gql::cpu::masked_dot_product<S>(A, B, Bt, gql::cpu::structural_mask(mask), {}, &stats);
      gql::test::expect_same_entries(C, gql::test::reference_product<S>(A, B, &mask, false));
      EXPECT_EQ(stats.nvals, C.nvals());
    });
  }
}

// A + A' with values that agree across the diagonal, marked symmetric as a reader asked to symmetrize does.
template <class T>
Csr<T> symmetric_csr(int64_t n, double density, uint32_t seed) {
  std::map<std::pair<int64_t, int64_t>, T> entries;
  for (const auto& [key, v] : gql::test::to_map(gql::test::random_csr<T>(n, n, density, seed))) {
    entries[key] = v;
    entries[{key.second, key.first}] = v;
  }
  gql::Array<gql::offset_t> offsets(static_cast<size_t>(n) + 1, 0);
  gql::Array<gql::index_t> cols;
  gql::Array<gql::storage_t<T>> values;
  for (const auto& [key, v] : entries) {
    ++offsets[static_cast<size_t>(key.first) + 1];
    cols.push_back(static_cast<gql::index_t>(key.second));
    if constexpr (gql::stores_values<T>) values.push_back(static_cast<gql::storage_t<T>>(v));
  }
  for (int64_t i = 0; i < n; ++i) offsets[static_cast<size_t>(i) + 1] += offsets[static_cast<size_t>(i)];
  Csr<T> g(n, n, std::move(offsets), std::move(cols), std::move(values));
  g.derived().mark_symmetric();
  return g;
}

// Every way of joining: a column no longer than A's row tested against the row's bitmap, A's row
// tested against a long column's bitmap (random_csr makes its first rows dense: over 64 entries),
// the search of a short list in a long one, the merge of alike ones. A full mask reaches them all.
TEST(MaskedDot, EveryWayOfJoiningGivesTheSameEntries) {
  const auto A = gql::test::random_csr<int32_t>(200, 200, 0.02, 24, 6);
  EXPECT_EQ(gql::cpu::entry_steps(9, 4, false), 4);      // the column against A's row's bitmap
  EXPECT_EQ(gql::cpu::entry_steps(3, 140, true), 3);     // A's row against the column's bitmap
  EXPECT_LT(gql::cpu::entry_steps(3, 60, false), 3 + 60);  // the search
  EXPECT_EQ(gql::cpu::entry_steps(5, 7, false), 5 + 7);    // the merge
  const auto every = gql::test::random_csr<bool>(200, 200, 1.0, 25, 0);
  expect_dot_matches_reference<gql::test::PlusTimes<int32_t>>(A, A, gql::cpu::transpose(A), every);
}

TEST(MaskedDot, SymmetricOperandIsItsOwnTranspose) {
  const auto G = symmetric_csr<int32_t>(70, 0.06, 26);
  const auto mask = gql::test::random_csr<bool>(70, 70, 0.2, 27, 1);
  expect_dot_matches_reference<gql::test::PlusTimes<int32_t>>(G, G, G, mask);
  EXPECT_EQ(&gql::cpu::transpose_of(G), &G);
}

TEST(MaskedDot, EmptyMaskRowsAndOperands) {
  const Csr<bool> none(6, 6);
  const auto mask = gql::test::random_csr<bool>(6, 6, 0.5, 28, 0);
  EXPECT_EQ(gql::cpu::masked_dot_product<gql::test::Paths>(none, none, none, gql::cpu::structural_mask(mask)).nvals(), 0);
  const auto A = gql::test::random_csr<bool>(6, 6, 0.5, 29, 0);
  const Csr<bool> no_mask(6, 6);
  EXPECT_EQ(gql::cpu::masked_dot_product<gql::test::Paths>(A, A, A, gql::cpu::structural_mask(no_mask)).nvals(), 0);
}

TEST(MaskedDot, RefusesMasksItCannotWalk) {
  const auto A = gql::test::random_csr<bool>(8, 8, 0.3, 30);
  EXPECT_THROW(gql::cpu::masked_dot_product<gql::test::Paths>(A, A, A, gql::cpu::MatrixMask{}), gql::Error);
  EXPECT_THROW(gql::cpu::masked_dot_product<gql::test::Paths>(A, A, A, gql::cpu::structural_mask(A, true)), gql::Error);
  const auto wrong = gql::test::random_csr<bool>(7, 8, 0.3, 31);
  EXPECT_THROW(gql::cpu::masked_dot_product<gql::test::Paths>(A, A, A, gql::cpu::structural_mask(wrong)), gql::Error);
}

TEST(MaskedChoice, BySparseMaskTheDotAndByDenseMaskTheRows) {
  // Dense operands and a mask of a few entries: joining those beats forming every product.
  const auto A = gql::test::random_csr<bool>(200, 200, 0.3, 32);
  const auto few = gql::test::random_csr<bool>(200, 200, 0.002, 33, 0);
  const auto c = gql::cpu::choose_masked_method(A, A, gql::cpu::structural_mask(few), MaskedMethod::automatic);
  EXPECT_EQ(c.method, MaskedMethod::dot) << c.reason;
  EXPECT_LT(c.dot_steps, c.saxpy_products);
  // Very sparse operands under a full mask: the rows' few products win.
  const auto S = gql::test::random_csr<bool>(200, 200, 0.005, 34, 0);
  const auto all = gql::test::random_csr<bool>(200, 200, 1.0, 35, 0);
  const auto d = gql::cpu::choose_masked_method(S, S, gql::cpu::structural_mask(all), MaskedMethod::automatic);
  EXPECT_EQ(d.method, MaskedMethod::saxpy) << d.reason;
}

TEST(MaskedChoice, ScheduleForcesAndMasksThatCannotBeWalkedRunByRows) {
  const auto A = gql::test::random_csr<bool>(50, 50, 0.1, 36);
  const auto m = gql::cpu::structural_mask(A);
  EXPECT_EQ(gql::cpu::choose_masked_method(A, A, m, MaskedMethod::dot).method, MaskedMethod::dot);
  EXPECT_EQ(gql::cpu::choose_masked_method(A, A, m, MaskedMethod::saxpy).method, MaskedMethod::saxpy);
  const auto complemented = gql::cpu::choose_masked_method(A, A, gql::cpu::structural_mask(A, true), MaskedMethod::dot);
  EXPECT_EQ(complemented.method, MaskedMethod::saxpy);
  EXPECT_NE(complemented.reason.find("complemented"), std::string::npos);
  EXPECT_EQ(gql::cpu::choose_masked_method(A, A, gql::cpu::MatrixMask{}, MaskedMethod::dot).method, MaskedMethod::saxpy);
}

// The op generated code calls: every method gives the same C, with replace and with merge into C's
// old entries, and --explain names the method that ran.
TEST(MaskedDot, MxmOpGivesOneAnswerUnderEveryMethod) {
  using S = gql::test::PlusTimes<int32_t>;
  const auto A = gql::test::random_csr<int32_t>(80, 80, 0.08, 37);
  const auto mask = gql::test::random_csr<bool>(80, 80, 0.05, 38, 0);
  const auto old = gql::test::random_csr<int32_t>(80, 80, 0.1, 39, 0);
  for (bool replace : {true, false}) {
    std::map<std::pair<int64_t, int64_t>, int32_t> first;
    for (MaskedMethod method : {MaskedMethod::saxpy, MaskedMethod::dot, MaskedMethod::automatic}) {
      Csr<int32_t> C = old.clone();
      gql::KernelContext ctx(true);
      gql::cpu::ProductOptions options{gql::cpu::Accumulator::automatic, 0, "t", method};
      gql::cpu::mxm<S>(C, gql::cpu::mask(mask, false), replace, A, A, options, ctx);
      ASSERT_EQ(ctx.plan().size(), 1u);
      if (method != MaskedMethod::automatic) {
        EXPECT_NE(ctx.plan()[0].find(method == MaskedMethod::dot ? "(dot" : "(saxpy"), std::string::npos) << ctx.plan()[0];
      }
      const auto got = gql::test::to_map(C);
      if (first.empty()) first = got;
      EXPECT_EQ(got, first) << "replace " << replace;
    }
  }
}

}  // namespace
