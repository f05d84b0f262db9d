// The closure semirings as the code generator writes them (GQL_HD policies), shared by the GPU
// closure test and benchmark: min_plus (shortest paths), or_and (transitive closure), max_min
// (widest paths), max_times (most reliable paths).
#pragma once

#include <limits>
#include <type_traits>

#include "gql/semiring.hpp"

namespace closure_semirings {

// "No path" of min_plus: infinity for floats, INT_MAX / 2 for integers so that adding two cannot wrap.
template <class T>
GQL_HD constexpr T no_path() {
  if constexpr (std::is_floating_point_v<T>) return std::numeric_limits<T>::infinity();
  else return std::numeric_limits<T>::max() / 2;
}

template <class T>
struct MinPlus {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr gql::Monoid monoid = gql::Monoid::min;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static T con(T a, T b, long long, long long, long long) { return a + b; }
  GQL_HD static T agg(T x, T y) { return y < x ? y : x; }
  GQL_HD static T zero() { return no_path<T>(); }
  GQL_HD static T terminal() { return T{0}; }
};

// i32 min_plus that allows Hopper's add-min instruction.
struct MinPlusDpx : MinPlus<int> {
  static constexpr bool con_adds = true;
};

struct OrAnd {
  using a_type = bool;
  using b_type = bool;
  using value_type = bool;
  static constexpr gql::Monoid monoid = gql::Monoid::lor;
  static constexpr bool reads_values = true, positional = false, has_terminal = true;
  GQL_HD static bool con(bool a, bool b, long long, long long, long long) { return a && b; }
  GQL_HD static bool agg(bool x, bool y) { return x || y; }
  GQL_HD static bool zero() { return false; }
  GQL_HD static bool terminal() { return true; }
};

template <class T>
struct MaxMin {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr gql::Monoid monoid = gql::Monoid::max;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static T con(T a, T b, long long, long long, long long) { return b < a ? b : a; }
  GQL_HD static T agg(T x, T y) { return x < y ? y : x; }
  GQL_HD static T zero() { return -no_path<T>(); }
  GQL_HD static T terminal() { return no_path<T>(); }
};

template <class T>
struct MaxTimes {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr gql::Monoid monoid = gql::Monoid::max;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static T con(T a, T b, long long, long long, long long) { return a * b; }
  GQL_HD static T agg(T x, T y) { return x < y ? y : x; }
  GQL_HD static T zero() { return T{0}; }
  GQL_HD static T terminal() { return T{1}; }
};

}  // namespace closure_semirings
