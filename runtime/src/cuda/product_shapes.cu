// The host drivers and the type-dependent kernels of every precompiled product shape (mxm, vxm,
// mxv), for host code built without nvcc (gql/device/spgemm/product_on_device.hpp,
// gql/device/traversal/vector_products.hpp, gql/device/jit_kernels.hpp).
#include "gql/device/product_shapes.hpp"
#include "gql/device/spgemm/product_on_device.hpp"
#include "gql/device/spgemm/spgemm_kernels.hpp"
#include "gql/device/traversal/vxm.hpp"

namespace gql {

#define GQL_INSTANTIATE_SHAPE(A, B, V, S)                                                                    \
  template gpu::ProductResult<V> gpu::masked_product<A, B, V>(                                               \
      const gpu::DeviceGraphMask&, const DeviceCsr<A>&, const DeviceCsr<B>&, const gpu::ProductOptions&,     \
      const SpgemmKernelTable<A, B, V>&, KernelContext&, bool);                                              \
  template SpgemmKernelTable<A, B, V> spgemm_shape_kernels<A, B, V>();
GQL_SPGEMM_PRECOMPILED_SHAPES(GQL_INSTANTIATE_SHAPE)
#undef GQL_INSTANTIATE_SHAPE

#define GQL_INSTANTIATE_VXM_SHAPE(TV, TG, V, TW)                                                                    \
  template void gpu::vxm_into<TW, TV, TG, V>(gpu::Resident<Vector<TW>>&, const gpu::DeviceVectorMask&, bool,             \
                                             gpu::Resident<Vector<TV>>&, gpu::Resident<Csr<TG>>&,                     \
                                             const gpu::TraversalOptions&, KernelContext&,                            \
                                             const gpu::VxmKernelTable<TV, TG, V>&, V, bool);                        \
  template void gpu::mxv_into<TW, TG, TV, V>(gpu::Resident<Vector<TW>>&, const gpu::DeviceVectorMask&, bool,             \
                                             gpu::Resident<Csr<TG>>&, gpu::Resident<Vector<TV>>&,                     \
                                             const gpu::TraversalOptions&, KernelContext&,                            \
                                             const gpu::VxmKernelTable<TV, TG, V>&, V, bool);                        \
  template gpu::VxmKernelTable<TV, TG, V> gpu::vxm_shape_kernels<TV, TG, V>();
GQL_VXM_PRECOMPILED_SHAPES(GQL_INSTANTIATE_VXM_SHAPE)
#undef GQL_INSTANTIATE_VXM_SHAPE

}  // namespace gql
