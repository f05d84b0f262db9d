// How host code built without nvcc (the JIT's) gets the kernels of its GPU products (mxm, vxm,
// mxv), closures and single-source paths. The kernels that depend on the semiring are built by NVRTC from the spec's
// semiring structs and found by their name expressions (spgemm_semiring_kernel_names,
// vxm_push_kernel_name, closure_kernel_names, paths_kernel_names); the products' other kernels come
// precompiled with the library for each shape of gql/device/product_shapes.hpp. When the JIT has
// loaded a spec's code, the spec's entry shims bind each op's semiring (bind_spgemm_kernels,
// bind_vxm_kernels, bind_closure_kernels, bind_paths_kernels); the ops then look their tables up
// (registered_spgemm_kernels, ...), which builds them at the first op: the GPU kernels are loaded, and the CUDA driver started, by the first call that
// needs them, not by loading the code.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <vector>

#include "gql/device/closure/closure_kernel_table.hpp"
#include "gql/device/closure/closure_plan.hpp"
#include "gql/device/spgemm/spgemm_kernel_table.hpp"
#include "gql/device/traversal/load_balance.cuh"
#include "gql/device/traversal/sssp_kernel_table.hpp"
#include "gql/device/traversal/sssp_schedule.hpp"
#include "gql/device/traversal/vector_products.hpp"
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

// A semiring-dependent kernel of a product: its variant (the table entry it fills) and its name
// expression.
struct SpgemmKernelName {
  SpgemmVariant variant;
  std::string expression;
};

// The kernels a product over the device semiring named `semiring` (its C++ name), whose values take
// `value_bytes`, runs: every variant of spgemm_semiring_variants but the sorted_rows of other chunks
// than SpgemmShapes::sorted_chunk_for(requested_chunk, value_bytes).
struct SpgemmSemiringKernelNames {
  std::vector<SpgemmKernelName> kernels;
  int sorted_chunk = 0;
  // The name expression of the kernel filling `slot` (throws when there is none).
  const std::string& of(SpgemmSlot slot) const;
};
SpgemmSemiringKernelNames spgemm_semiring_kernel_names(const std::string& semiring, size_t value_bytes,
                                                       int requested_chunk);

// The name expression of a vector product's push kernel for the device semiring named `semiring`,
// vectors of `vector_type` and graphs of `graph_type` (C++ names), mapping edges to threads as
// `balance` says.
std::string vxm_push_kernel_name(const std::string& semiring, const std::string& vector_type,
                                 const std::string& graph_type, LoadBalance balance);

// The C++ name of the semiring a product over `semiring` runs with on the device
// (gql::device::device_semiring_t: ByteValued<S> when its values are bool).
std::string device_semiring_name(const std::string& semiring, bool bool_values);

// A kernel a closure may launch: its variant (the entry of gpu::ClosureKernelTable it fills) and its
// name expression. A GEMM's DPX variant is named with device::closure::dpx_capable of the semiring, so
// NVRTC builds the plain kernel for a semiring that may not run DPX, and the binding files it there.
struct ClosureKernelName {
  gpu::ClosureVariant variant;
  std::string expression;
};

// The kernels a closure over the semiring named `semiring` with values of `value_type` (C++ names;
// `value_bytes` each) may launch under `schedule`, with predecessors or not (gpu::closure_variant_runs).
std::vector<ClosureKernelName> closure_kernel_names(const std::string& semiring, const std::string& value_type,
                                                    size_t value_bytes, const gpu::ClosureSchedule& schedule,
                                                    bool predecessors);

// A kernel of device single-source paths: its variant (the entry of gpu::PathsKernelTable it fills)
// and its name expression.
struct PathsKernelName {
  gpu::PathsVariant variant;
  std::string expression;
};

// The kernels single-source paths over the semiring named `semiring` may launch under `schedule`,
// values of `value_type` over graphs of `graph_type` (C++ names): delta-stepping's only when the
// schedule asks for it.
std::vector<PathsKernelName> paths_kernel_names(const std::string& semiring, const std::string& value_type,
                                                const std::string& graph_type, const gpu::SsspSchedule& schedule);

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
                    const std::string& vector_type, const std::string& graph_type, LoadBalance balance);

