#include "gql/device/jit_kernels.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <typeindex>
#include <vector>

#include "gql/device/product_shapes.hpp"

namespace gql {

bool spgemm_shape_precompiled(std::string_view a_type, std::string_view b_type, std::string_view value_type) {
#define GQL_MATCH_SHAPE(A, B, V, S) \
  if (a_type == #A && b_type == #B && value_type == #S) return true;
  GQL_SPGEMM_PRECOMPILED_SHAPES(GQL_MATCH_SHAPE)
#undef GQL_MATCH_SHAPE
  return false;
}

bool vxm_shape_precompiled(std::string_view vector_type, std::string_view graph_type, std::string_view value_type,
                           std::string_view result_type) {
#define GQL_MATCH_SHAPE(TV, TG, V, TW) \
  if (vector_type == #TV && graph_type == #TG && value_type == #V && result_type == #TW) return true;
  GQL_VXM_PRECOMPILED_SHAPES(GQL_MATCH_SHAPE)
#undef GQL_MATCH_SHAPE
  return false;
}

SpgemmSemiringKernelNames spgemm_semiring_kernel_names(const std::string& semiring, size_t value_bytes,
                                                       int requested_chunk) {
  using Shapes = SpgemmShapes;
  SpgemmSemiringKernelNames names;
  names.sorted_chunk = Shapes::sorted_chunk_for(requested_chunk, value_bytes);
  if (Shapes::sorted_chunk_index(names.sorted_chunk) < 0)
    throw Error(ErrorKind::usage, "spgemm: sorted chunk " + std::to_string(requested_chunk) +
                                      " is not one the kernels are built for");
  for (const SpgemmVariant& v : spgemm_semiring_variants(value_bytes)) {
    if (v.slot == SpgemmSlot::sorted_rows && v.items != names.sorted_chunk) continue;
    names.kernels.push_back({v, "&gql::device::spgemm::" + std::string(spgemm_kernel_template(v.kernel)) + "<" +
                                    semiring + ", " + std::to_string(v.threads) +
                                    (v.items > 0 ? ", " + std::to_string(v.items) : std::string()) + ">"});
  }
  return names;
}

const std::string& SpgemmSemiringKernelNames::of(SpgemmSlot slot) const {
  for (const SpgemmKernelName& k : kernels)
    if (k.variant.slot == slot) return k.expression;
  throw Error(ErrorKind::internal, "spgemm: no kernel fills a slot of the table");
}

std::string vxm_push_kernel_name(const std::string& semiring, const std::string& vector_type,
                                 const std::string& graph_type, LoadBalance balance) {
  return "&gql::device::traversal::vxm_push<" + std::to_string(device::traversal::traversal_block) +
         ", gql::LoadBalance::" + balance_name(balance) + ", " + semiring + ", " + vector_type + ", " +
         graph_type + ">";
}

std::vector<ClosureKernelName> closure_kernel_names(const std::string& semiring, const std::string& value_type,
                                                    size_t value_bytes, const gpu::ClosureSchedule& schedule,
                                                    bool predecessors) {
  using Slot = gpu::ClosureSlot;
  const std::string ns = "gql::device::closure::";
  const std::string of_values = "<" + semiring + ", " + value_type;
  const auto arguments = [&](const gpu::ClosureVariant& v) -> std::string {
    const auto at = static_cast<size_t>(v.index);
    const auto tile_args = [&] {
      const gpu::ClosureTileShape& shape = gpu::closure_tile_shapes.at(at);
      return of_values + ", " + std::to_string(shape.tile) + ", " + std::to_string(shape.per_thread);
    };
    switch (v.slot) {
      case Slot::fill: return "fill<" + value_type;
      case Slot::fill_predecessors: return "fill<int";
      case Slot::initial_predecessors: return "initial_predecessors" + of_values;
      case Slot::global_step: return "fw_global_step" + of_values + (v.index == 1 ? ", true" : ", false");
      case Slot::tile_diagonal: return "fw_tile_diagonal" + tile_args();
      case Slot::tile_panels: return "fw_tile_panels" + tile_args();
      case Slot::tile_rest: return "fw_tile_rest" + tile_args();
      case Slot::gemm: break;
    }
    const GpuThreadTile& tile = gpu_closure_thread_tiles.at(at);
    return "semiring_gemm" + of_values + ", " + ns + "ThreadTile<" + std::to_string(tile.rows) + ", " +
           std::to_string(tile.cols) + ">, " + (v.dpx ? ns + "dpx_capable<" + semiring + ">()" : "false");
  };
  std::vector<ClosureKernelName> out;
  // Built: whether the semiring may run DPX is the name's to settle (dpx_capable in it), not the list's.
  for (const gpu::ClosureVariant& v : gpu::closure_variants())
    if (gpu::closure_variant_built(v, value_bytes, true) && gpu::closure_variant_runs(v, schedule, predecessors))
      out.push_back({v, "&" + ns + arguments(v) + ">"});
  return out;
}

std::vector<PathsKernelName> paths_kernel_names(const std::string& semiring, const std::string& value_type,
                                                const std::string& graph_type, const gpu::SsspSchedule& schedule) {
  using Slot = gpu::PathsSlot;
  const std::string threads = std::to_string(device::traversal::traversal_block);
  const auto arguments = [&](const gpu::PathsVariant& v) -> std::string {
    switch (v.slot) {
      case Slot::init: return "paths_init<" + threads + ", " + semiring;
      case Slot::start: return "paths_start<" + value_type;
      case Slot::relax:
        return "paths_relax<" + threads + ", gql::LoadBalance::" + balance_name(v.balance) + ", " + semiring +
               ", " + graph_type;
      case Slot::relax_batched: return "paths_relax_batched<" + threads + ", " + semiring + ", " + graph_type;
      case Slot::split_near_far: return "paths_split_near_far<" + threads + ", " + value_type;
      case Slot::refill_near: return "paths_refill_near<" + threads + ", " + value_type;
      case Slot::far_least: break;
    }
    return "paths_far_least<" + threads + ", " + semiring;
  };
  std::vector<PathsKernelName> out;
  for (const gpu::PathsVariant& v : gpu::paths_variants())
    if (gpu::paths_variant_runs(v, schedule)) out.push_back({v, "&gql::device::traversal::" + arguments(v) + ">"});
  return out;
}

std::string device_semiring_name(const std::string& semiring, bool bool_values) {
  return bool_values ? "gql::device::ByteValued<" + semiring + ">" : semiring;
}

namespace detail {
namespace {
struct KernelTableEntry {
  std::vector<KernelTableStep> steps;
  std::shared_ptr<void> table;
  bool built = false;
};
std::mutex& tables_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::type_index, KernelTableEntry>& tables() {
  static std::map<std::type_index, KernelTableEntry> t;
  return t;
}
}  // namespace

void add_kernel_table_step(std::type_index semiring, KernelTableStep step) {
  std::lock_guard lock(tables_mutex());
  KernelTableEntry& entry = tables()[semiring];
  entry.steps.push_back(std::move(step));
  entry.built = false;
}

std::shared_ptr<void> kernel_table(std::type_index semiring) {
  std::lock_guard lock(tables_mutex());
  auto it = tables().find(semiring);
  if (it == tables().end()) return nullptr;
  KernelTableEntry& entry = it->second;
  if (!entry.built) {
    // All steps again, on a fresh table: a step may have been added since the last build, and a
    // step that failed (no GPU) leaves nothing half done behind.
    std::shared_ptr<void> table;
    for (const KernelTableStep& step : entry.steps) step(table);
    entry.table = std::move(table);
    entry.built = true;
  }
  return entry.table;
}
template <class A, class B, class V>
void bind_spgemm_shape(std::type_index semiring_type, const DeviceKernelResolver& resolver, const std::string& semiring,
                       int requested_chunk) {
  using Table = SpgemmKernelTable<A, B, V>;
  add_kernel_table_step(semiring_type, [&resolver, semiring, requested_chunk](std::shared_ptr<void>& stored) {
    if (!stored) stored = std::make_shared<Table>(spgemm_shape_kernels<A, B, V>());
    Table& table = *static_cast<Table*>(stored.get());
    for (const SpgemmKernelName& k : spgemm_semiring_kernel_names(semiring, sizeof(V), requested_chunk).kernels)
      spgemm_slot_address(table, k.variant) = resolver.kernel(k.expression);
  });
}

template <class TV, class TG, class V>
void bind_vxm_shape(std::type_index table_key, const DeviceKernelResolver& resolver, const std::string& semiring,
                    const std::string& vector_type, const std::string& graph_type, LoadBalance balance) {
  using Table = gpu::VxmKernelTable<TV, TG, V>;
  add_kernel_table_step(table_key, [&resolver, semiring, vector_type, graph_type, balance](std::shared_ptr<void>& stored) {
    if (!stored) stored = std::make_shared<Table>(gpu::vxm_shape_kernels<TV, TG, V>());
    static_cast<Table*>(stored.get())->push[static_cast<size_t>(balance)].address =
        resolver.kernel(vxm_push_kernel_name(semiring, vector_type, graph_type, balance));
  });
}

#define GQL_BIND_SPGEMM_SHAPE(A, B, V, S)                                                                     \
  template void bind_spgemm_shape<A, B, V>(std::type_index, const DeviceKernelResolver&, const std::string&, \
                                           int);
GQL_SPGEMM_PRECOMPILED_SHAPES(GQL_BIND_SPGEMM_SHAPE)
#undef GQL_BIND_SPGEMM_SHAPE
#define GQL_BIND_VXM_SHAPE(TV, TG, V, TW)                                                                  \
  template void bind_vxm_shape<TV, TG, V>(std::type_index, const DeviceKernelResolver&, const std::string&, \
                                          const std::string&, const std::string&, LoadBalance);
GQL_VXM_PRECOMPILED_SHAPES(GQL_BIND_VXM_SHAPE)
#undef GQL_BIND_VXM_SHAPE

}  // namespace detail

}  // namespace gql
