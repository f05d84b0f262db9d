// A bool-valued semiring multiplied with byte values: device products store their values, so
// pattern results such as any_pair's come back as bytes and become a pattern graph on the host.
// NVRTC-compatible and host-compilable.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device {

template <class S>
struct ByteValued {
  using a_type = typename S::a_type;
  using b_type = typename S::b_type;
  using value_type = unsigned char;
  static constexpr gql::Monoid monoid = S::monoid == gql::Monoid::any ? gql::Monoid::any : gql::Monoid::user;
  static constexpr bool reads_values = S::reads_values;
  static constexpr bool positional = S::positional;
  static constexpr bool has_terminal = S::has_terminal;
  GQL_HD static value_type con(a_type a, b_type b, long long i, long long k, long long j) {
    return S::con(a, b, i, k, j) ? 1 : 0;
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return S::agg(x != 0, y != 0) ? 1 : 0; }
  GQL_HD static value_type zero() { return S::zero() ? 1 : 0; }
  GQL_HD static value_type terminal() { return S::terminal() ? 1 : 0; }
};

// The semiring a product over S runs with on the device: S, or ByteValued<S> for bool values.
template <class S, bool Bool = is_same<typename S::value_type, bool>::value>
struct DeviceSemiringOf {
  using type = S;
};
template <class S>
struct DeviceSemiringOf<S, true> {
  using type = ByteValued<S>;
};
template <class S>
using device_semiring_t = typename DeviceSemiringOf<S>::type;

}  // namespace gql::device
