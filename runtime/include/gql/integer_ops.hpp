// The language's integer operators and float-to-integer conversion as generated code computes them,
// on the host and on the device alike. C++ leaves signed overflow, division by zero, the lowest value
// divided by -1 and out-of-range conversions undefined (and optimizers assume they never happen); the
// language defines every one, as docs/language.md states and the constant folder (compiler/ir/eval.cpp)
// computes:
//   - + - * and negation wrap at the type's width;
//   - x / 0 is 0 for x == 0, else the type's highest value for x > 0 and its lowest for x < 0
//     (GraphBLAS's definition); lowest / -1 wraps to lowest;
//   - x % y is x - (x / y) * y: x % 0 is x, lowest % -1 is 0;
//   - a float converted to an integer truncates toward zero and saturates at the type's range; NaN
//     converts to 0.
// Where C++ defines the result each is that instruction (the compilers fold the unsigned round trip).
// NVRTC-compatible.
#pragma once

#include "gql/scalar_limits.hpp"
#include "gql/semiring.hpp"

namespace gql {
namespace detail {

// The unsigned type that T's + - * are computed in, where wrapping is defined: as wide as T and
// never narrower than int (narrower operands would be promoted to int, whose overflow is undefined).
// Only the integer types have them.
template <class T>
struct integer_traits {};
#define GQL_INTEGER_TRAITS(T, U, SIGNED)        \
  template <>                                   \
  struct integer_traits<T> {                    \
    using wrapping_type = U;                    \
    static constexpr bool is_signed = SIGNED;   \
  };
GQL_INTEGER_TRAITS(signed char, unsigned int, true)
GQL_INTEGER_TRAITS(short, unsigned int, true)
GQL_INTEGER_TRAITS(int, unsigned int, true)
GQL_INTEGER_TRAITS(long, unsigned long, true)
GQL_INTEGER_TRAITS(long long, unsigned long long, true)
GQL_INTEGER_TRAITS(unsigned char, unsigned int, false)
GQL_INTEGER_TRAITS(unsigned short, unsigned int, false)
GQL_INTEGER_TRAITS(unsigned int, unsigned int, false)
GQL_INTEGER_TRAITS(unsigned long, unsigned long, false)
GQL_INTEGER_TRAITS(unsigned long long, unsigned long long, false)
#undef GQL_INTEGER_TRAITS

template <class T>
using wrapping_type = typename integer_traits<T>::wrapping_type;

template <class T, class = void>
struct is_integer { static constexpr bool value = false; };
template <class T>
struct is_integer<T, decltype(void(integer_traits<T>::is_signed))> { static constexpr bool value = true; };
template <class T>
struct is_float { static constexpr bool value = false; };
template <>
struct is_float<float> { static constexpr bool value = true; };
template <>
struct is_float<double> { static constexpr bool value = true; };

}  // namespace detail

// The unsigned result converts back modulo 2^bits (C++20 defines it; every compiler did before).
template <class T>
GQL_HD T wrapping_add(T a, T b) {
  using U = detail::wrapping_type<T>;
  return T(U(a) + U(b));
}
template <class T>
GQL_HD T wrapping_sub(T a, T b) {
  using U = detail::wrapping_type<T>;
  return T(U(a) - U(b));
}
template <class T>
GQL_HD T wrapping_mul(T a, T b) {
  using U = detail::wrapping_type<T>;
  return T(U(a) * U(b));
}
template <class T>
GQL_HD T wrapping_neg(T a) {
  using U = detail::wrapping_type<T>;
  return T(U(0) - U(a));
}

template <class T>
GQL_HD T integer_div(T a, T b) {
  if (b == T(0)) return a == T(0) ? T(0) : a > T(0) ? highest<T>() : lowest<T>();
  if (detail::integer_traits<T>::is_signed && b == T(-1)) return wrapping_neg(a);
  return T(a / b);
}
template <class T>
GQL_HD T integer_rem(T a, T b) {
  if (b == T(0)) return a;
  if (detail::integer_traits<T>::is_signed && b == T(-1)) return T(0);
  return T(a % b);
}

// An integer I from a float F: NaN is 0, values beyond I's range its highest or lowest value.
// F(highest<I>()) may round up to the next power of two, which is out of range as well.
template <class I, class F>
GQL_HD constexpr I saturating_cast(F x) {
  if (x != x) return I(0);
  if (x >= F(highest<I>())) return highest<I>();
  if (x <= F(lowest<I>())) return lowest<I>();
  return I(x);
}

// A number converted to another number type as the language converts it: a float to an integer
// saturates, every other conversion is C++'s (integers wrap, floats round).
template <class To, class From>
GQL_HD constexpr To convert_number(From x) {
  if constexpr (detail::is_integer<To>::value && detail::is_float<From>::value) return saturating_cast<To, From>(x);
  else return static_cast<To>(x);
}

}  // namespace gql
