// Semiring policies shared by the GPU tests, written as gqlc writes them (gql/semiring.hpp).
#pragma once

#include "gql/semiring.hpp"

namespace gql::gpu_test {

struct Paths {  // number of paths of length two: the fof count
  using a_type = bool;
  using b_type = bool;
  using value_type = unsigned long long;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = false, positional = false, has_terminal = false;
  GQL_HD static value_type con(bool, bool, long long, long long, long long) { return 1; }
  GQL_HD static value_type agg(value_type x, value_type y) { return x + y; }
  GQL_HD static value_type zero() { return 0; }
  GQL_HD static value_type terminal() { return 0; }
};

struct PlusTimesF32 {  // small integer weights keep every sum exact in fp32
  using a_type = float;
  using b_type = float;
  using value_type = float;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(float a, float b, long long, long long, long long) { return a * b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return x + y; }
  GQL_HD static value_type zero() { return 0.0f; }
  GQL_HD static value_type terminal() { return 0.0f; }
};

struct MinPlusI32 {
  using a_type = int;
  using b_type = int;
  using value_type = int;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(int a, int b, long long, long long, long long) { return a + b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() { return 2147483647; }
  GQL_HD static value_type terminal() { return 0; }
};

}  // namespace gql::gpu_test