template <class V>
void bind_closure_names(gpu::ClosureKernelTable<V>& table, const std::vector<ClosureKernelName>& names,
                        const DeviceKernelResolver& resolver) {
  for (const ClosureKernelName& name : names) {
    gpu::ClosureVariant v = name.variant;
    v.dpx = v.dpx && table.dpx_capable;  // what NVRTC built for the name (ClosureKernelName)
    gpu::closure_slot_address(table, v) = resolver.kernel(name.expression);
  }
}

template <class V, class TG>
void bind_paths_names(gpu::PathsKernelTable<V, TG>& table, const std::vector<PathsKernelName>& names,
                      const DeviceKernelResolver& resolver) {
  for (const PathsKernelName& name : names) gpu::paths_slot_address(table, name.variant) = resolver.kernel(name.expression);
}
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
                      const std::string& graph_type, LoadBalance balance) {
  detail::bind_vxm_shape<TV, TG, typename S::value_type>(typeid(VxmTableKey<S, TV, TG>), resolver, semiring,
                                                         vector_type, graph_type, balance);
}

// The key of a closure's table: its semiring.
template <class S>
struct ClosureTableKey {};

// Binds the closures over the semiring S (named `semiring`, its values `value_type`) under `schedule`,
// with predecessors or not, to the resolver's kernels. The resolver must outlive the table's first
// use.
template <class S>
void bind_closure_kernels(const DeviceKernelResolver& resolver, const std::string& semiring,
                          const std::string& value_type, const gpu::ClosureSchedule& schedule, bool predecessors) {
  using V = typename S::value_type;
  detail::add_kernel_table_step(
      typeid(ClosureTableKey<S>),
      [&resolver, names = closure_kernel_names(semiring, value_type, sizeof(V), schedule, predecessors)](
          std::shared_ptr<void>& stored) {
        if (!stored) stored = std::make_shared<gpu::ClosureKernelTable<V>>(gpu::closure_table_facts<S>());
        detail::bind_closure_names(*static_cast<gpu::ClosureKernelTable<V>*>(stored.get()), names, resolver);
      });
}

template <class S>
const gpu::ClosureKernelTable<typename S::value_type>& registered_closure_kernels() {
  const std::shared_ptr<void> stored = detail::kernel_table(typeid(ClosureTableKey<S>));
  if (!stored)
    throw Error(ErrorKind::internal, std::string("no GPU closure kernels were bound for the semiring ") + typeid(S).name());
  return *static_cast<const gpu::ClosureKernelTable<typename S::value_type>*>(stored.get());
}

// The key of a paths table: its semiring and graph type.
template <class S, class TG>
struct PathsTableKey {};

// Binds single-source paths over the semiring S (named `semiring`, its values `value_type`) on graphs
// of TG (named `graph_type`) under `schedule` to the resolver's kernels. The resolver must outlive
// the table's first use.
template <class S, class TG>
void bind_paths_kernels(const DeviceKernelResolver& resolver, const std::string& semiring,
                        const std::string& value_type, const std::string& graph_type,
                        const gpu::SsspSchedule& schedule) {
  using Table = gpu::PathsKernelTable<typename S::value_type, TG>;
  detail::add_kernel_table_step(
      typeid(PathsTableKey<S, TG>),
      [&resolver, names = paths_kernel_names(semiring, value_type, graph_type, schedule)](std::shared_ptr<void>& stored) {
        if (!stored) stored = std::make_shared<Table>();
        detail::bind_paths_names(*static_cast<Table*>(stored.get()), names, resolver);
      });
}

template <class S, class TG>
const gpu::PathsKernelTable<typename S::value_type, TG>& registered_paths_kernels() {
  const std::shared_ptr<void> stored = detail::kernel_table(typeid(PathsTableKey<S, TG>));
  if (!stored)
    throw Error(ErrorKind::internal, std::string("no GPU paths kernels were bound for the semiring ") + typeid(S).name());
  return *static_cast<const gpu::PathsKernelTable<typename S::value_type, TG>*>(stored.get());
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
