// union, intersect and apply on vectors against their definitions, entry by entry, for every pairing
// of dense, sparse, full (every index stored sparse) and empty operands, large enough for the
// parallel paths; a result with every index is stored dense.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"
#include "gql/cpu/elementwise.hpp"

namespace {

using gql::Vector;
using gql::index_t;

constexpr int64_t n = 100000;  // above the parallel grain

using gql::test::entries;

template <class T, class Keep>
Vector<T> sparse_where(Keep&& keep, T scale) {
  gql::Array<index_t> idx;
  gql::Array<T> val;
  for (int64_t k = 0; k < n; ++k)
    if (keep(k)) {
      idx.push_back(static_cast<index_t>(k));
      val.push_back(static_cast<T>(k % 1000) * scale);
    }
  return Vector<T>::sparse(n, std::move(idx), std::move(val));
}

template <class T>
std::vector<std::pair<std::string, Vector<T>>> operands(T scale) {
  std::vector<std::pair<std::string, Vector<T>>> out;
  out.emplace_back("dense", Vector<T>::dense(n, static_cast<T>(3) * scale));
  out.emplace_back("every third", sparse_where<T>([](int64_t k) { return k % 3 == 0; }, scale));
  out.emplace_back("every fifth", sparse_where<T>([](int64_t k) { return k % 5 == 2; }, scale));
  out.emplace_back("full", sparse_where<T>([](int64_t) { return true; }, scale));
  out.emplace_back("empty", sparse_where<T>([](int64_t) { return false; }, scale));
  return out;
}

// Operands of two types and a function that tells its arguments apart.
const auto fn = [](int32_t a, double b) { return 2.0 * a - b / 3.0; };

template <class R>
void expect_stored_as_its_entries(const Vector<R>& w, const std::string& what) {
  EXPECT_NO_THROW(w.validate()) << what;
  EXPECT_EQ(w.is_dense(), w.nvals() == n) << what << ": a result with every index is stored dense";
}

TEST(VectorElementwise, UnionMatchesTheDefinition) {
  for (const auto& [an, a] : operands<int32_t>(1))
    for (const auto& [bn, b] : operands<double>(0.5)) {
      const auto want_a = entries(a);
      const auto want_b = entries(b);
      std::vector<std::optional<double>> want(static_cast<size_t>(n));
      for (size_t i = 0; i < want.size(); ++i) {
        if (want_a[i] && want_b[i]) want[i] = fn(*want_a[i], *want_b[i]);
        else if (want_a[i]) want[i] = static_cast<double>(*want_a[i]);
        else if (want_b[i]) want[i] = *want_b[i];
      }
      gql::test::with_threads(2, [&] {
        const auto w = gql::cpu::ewise_union<double>(a, b, fn);
        EXPECT_EQ(entries(w), want) << an << " with " << bn;
        expect_stored_as_its_entries(w, an + " with " + bn);
      });
    }
}

TEST(VectorElementwise, IntersectMatchesTheDefinition) {
  for (const auto& [an, a] : operands<int32_t>(1))
    for (const auto& [bn, b] : operands<double>(0.5)) {
      const auto want_a = entries(a);
      const auto want_b = entries(b);
      std::vector<std::optional<double>> want(static_cast<size_t>(n));
      for (size_t i = 0; i < want.size(); ++i)
        if (want_a[i] && want_b[i]) want[i] = fn(*want_a[i], *want_b[i]);
      gql::test::with_threads(2, [&] {
        const auto w = gql::cpu::ewise_intersect<double>(a, b, fn);
        EXPECT_EQ(entries(w), want) << an << " with " << bn;
        expect_stored_as_its_entries(w, an + " with " + bn);
      });
    }
}

TEST(VectorElementwise, ApplyKeepsTheEntries) {
  for (const auto& [an, a] : operands<int32_t>(1)) {
    std::vector<std::optional<double>> want;
    for (const auto& x : entries(a)) want.push_back(x ? std::optional<double>(*x * 0.25 + 1) : std::nullopt);
    gql::test::with_threads(2, [&] {
      const auto w = gql::cpu::apply<double>(a, [](int32_t x) { return x * 0.25 + 1; });
      EXPECT_EQ(entries(w), want) << an;
      expect_stored_as_its_entries(w, an);
    });
  }
}

}  // namespace
