// Shared by the CPU kernel tests: semiring policies (the shared reference ones and the tests' own),
// random graphs, and conversions to plain maps that the straightforward references work on.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <omp.h>

#include "gql/graph.hpp"
#include "gql/semiring.hpp"
#include "reference_semirings.hpp"

namespace gql::test {

// The shared reference policies (test/support), under the names these tests use.
using Paths = reference_semirings::Paths<uint64_t>;
using reference_semirings::AnyPair;
using reference_semirings::MinPlus;
using reference_semirings::PlusTimes;
using reference_semirings::OrAnd;
using MaxTimes = reference_semirings::MaxTimes<double>;
using reference_semirings::PolicyShape;

// widest path with a terminal: once an entry reaches `cap` no product can raise it.
struct MaxMinCapped : PolicyShape<int32_t, int32_t, int32_t, Monoid::max, true, false, true> {
  static constexpr int32_t cap = 6;
  static int32_t con(int32_t a, int32_t b, long long, long long, long long) {
    const int32_t w = a < b ? a : b;
    return w < cap ? w : cap;
  }
  static int32_t agg(int32_t x, int32_t y) { return x < y ? y : x; }
  static int32_t zero() { return std::numeric_limits<int32_t>::min(); }
  static int32_t terminal() { return cap; }
};

// positional: the smallest (i, k, j) code over the paths, so i, k and j must all arrive right.
struct MinPosition : PolicyShape<bool, bool, int64_t, Monoid::min, false, true> {
  static int64_t con(bool, bool, long long i, long long k, long long j) { return i * 1000000 + k * 1000 + j; }
  static int64_t agg(int64_t x, int64_t y) { return y < x ? y : x; }
  static int64_t zero() { return std::numeric_limits<int64_t>::max(); }
  static int64_t terminal() { return zero(); }
};

// A user-written monoid (sum modulo 7) over a user con.
struct UserMod7 : PolicyShape<int32_t, int32_t, int32_t, Monoid::user> {
  static int32_t con(int32_t a, int32_t b, long long, long long, long long) { return (a * 3 + b) % 7; }
  static int32_t agg(int32_t x, int32_t y) { return (x + y) % 7; }
  static int32_t zero() { return 0; }
  static int32_t terminal() { return 0; }
};

// A random sparse matrix; a few rows are made dense so both accumulator paths and the
// scan-instead-of-sort path get exercised. Values are small integers (zero included).
template <class T>
Csr<T> random_csr(int64_t n_rows, int64_t n_cols, double density, uint32_t seed, int dense_rows = 2) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0.0, 1.0);
  std::uniform_int_distribution<int> value(0, 9);
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  gql::Array<storage_t<T>> vals;
  for (int64_t i = 0; i < n_rows; ++i) {
    const double d = i < dense_rows ? 0.7 : density;
    for (int64_t j = 0; j < n_cols; ++j) {
      if (coin(rng) >= d) continue;
      cols.push_back(static_cast<index_t>(j));
      if constexpr (stores_values<T>) vals.push_back(static_cast<storage_t<T>>(value(rng)));
    }
    offsets.push_back(static_cast<offset_t>(cols.size()));
  }
  return Csr<T>(n_rows, n_cols, std::move(offsets), std::move(cols), std::move(vals));
}

// A sparse matrix as a map from (row, column) to value.
// A vector as one optional value per index: absent entries are empty.
template <class T>
std::vector<std::optional<T>> entries(const Vector<T>& v) {
  std::vector<std::optional<T>> out(static_cast<size_t>(v.size()));
  if (v.is_dense()) {
    for (int64_t k = 0; k < v.size(); ++k) out[static_cast<size_t>(k)] = T(v.values()[static_cast<size_t>(k)]);
  } else {
    for (size_t p = 0; p < v.indices().size(); ++p) out[static_cast<size_t>(v.indices()[p])] = T(v.values()[p]);
  }
  return out;
}

template <class T>
std::map<std::pair<int64_t, int64_t>, T> to_map(const Csr<T>& g) {
  std::map<std::pair<int64_t, int64_t>, T> out;
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      out[{i, g.col_indices()[static_cast<size_t>(p)]}] = g.value_at(p);
  return out;
}

// The textbook definition: for each (i, k) in A and (k, j) in B, fold con into C(i, j) with agg,
// then keep what the mask allows. No early exits, no accumulators, no parallelism.
template <class S, class TA, class TB>
std::map<std::pair<int64_t, int64_t>, typename S::value_type> reference_product(const Csr<TA>& A, const Csr<TB>& B,
                                                          const Csr<bool>* mask, bool complement) {
  using V = typename S::value_type;
  std::map<std::pair<int64_t, int64_t>, V> out;
  const auto a = to_map(A);
  const auto b = to_map(B);
  for (const auto& [ik, av] : a) {
    const auto [i, k] = ik;
    for (auto it = b.lower_bound({k, 0}); it != b.end() && it->first.first == k; ++it) {
      const int64_t j = it->first.second;
      const V x = S::con(convert_element<typename S::a_type>(av),
                         convert_element<typename S::b_type>(it->second), i, k, j);
      auto [pos, fresh] = out.try_emplace({i, j}, x);
      if (!fresh) pos->second = S::agg(pos->second, x);
    }
  }
  if (mask) {
    const auto m = to_map(*mask);
    std::erase_if(out, [&](const auto& e) { return m.contains(e.first) == complement; });
  }
  if constexpr (std::is_same_v<V, bool>) std::erase_if(out, [](const auto& e) { return !e.second; });
  return out;
}

// C holds exactly the entries of `want`: integers equal, floats within a relative 1e-9.
template <class V>
void expect_same_entries(const Csr<V>& C, const std::map<std::pair<int64_t, int64_t>, V>& want) {
  ASSERT_NO_THROW(C.validate());
  const auto got = to_map(C);
  ASSERT_EQ(got.size(), want.size());
  for (const auto& [key, w] : want) {
    const auto it = got.find(key);
    ASSERT_NE(it, got.end()) << "missing (" << key.first << ", " << key.second << ")";
    if constexpr (std::is_floating_point_v<V>)
      EXPECT_NEAR(it->second, w, 1e-9 * std::max(1.0, std::fabs(static_cast<double>(w))));
    else
      EXPECT_EQ(it->second, w) << "at (" << key.first << ", " << key.second << ")";
  }
}

// Runs f with the OpenMP thread count set to t, then restores it.
template <class F>
void with_threads(int t, F&& f) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(t);
  f();
  omp_set_num_threads(before);
}

}  // namespace gql::test
