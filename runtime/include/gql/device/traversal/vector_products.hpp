// The part of the GPU's vector products w<mask, replace> = v * G (vxm) and G * v (mxv) that depends
// only on their element types, and the table of kernels it launches. gql::gpu::vxm and mxv (gql/
// device/ops.hpp) pick the kernels for their semiring.
//
// Host code. With nvcc the definitions are in gql/device/traversal/vxm.hpp, instantiated wherever
// they are used; a host compiler sees the declarations only and links the instantiations the runtime
// library holds for the shapes of gql/device/product_shapes.hpp (GQL_VXM_PRECOMPILED_SHAPES: the
// JIT's host code, whose semiring kernels come from NVRTC).
#pragma once

#include <array>
#include <cstddef>

#include "gql/common/direction.hpp"
#include "gql/common/mask.hpp"
#include "gql/device/csr_view.cuh"
#include "gql/device/resident.hpp"
#include "gql/device/spgemm/spgemm_kernel_table.hpp"
#include "gql/device/traversal/load_balance.cuh"
#include "gql/device/values/vector_mask.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::gpu {

using gql::LoadBalance;

// Generated code names the options of its products in the namespace of the op: the CPU's, and how
// the push maps the frontier's edges to threads.
using common::Direction;
struct TraversalOptions : common::TraversalOptions {
  LoadBalance balance = LoadBalance::edge;
};

// The kernels of a vector product whose vector holds TV, graph TG and result V: the accumulator's
// reset (types only) and the push for each LoadBalance (the semiring's; null where not built).
template <class TV, class TG, class V>
struct VxmKernelTable {
  KernelHandle<V*, unsigned char*, long long, V> clear;
  using Push = KernelHandle<device::CsrView<TG>, const index_t*, const storage_t<TV>*, const long long*, long long,
                            long long, const unsigned char*, V*, unsigned char*>;
  std::array<Push, load_balance_count> push;
};

// The entries that depend on the element types alone. Defined in gql/device/traversal/vxm.hpp (nvcc); the
// runtime library holds it for the precompiled shapes.
template <class TV, class TG, class V>
VxmKernelTable<TV, TG, V> vxm_shape_kernels();

// w<mask, replace> = v * G with the given kernels, for a semiring whose identity is `zero` and which
// reads the operands' values when `reads_values`. v, G, the mask and the result are on the device;
// the host reads the frontier's edge count and the result's entry count.
template <class TW, class TV, class TG, class V>
void vxm_into(Resident<Vector<TW>>& w, const DeviceVectorMask& mask, bool replace, Resident<Vector<TV>>& v,
              Resident<Csr<TG>>& G, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values);

// w<mask, replace> = G * v: the same push over G's transpose (G itself when symmetric, else made once
// per graph value), with
// kernels built for the semiring with swapped operands (gql/swapped_operands.hpp).
template <class TW, class TG, class TV, class V>
void mxv_into(Resident<Vector<TW>>& w, const DeviceVectorMask& mask, bool replace, Resident<Csr<TG>>& G,
              Resident<Vector<TV>>& v, const TraversalOptions& options, KernelContext& ctx,
              const VxmKernelTable<TV, TG, V>& kernels, V zero, bool reads_values);

}  // namespace gql::gpu
