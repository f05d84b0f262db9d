// The closure's host driver made once for each value type gql/device/closure/closure.hpp declares extern,
// and the plan's description: host code, compiled by the host compiler.
#include "gql/device/closure/closure.hpp"

namespace gql::gpu {

std::string ClosurePlan::describe() const {
  std::string kernel_text;
  switch (kernel) {
    case ClosureKernel::global_memory: kernel_text = "global-memory kernel, one launch per k"; break;
    case ClosureKernel::shared_tiles:
      kernel_text = "shared-memory 3-stage tiles " + std::to_string(tile) + ", " + std::to_string(per_thread) +
                    " entries per thread " + (spread ? "spread" : "packed");
      break;
    case ClosureKernel::register_tiles:
      kernel_text = "3-stage blocked, k-block " + std::to_string(tile) +
                    ", stages 2-3 register-tiled semiring GEMM (" + register_tile.text() +
                    " per thread, 128x128 per block)" + (dpx ? ", DPX add-min" : "") +
                    (staged ? ", old values staged in shared memory" : "");
      break;
  }
  if (predecessors) kernel_text += ", with predecessors";
  const std::string mib = std::to_string(device_bytes >> 20) + " MiB";
  if (!out_of_core) return kernel_text + "; in core (" + std::to_string(padded) + "^2 padded, " + mib + ")";
  const int64_t tiles = (n + super_tile - 1) / super_tile;
  return kernel_text + "; out of core: super tiles " + std::to_string(super_tile) + " (" + std::to_string(tiles) +
         "x" + std::to_string(tiles) + "), " + std::to_string(streams) + " streams, " + mib + " on the device";
}

#define GQL_CLOSURE_DRIVER(V)                                                                          \
  template void closure_in_place<V>(const ClosureKernelTable<V>&, V*, int32_t*, const ClosurePlan&, Stream); \
  template void closure_of_device_matrix<V>(const ClosureKernelTable<V>&, V*, const ClosurePlan&, const Stream&); \
  template void closure_paths_of_device_matrix<V>(const ClosureKernelTable<V>&, V*, int32_t*, const ClosurePlan&,  \
                                                  const Stream&);
GQL_CLOSURE_VALUE_TYPES(GQL_CLOSURE_DRIVER)
#undef GQL_CLOSURE_DRIVER

}  // namespace gql::gpu
