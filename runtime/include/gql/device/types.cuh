// Index types and small helpers shared by the device kernel templates.
// NVRTC-compatible: includes nothing but other headers that obey the same rule.
#pragma once

#include "gql/semiring.hpp"

namespace gql {

// The same types as gql/graph.hpp's offset_t and index_t (int64_t and int32_t on the LP64 targets
// we build for; gql/device.hpp checks that). Spelled as built-in types because NVRTC has no <cstdint>.
using offset_t = long;
using index_t = int;

namespace device {

template <class A, class B>
struct is_same { static constexpr bool value = false; };
template <class A>
struct is_same<A, A> { static constexpr bool value = true; };

// Elements of pattern graphs (bool) are not stored: every stored entry reads as true.
template <class T>
struct storage { using type = T; };
template <>
struct storage<bool> { using type = unsigned char; };
template <class T>
using storage_t = typename storage<T>::type;

template <class T>
GQL_HD constexpr T min_of(T a, T b) { return b < a ? b : a; }
template <class T>
GQL_HD constexpr T max_of(T a, T b) { return a < b ? b : a; }
template <class T>
GQL_HD constexpr T ceil_div(T a, T b) { return (a + b - 1) / b; }

}  // namespace device
}  // namespace gql
