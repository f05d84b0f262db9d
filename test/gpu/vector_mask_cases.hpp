// One vector op run by the CPU and by the GPU under every mask form: none, a structural mask and its
// complement, an empty mask (nothing allowed) and its complement (everything), each with replace and
// merge, the output starting from the same earlier contents.
#pragma once

#include <string>

#include "gpu_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu::vector_mask, and gql/cpu/ops.hpp's gql::cpu::mask
#include "vector_check.hpp"

namespace gql::gpu_test {

// Runs `host_op(w, mask, replace)` on host vectors and `device_op(w, mask, replace)` on Residents, w
// starting from `before` on both; compares the outputs and counts the cases.
template <class TW, class HostOp, class DeviceOp>
void each_mask(const std::string& what, const Vector<TW>& before, const Vector<int>& mask_vector, HostOp host_op,
               DeviceOp device_op, int& cases) {
  const Stream stream;
  const Vector<int> empty_mask(mask_vector.size());
  for (int mask_kind = 0; mask_kind < 5; ++mask_kind)
    for (const bool replace : {false, true}) {
      const Vector<int>& m = mask_kind >= 3 ? empty_mask : mask_vector;
      const bool complement = mask_kind == 2 || mask_kind == 4;
      Vector<TW> expected = before.clone();
      gpu::Resident<Vector<TW>> got(before.clone());
      auto rm = gpu::Resident<Vector<int>>::borrow(m);
      if (mask_kind == 0) {
        host_op(expected, cpu::no_mask(), replace);
        device_op(got, cpu::no_mask(), replace);
      } else {
        host_op(expected, cpu::mask(m, complement), replace);
        device_op(got, gpu::vector_mask(rm, complement), replace);
      }
      GPU_CHECK_MSG(same_vector(got.take_host(stream), expected),
                    what + " mask " + std::to_string(mask_kind) + (replace ? " replace" : " merge"));
      ++cases;
    }
}

}  // namespace gql::gpu_test
