// The language's scalar builtins (min, max, abs, sqrt), % on floats, constants (inf, nan) and
// integer operators as generated code calls them, on the host and on the device alike. NVRTC has
// the math functions built in, so <cmath> is only for host compilers.
#pragma once

#include "gql/integer_ops.hpp"
#include "gql/scalar_limits.hpp"
#include "gql/semiring.hpp"

#if !defined(__CUDACC_RTC__)
#include <cmath>
#endif

namespace gql {

template <class T>
GQL_HD T builtin_min(T a, T b) {
  return b < a ? b : a;
}
template <class T>
GQL_HD T builtin_max(T a, T b) {
  return a < b ? b : a;
}
// abs of an integer type's lowest value wraps to itself, as its negation does.
template <class T>
GQL_HD T builtin_abs(T a) {
  return a < T(0) ? wrapping_neg(a) : a;
}
template <>
GQL_HD float builtin_abs<float>(float a) {
  return a < 0.0f ? -a : a;
}
template <>
GQL_HD double builtin_abs<double>(double a) {
  return a < 0.0 ? -a : a;
}
GQL_HD double builtin_sqrt(double x) { return sqrt(x); }
GQL_HD float builtin_sqrt(float x) { return sqrtf(x); }
// The language's % on floats: C's fmod (the sign of x).
GQL_HD double builtin_fmod(double x, double y) { return fmod(x, y); }
GQL_HD float builtin_fmod(float x, float y) { return fmodf(x, y); }

}  // namespace gql
