// The values of a value mask (`C<value(M)>`) as the runtime library's mask kernels read them on the
// device, whatever the mask's element type: words of the element's size, a word selecting when it
// has a bit of `counting_bits` set. That is `!= 0`, as the language converts to bool: every bit of an
// integer or of a bool's byte counts, and every bit of a float but its sign, so -0.0 selects nothing
// and NaN selects. Host code (the kernels are in runtime/src/cuda).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gql/graph.hpp"
#include "gql/semiring.hpp"

namespace gql::gpu {

struct MaskValues {
  const void* words = nullptr;  // on the device; null: a structural mask, no value is read
  size_t bytes = 0;             // of one word
  uint64_t counting_bits = 0;

  GQL_HD bool selects(uint64_t word) const { return (word & counting_bits) != 0; }
};

// The values at `words` (device memory) of a mask of element type M.
template <class M>
MaskValues mask_values(const storage_t<M>* words) noexcept {
  using W = storage_t<M>;
  constexpr uint64_t sign = uint64_t{1} << (8 * sizeof(W) - 1);
  return {words, sizeof(W), std::is_floating_point_v<W> ? ~sign : ~uint64_t{0}};
}

}  // namespace gql::gpu
