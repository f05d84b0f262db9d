// The device start of a CUDA program (gql::start_device): the context, the staging buffers of the
// transfers, the small pinned blocks, and the kernels or cuBLAS made ready before the program times
// a kernel.
#include <cstdlib>

#include "gql/device.hpp"
#include "gql/device/dense/cublas_lease.hpp"

namespace gql {

void choose_module_loading(DeviceStart what) {
  // Lazily loaded, the kernels cost the first of a program's 64 BFS runs 2 ms more (5.7 ms against
  // 3.6 ms eagerly, the device start 30 ms more).
  if (what == DeviceStart::kernels_loaded) setenv("CUDA_MODULE_LOADING", "EAGER", /*overwrite=*/0);
}

void start_device(DeviceStart what) {
  choose_module_loading(what);
  GQL_CUDA_CHECK(cudaFree(nullptr));
  prepare_staged_copies();
  prepare_pinned_blocks();
  if (what == DeviceStart::with_cublas) gpu::CublasLease made_and_kept_in_the_pool(nullptr);
}

}  // namespace gql
