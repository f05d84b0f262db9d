// How host code built without nvcc (the JIT's) gets the kernels of its GPU products (mxm, vxm,
// mxv). The kernels that depend on the semiring are built by NVRTC from the spec's semiring structs
// and found by their name expressions (spgemm_semiring_kernel_names, vxm_push_kernel_name); the rest
// come precompiled with the library for each shape of gql/device/product_shapes.hpp. When the JIT
// has loaded a spec's code, the spec's entry shims bind each product's semiring
// (bind_spgemm_kernels, bind_vxm_kernels); gql::gpu::mxm, vxm and mxv then look their tables up
// (registered_spgemm_kernels, registered_vxm_kernels), which builds them at the first product: the
// GPU kernels are loaded, and the CUDA driver started, by the first call that needs them, not by
// loading the code.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>

#include "gql/device/load_balance.cuh"
#include "gql/device/spgemm_kernel_table.hpp"
#include "gql/device/vector_products.hpp"
#include "gql/error.hpp"

namespace gql {

// Loaded kernels by their NVRTC name expressions; a kernel is a cudaKernel_t, which the CUDA runtime
// launches like a kernel's address.
class DeviceKernelResolver {
 public:
  virtual ~DeviceKernelResolver() = default;
  // Throws gql::Error(jit) when the module has no such kernel.
  virtual const void* kernel(const std::string& name_expression) const = 0;
};

// The name expressions of the semiring-dependent kernels of a product over the device semiring
// named `semiring` (its C++ name), whose values take `value_bytes`, sorting spilled rows in chunks
// of SpgemmShapes::sorted_chunk_for(requested_chunk, value_bytes).
struct SpgemmSemiringKernelNames {
  std::string tiny_rows, small_rows, medium_rows, medium_rows_bitmap, sorted_rows, large_rows;
  int sorted_chunk = 0;
};
SpgemmSemiringKernelNames spgemm_semiring_kernel_names(const std::string& semiring, size_t value_bytes,
                                                       int requested_chunk);

// The name expression of a vector product's push kernel for the device semiring named `semiring`,
// vectors of `vector_type` and graphs of `graph_type` (C++ names), mapping edges to threads as
// `balance` says.
std::string vxm_push_kernel_name(const std::string& semiring, const std::string& vector_type,
                                 const std::string& graph_type, device::LoadBalance balance);

// The C++ name of the semiring a product over `semiring` runs with on the device
// (gql::device::device_semiring_t: ByteValued<S> when its values are bool).
std::string device_semiring_name(const std::string& semiring, bool bool_values);

namespace detail {
// This library's tables by device semiring type (one per loaded kernel library: each links its own
// copy of the runtime). A table is built by its steps, in the order added, at its first use.
using KernelTableStep = std::function<void(std::shared_ptr<void>& table)>;
void add_kernel_table_step(std::type_index semiring, KernelTableStep step);
// The table of `semiring`, built on first use; null when it has no steps.
std::shared_ptr<void> kernel_table(std::type_index semiring);

// What bind_spgemm_kernels and bind_vxm_kernels add for one product shape, the device semiring being
// `semiring_type`. Defined in the library for the shapes of gql/device/product_shapes.hpp (the only
// ones the JIT's NVRTC path builds), so that host code compiled by the JIT does not compile them.
template <class A, class B, class V>
void bind_spgemm_shape(std::type_index semiring_type, const DeviceKernelResolver& resolver, const std::string& semiring,
                       int requested_chunk);
template <class TV, class TG, class V>
void bind_vxm_shape(std::type_index table_key, const DeviceKernelResolver& resolver, const std::string& semiring,
                    const std::string& vector_type, const std::string& graph_type, device::LoadBalance balance);
}  // namespace detail

// Binds the device semiring S (named `semiring` in C++) to the resolver's kernels, sorting spilled
// rows in chunks of `requested_chunk` (a product with another chunk binds again). The resolver
// must outlive the table's first use.
template <class S>
void bind_spgemm_kernels(const DeviceKernelResolver& resolver, const std::string& semiring, int requested_chunk) {
  detail::bind_spgemm_shape<typename S::a_type, typename S::b_type, typename S::value_type>(typeid(S), resolver,
                                                                                         semiring, requested_chunk);
}

// The key of a vector product's table: its device semiring and element types.
template <class S, class TV, class TG>
struct VxmTableKey {};

// Binds the vector products over the device semiring S (named `semiring`), vectors of TV and graphs
// of TG, pushing with `balance`, to the resolver's kernels (vector_type and graph_type: TV's and
// TG's C++ names). The resolver must outlive the table's first use.
template <class S, class TV, class TG>
void bind_vxm_kernels(const DeviceKernelResolver& resolver, const std::string& semiring, const std::string& vector_type,
                      const std::string& graph_type, device::LoadBalance balance) {
  detail::bind_vxm_shape<TV, TG, typename S::value_type>(typeid(VxmTableKey<S, TV, TG>), resolver, semiring,
                                                         vector_type, graph_type, balance);
}

template <class S, class TV, class TG>
const gpu::VxmKernelTable<TV, TG, typename S::value_type>& registered_vxm_kernels() {
  const std::shared_ptr<void> stored = detail::kernel_table(typeid(VxmTableKey<S, TV, TG>));
  if (!stored)
    throw Error(ErrorKind::internal, std::string("no GPU kernels were bound for the semiring ") + typeid(S).name());
  return *static_cast<const gpu::VxmKernelTable<TV, TG, typename S::value_type>*>(stored.get());
}

// The table bound for the device semiring S.
template <class S>
const SpgemmKernels<S>& registered_spgemm_kernels() {
  const std::shared_ptr<void> stored = detail::kernel_table(typeid(S));
  if (!stored)
    throw Error(ErrorKind::internal, std::string("no GPU kernels were bound for the semiring ") + typeid(S).name());
  return *static_cast<const SpgemmKernels<S>*>(stored.get());
}

}  // namespace gql
