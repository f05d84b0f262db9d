// A structural mask as the SpGEMM kernels read it while accumulating (GraphBLAS's definition: an
// entry of the mask counts by its presence; a complemented mask lets through what the mask lacks).
// Products that the mask rejects are never combined, so a masked product costs no output space.
// NVRTC-compatible and host-compilable.
#pragma once

#include "gql/device/types.cuh"

namespace gql::device::spgemm {

enum class MaskKind : int { none = 0, allow = 1, deny = 2 };

struct MaskView {
  const offset_t* row_offsets = nullptr;  // the mask's CSR structure (same shape as C)
  const index_t* col_indices = nullptr;
  MaskKind kind = MaskKind::none;

  // Whether C(row, j) may be written: a binary search in the mask's row (sorted columns).
  GQL_HD bool allows(long long row, index_t j) const {
    if (kind == MaskKind::none) return true;
    const offset_t end = row_offsets[row + 1];
    offset_t lo = row_offsets[row], hi = end;
    while (lo < hi) {
      const offset_t mid = lo + (hi - lo) / 2;
      if (col_indices[mid] < j) lo = mid + 1;
      else hi = mid;
    }
    const bool present = lo < end && col_indices[lo] == j;
    return present == (kind == MaskKind::allow);
  }
};

}  // namespace gql::device::spgemm
