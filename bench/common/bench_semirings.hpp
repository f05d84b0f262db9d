// The semiring policies the CPU benchmarks multiply with, written as gqlc writes them (see
// gql/semiring.hpp), so each benchmark runs the code a generated program runs.
#pragma once

#include <cstdint>
#include <limits>

#include "gql/semiring.hpp"

namespace gql::bench {

// paths: C_ij = the number of 2-paths i -> k -> j (a constant con: value-free).
struct Paths {
  using a_type = bool;
  using b_type = bool;
  using value_type = uint64_t;
  static constexpr gql::Monoid monoid = gql::Monoid::sum;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static uint64_t con(bool, bool, long long, long long, long long) { return 1; }
  static uint64_t agg(uint64_t x, uint64_t y) { return x + y; }
  static uint64_t zero() { return 0; }
  static uint64_t terminal() { return 0; }
};

// min_plus over T: shortest paths.
template <class T>
struct MinPlus {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr gql::Monoid monoid = gql::Monoid::min;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static T con(T a, T b, long long, long long, long long) { return a + b; }
  static T agg(T x, T y) { return y < x ? y : x; }
  static T zero() { return std::numeric_limits<T>::infinity(); }
  static T terminal() { return zero(); }
};

// max_min over T: widest paths.
template <class T>
struct MaxMin {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr gql::Monoid monoid = gql::Monoid::max;
  static constexpr bool reads_values = true;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = false;
  static T con(T a, T b, long long, long long, long long) { return b < a ? b : a; }
  static T agg(T x, T y) { return y > x ? y : x; }
  static T zero() { return -std::numeric_limits<T>::infinity(); }
  static T terminal() { return zero(); }
};

// any_pair: reachability in two steps (a terminal monoid).
struct AnyPair {
  using a_type = bool;
  using b_type = bool;
  using value_type = bool;
  static constexpr gql::Monoid monoid = gql::Monoid::any;
  static constexpr bool reads_values = false;
  static constexpr bool positional = false;
  static constexpr bool has_terminal = true;
  static bool con(bool, bool, long long, long long, long long) { return true; }
  static bool agg(bool x, bool y) { return x || y; }
  static bool zero() { return false; }
  static bool terminal() { return true; }
};

}  // namespace gql::bench
