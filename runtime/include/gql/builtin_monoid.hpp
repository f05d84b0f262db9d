// The identity and the combining step of each builtin monoid (reduce's, and the element-wise
// ops' sums), on the host and on the device alike.
#pragma once

#include <type_traits>

#include "gql/scalar_ops.hpp"
#include "gql/semiring.hpp"

namespace gql {

template <Monoid M, class R>
struct BuiltinMonoid {
  GQL_HD static R identity() {
    if constexpr (M == Monoid::sum || M == Monoid::any) return R(0);
    else if constexpr (M == Monoid::prod) return R(1);
    else if constexpr (M == Monoid::min) {
      if constexpr (std::is_same_v<R, bool>) return true;
      else return highest<R>();  // +inf for floating types
    } else if constexpr (M == Monoid::max) {
      if constexpr (std::is_same_v<R, bool>) return false;
      else return lowest<R>();
    } else if constexpr (M == Monoid::lor) return R(false);
    else return R(true);  // land
  }
  GQL_HD static R combine(R x, R y) {
    constexpr bool integer = std::is_integral_v<R> && !std::is_same_v<R, bool>;  // wraps, as the language says
    if constexpr (M == Monoid::sum && integer) return wrapping_add(x, y);
    else if constexpr (M == Monoid::sum) return R(x + y);
    else if constexpr (M == Monoid::prod && integer) return wrapping_mul(x, y);
    else if constexpr (M == Monoid::prod) return R(x * y);
    else if constexpr (M == Monoid::min) return builtin_min<R>(x, y);
    else if constexpr (M == Monoid::max) return builtin_max<R>(x, y);
    else if constexpr (M == Monoid::lor) return R(x || y);
    else if constexpr (M == Monoid::land) return R(x && y);
    else return x;  // any: every entry will do
  }
};

}  // namespace gql
