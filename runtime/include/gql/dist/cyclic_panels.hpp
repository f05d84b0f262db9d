// The panels of a distributed LU (gql/dist/lu.hpp on the host, gql/dist/device_lu.hpp on the GPUs):
// an n x n matrix's columns in panels of `width`, panel p held by rank p mod R (ScaLAPACK's 1-D
// block-cyclic columns), so that every rank keeps trailing columns to update until the last panels.
#pragma once

#include <algorithm>
#include <cstdint>

namespace gql::dist {

struct CyclicPanels {
  int64_t n, width;
  int ranks;
  // The rank holding the panel from column k0.
  int owner(int64_t k0) const noexcept { return static_cast<int>((k0 / width) % ranks); }
  // Calls f(c0, c1) for each of `rank`'s panels, left to right.
  template <class F>
  void each_of(int rank, F&& f) const {
    for (int64_t c0 = rank * width; c0 < n; c0 += ranks * width) f(c0, std::min(n, c0 + width));
  }
};

}  // namespace gql::dist
