// The language's `inf` and `-inf` of every scalar type, and a quiet NaN, as generated code and the
// runtime spell them on the host and on the device alike. NVRTC-compatible.
#pragma once

#include "gql/semiring.hpp"

namespace gql {

// What `inf` and `-inf` mean: the infinities of a floating type, the largest and lowest values of
// an integer type. (Spelled out because NVRTC has no <limits>, nor the host compilers' builtins.)
template <class T> GQL_HD T highest();
template <class T> GQL_HD T lowest();
#define GQL_INTEGER_LIMITS(T, HI, LO) \
  template <> GQL_HD T highest<T>() { return HI; } \
  template <> GQL_HD T lowest<T>() { return LO; }
GQL_INTEGER_LIMITS(signed char, 127, -128)
GQL_INTEGER_LIMITS(short, 32767, -32768)
GQL_INTEGER_LIMITS(int, 2147483647, -2147483647 - 1)
GQL_INTEGER_LIMITS(long, 9223372036854775807l, -9223372036854775807l - 1)
GQL_INTEGER_LIMITS(long long, 9223372036854775807ll, -9223372036854775807ll - 1)
GQL_INTEGER_LIMITS(unsigned char, 255u, 0u)
GQL_INTEGER_LIMITS(unsigned short, 65535u, 0u)
GQL_INTEGER_LIMITS(unsigned int, 4294967295u, 0u)
GQL_INTEGER_LIMITS(unsigned long, 18446744073709551615ul, 0ul)
GQL_INTEGER_LIMITS(unsigned long long, 18446744073709551615ull, 0ull)
#undef GQL_INTEGER_LIMITS
#if defined(__CUDACC_RTC__)
template <> GQL_HD float highest<float>() { return __int_as_float(0x7f800000); }
template <> GQL_HD float lowest<float>() { return __int_as_float(static_cast<int>(0xff800000u)); }
template <> GQL_HD double highest<double>() { return __longlong_as_double(0x7ff0000000000000ll); }
template <> GQL_HD double lowest<double>() { return __longlong_as_double(static_cast<long long>(0xfff0000000000000ull)); }
#else
template <> GQL_HD float highest<float>() { return __builtin_huge_valf(); }
template <> GQL_HD float lowest<float>() { return -__builtin_huge_valf(); }
template <> GQL_HD double highest<double>() { return __builtin_huge_val(); }
template <> GQL_HD double lowest<double>() { return -__builtin_huge_val(); }
#endif

// A quiet NaN (the language's `nan`).
template <class T> GQL_HD T quiet_nan();
#if defined(__CUDACC_RTC__)
template <> GQL_HD float quiet_nan<float>() { return __int_as_float(0x7fc00000); }
template <> GQL_HD double quiet_nan<double>() { return __longlong_as_double(0x7ff8000000000000ll); }
#else
template <> GQL_HD float quiet_nan<float>() { return __builtin_nanf(""); }
template <> GQL_HD double quiet_nan<double>() { return __builtin_nan(""); }
#endif

}  // namespace gql
