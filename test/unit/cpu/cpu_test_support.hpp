// Shared by the CPU kernel tests: semiring policies of the shape the code generator writes,
// random graphs, and conversions to plain maps that the straightforward references work on.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <utility>
#include <vector>

#include <omp.h>

#include "gql/graph.hpp"
#include "gql/semiring.hpp"

namespace gql::test {

// paths: counts the paths of length two (value-free).
struct Paths {
  using a_type = bool;
  using b_type = bool;
  using value_type = uint64_t;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static value_type con(bool, bool, long long, long long, long long) { return 1; }
  static value_type agg(value_type x, value_type y) { return x + y; }
  static value_type zero() { return 0; }
  static value_type terminal() { return 0; }
};

template <class T>
struct MinPlus {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static T con(T a, T b, long long, long long, long long) { return a + b; }
  static T agg(T x, T y) { return y < x ? y : x; }
  static T zero() { return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                                 : std::numeric_limits<T>::max(); }
  static T terminal() { return zero(); }
};

// widest path with a terminal: once an entry reaches `cap` no product can raise it.
struct MaxMinCapped {
  using a_type = int32_t;
  using b_type = int32_t;
  using value_type = int32_t;
  static constexpr int32_t cap = 6;
  static constexpr Monoid monoid = Monoid::max;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = true;
  static int32_t con(int32_t a, int32_t b, long long, long long, long long) {
    const int32_t w = a < b ? a : b;
    return w < cap ? w : cap;
  }
  static int32_t agg(int32_t x, int32_t y) { return x < y ? y : x; }
  static int32_t zero() { return std::numeric_limits<int32_t>::min(); }
  static int32_t terminal() { return cap; }
};

struct MaxTimes {
  using a_type = double;
  using b_type = double;
  using value_type = double;
  static constexpr Monoid monoid = Monoid::max;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static double con(double a, double b, long long, long long, long long) { return a * b; }
  static double agg(double x, double y) { return x < y ? y : x; }
  static double zero() { return -std::numeric_limits<double>::infinity(); }
  static double terminal() { return zero(); }
};

// any_pair: a pattern result (bool), settled at the first product.
struct AnyPair {
  using a_type = bool;
  using b_type = bool;
  using value_type = bool;
  static constexpr Monoid monoid = Monoid::any;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static bool con(bool, bool, long long, long long, long long) { return true; }
  static bool agg(bool x, bool) { return x; }
  static bool zero() { return false; }
  static bool terminal() { return true; }
};

// or_and over numbers read as booleans (nonzero = true): false entries exist and are dropped.
struct OrAnd {
  using a_type = bool;
  using b_type = bool;
  using value_type = bool;
  static constexpr Monoid monoid = Monoid::lor;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = true;
  static bool con(bool a, bool b, long long, long long, long long) { return a && b; }
  static bool agg(bool x, bool y) { return x || y; }
  static bool zero() { return false; }
  static bool terminal() { return true; }
};

// positional: the smallest (i, k, j) code over the paths, so i, k and j must all arrive right.
struct MinPosition {
  using a_type = bool;
  using b_type = bool;
  using value_type = int64_t;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = false;
  static constexpr bool positional = true;
  static constexpr bool has_terminal = false;
  static int64_t con(bool, bool, long long i, long long k, long long j) { return i * 1000000 + k * 1000 + j; }
  static int64_t agg(int64_t x, int64_t y) { return y < x ? y : x; }
  static int64_t zero() { return std::numeric_limits<int64_t>::max(); }
  static int64_t terminal() { return zero(); }
};

// A user-written monoid (sum modulo 7) over a user con.
struct UserMod7 {
  using a_type = int32_t;
  using b_type = int32_t;
  using value_type = int32_t;
  static constexpr Monoid monoid = Monoid::user;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
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
  std::vector<offset_t> offsets{0};
  std::vector<index_t> cols;
  std::vector<storage_t<T>> vals;
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
template <class T>
std::map<std::pair<int64_t, int64_t>, T> to_map(const Csr<T>& g) {
  std::map<std::pair<int64_t, int64_t>, T> out;
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      out[{i, g.col_indices()[static_cast<size_t>(p)]}] = g.value_at(p);
  return out;
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
