// Values of a value mask (C<value(M)>) where the conversion to bool matters, for the tests of the
// host and device masks alike: zero and nonzero, and for floats -0.0 (false) and NaN (true).
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

namespace gql::test_support {

// The k-th mask value of a cycle through those cases.
template <class M>
M mask_value(int64_t k) {
  if constexpr (std::is_floating_point_v<M>) {
    const M special[] = {M(0), M(-0.0), std::numeric_limits<M>::quiet_NaN(), M(0.5), M(-2)};
    return special[k % 5];
  } else if constexpr (std::is_same_v<M, bool>) {
    return k % 3 == 0;
  } else {
    return static_cast<M>(k % 3 == 0 ? 0 : k % 3 == 1 ? 1 : -7);
  }
}

}  // namespace gql::test_support
