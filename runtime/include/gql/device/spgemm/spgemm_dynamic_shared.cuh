// The dynamic shared memory of a kernel launch, as bytes (one declaration for every kernel, so
// kernels in one translation unit agree on its type). NVRTC-compatible.
#pragma once

namespace gql::device::spgemm {

__device__ __forceinline__ unsigned char* dynamic_shared_bytes() {
  extern __shared__ __align__(16) unsigned char gql_dynamic_shared[];
  return gql_dynamic_shared;
}

}  // namespace gql::device::spgemm
