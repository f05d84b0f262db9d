// The semiring policies that the tests and the benchmarks multiply with, in the shape gqlc writes
// them (gql/semiring.hpp): GQL_HD functions, so one definition serves the CPU tests, the GPU tests
// (nvcc) and the benchmarks of both. It lives in test/support/ because the tests are where these
// policies are checked against plain references; bench/common/CMakeLists.txt puts this folder on
// the benchmarks' include path too, so a benchmark measures exactly the policy the tests check.
#pragma once

#include <limits>

#include "gql/semiring.hpp"

namespace gql::reference_semirings {

// The type and trait members every policy declares; a policy derives from it and adds con, agg,
// zero and terminal.
template <class A, class B, class V, Monoid M, bool ReadsValues = true, bool Positional = false,
          bool HasTerminal = false>
struct PolicyShape {
  using a_type = A;
  using b_type = B;
  using value_type = V;
  static constexpr Monoid monoid = M;
  static constexpr bool reads_values = ReadsValues;
  static constexpr bool positional = Positional;
  static constexpr bool has_terminal = HasTerminal;
};

// The least and the greatest value of T: the infinities where T has them.
template <class T>
GQL_HD constexpr T lowest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::lowest();
}

template <class T>
GQL_HD constexpr T highest_value() {
  if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max();
}

// paths: C_ij = the number of 2-paths i -> k -> j, counted in V (a constant con: value-free).
template <class V>
struct Paths : PolicyShape<bool, bool, V, Monoid::sum, false> {
  GQL_HD static V con(bool, bool, long long, long long, long long) { return 1; }
  GQL_HD static V agg(V x, V y) { return x + y; }
  GQL_HD static V zero() { return 0; }
  GQL_HD static V terminal() { return 0; }
};

// plus_times: linear algebra.
template <class T>
struct PlusTimes : PolicyShape<T, T, T, Monoid::sum> {
  GQL_HD static T con(T a, T b, long long, long long, long long) { return a * b; }
  GQL_HD static T agg(T x, T y) { return x + y; }
  GQL_HD static T zero() { return T{0}; }
  GQL_HD static T terminal() { return T{0}; }
};

// min_plus: shortest paths; "no path" is infinity, or T's greatest value for integers.
template <class T>
struct MinPlus : PolicyShape<T, T, T, Monoid::min> {
  GQL_HD static T con(T a, T b, long long, long long, long long) { return a + b; }
  GQL_HD static T agg(T x, T y) { return y < x ? y : x; }
  GQL_HD static T zero() { return highest_value<T>(); }
  GQL_HD static T terminal() { return zero(); }
};

// via_k: a positional con, the intermediate's id added to each path (min over paths): a product that
// passes the wrong k to con gives other values.
struct ViaK : PolicyShape<long long, long long, long long, Monoid::min, true, true> {
  GQL_HD static long long con(long long a, long long b, long long, long long k, long long) { return a + b + k; }
  GQL_HD static long long agg(long long x, long long y) { return y < x ? y : x; }
  GQL_HD static long long zero() { return highest_value<long long>(); }
  GQL_HD static long long terminal() { return zero(); }
};

// max_min: widest (bottleneck) paths.
template <class T>
struct MaxMin : PolicyShape<T, T, T, Monoid::max> {
  GQL_HD static T con(T a, T b, long long, long long, long long) { return b < a ? b : a; }
  GQL_HD static T agg(T x, T y) { return x < y ? y : x; }
  GQL_HD static T zero() { return lowest_value<T>(); }
  GQL_HD static T terminal() { return zero(); }
};

// max_times over non-negative weights (e.g. probabilities: most reliable paths), where 0 is "no
// path": the identity of max there, and a product with it stays 0 (an infinite identity would not).
template <class T>
struct MaxTimes : PolicyShape<T, T, T, Monoid::max> {
  GQL_HD static T con(T a, T b, long long, long long, long long) { return a * b; }
  GQL_HD static T agg(T x, T y) { return x < y ? y : x; }
  GQL_HD static T zero() { return T{0}; }
  GQL_HD static T terminal() { return T{0}; }
};

// or_and: reachability over values read as booleans, settled at the first true.
struct OrAnd : PolicyShape<bool, bool, bool, Monoid::lor, true, false, true> {
  GQL_HD static bool con(bool a, bool b, long long, long long, long long) { return a && b; }
  GQL_HD static bool agg(bool x, bool y) { return x || y; }
  GQL_HD static bool zero() { return false; }
  GQL_HD static bool terminal() { return true; }
};

// any_pair: the pattern of the product (the any monoid keeps the first entry, as gqlc writes it).
struct AnyPair : PolicyShape<bool, bool, bool, Monoid::any, false> {
  GQL_HD static bool con(bool, bool, long long, long long, long long) { return true; }
  GQL_HD static bool agg(bool x, bool) { return x; }
  GQL_HD static bool zero() { return false; }
  GQL_HD static bool terminal() { return false; }
};

}  // namespace gql::reference_semirings
