// G * v computed as v * G' by one kernel: the semiring adapter that swaps con's operands.
// NVRTC-compatible (the GPU's mxv kernels are built with it).
#pragma once

#include "gql/semiring.hpp"

namespace gql::cpu {

// G * v is v * G' with the operands of con swapped; this adapter lets one kernel serve both (the
// CPU's and, callable on the device, the GPU's).
template <class S>
struct SwappedOperands {
  using a_type = typename S::b_type;
  using b_type = typename S::a_type;
  using value_type = typename S::value_type;
  static constexpr Monoid monoid = S::monoid;
  static constexpr bool reads_values = S::reads_values;
  static constexpr bool positional = S::positional;
  static constexpr bool con_reads_k = con_reads_position_k<S>();
  static constexpr bool has_terminal = S::has_terminal;
  GQL_HD static value_type con(a_type a, b_type b, long long i, long long k, long long j) {
    return S::con(b, a, j, k, i);
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return S::agg(x, y); }
  GQL_HD static value_type zero() { return S::zero(); }
  GQL_HD static value_type terminal() { return S::terminal(); }
};

}  // namespace gql::cpu
