// The host driver and the type-dependent kernels of every precompiled product shape, for host code
// built without nvcc (gql/device/product_on_device.hpp, gql/device/jit_spgemm.hpp).
#include "gql/device/product_on_device.hpp"
#include "gql/device/spgemm_kernels.hpp"
#include "gql/device/spgemm_shapes.hpp"

namespace gql {

#define GQL_INSTANTIATE_SHAPE(A, B, V, C)                                                                    \
  template void gpu::multiply_into<C, A, B, V>(Csr<C>&, const cpu::MatrixMask&, bool, const Csr<A>&, const Csr<B>&, \
                                               const gpu::ProductOptions&, const SpgemmKernelTable<A, B, V>&,     \
                                               KernelContext&);                                                   \
  template SpgemmKernelTable<A, B, V> spgemm_shape_kernels<A, B, V>();
GQL_SPGEMM_PRECOMPILED_SHAPES(GQL_INSTANTIATE_SHAPE)
#undef GQL_INSTANTIATE_SHAPE

}  // namespace gql
