// The kernels of one SpGEMM shape as a table of handles (gql/device/kernel_handle.hpp). Ahead-of-time programs fill the table with the
// addresses of the kernel templates' instantiations (gql/device/spgemm/spgemm_kernels.hpp); the JIT fills
// it with kernels NVRTC built and the library's precompiled ones (gql/device/jit_kernels.hpp); the
// driver launches whichever it is given.
// Host code; compiles with nvcc or a host compiler (it names the kernels' parameter types only).
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>

#include "gql/device.hpp"
#include "gql/device/csr_view.cuh"
#include "gql/device/kernel_handle.hpp"
#include "gql/device/spgemm/spgemm_bin_limits.cuh"
#include "gql/device/spgemm/spgemm_mask.cuh"
#include "gql/limits.hpp"

namespace gql {

// The driver's fixed kernel shapes (the row classes' limits that depend on them are checked
// against the plan). What depends on the value type depends only on its size, so that code which
// knows a value type only by its size (the JIT naming kernels for NVRTC) computes the same shapes.
struct SpgemmShapes {
  static constexpr int classify_threads = 256;
  static constexpr int tiny_threads = 64;
  static constexpr int tiny_items = 256;
  static constexpr int small_threads = 256;
  static constexpr int small_items_for(size_t value_bytes) { return value_bytes <= 8 ? 2048 : 1024; }
  template <class V>
  static constexpr int small_items = small_items_for(sizeof(V));
  static constexpr int medium_threads = 512;
  static constexpr int medium_slots = 8192;
  static constexpr int sorted_threads = 256;
  // The hybrid sort's chunk sizes the spilled rows' kernel is built for (SpgemmPlan::sorted_chunk_items).
  static constexpr std::array<int, 4> sorted_chunk_choices = gpu_sort_chunks;
  // A value type takes the chunks whose keys and values fit 32 KiB of the block's static shared
  // memory (the row's scan and the reduction take the rest of the 48 KiB): 4096 up to 4-byte
  // values, 2048 for 8 bytes, 1024 for 16.
  static constexpr int max_sorted_chunk_items_for(size_t value_bytes) {
    int chunk = sorted_chunk_choices.front();
    for (int c : sorted_chunk_choices)
      if (static_cast<size_t>(c) * (sizeof(index_t) + value_bytes) <= 32 * 1024) chunk = c;
    return chunk;
  }
  template <class V>
  static constexpr int max_sorted_chunk_items = max_sorted_chunk_items_for(sizeof(V));
  // The chunk a plan asking for `requested` sorts with: 0 takes the default (2048, swept on the
  // H200), and a chunk wider than the value type allows takes that maximum.
  static constexpr int sorted_chunk_for(int requested, size_t value_bytes) {
    const int max_chunk = max_sorted_chunk_items_for(value_bytes);
    const int chunk = requested > 0 ? requested : gpu_sort_chunk;
    return chunk < max_chunk ? chunk : max_chunk;
  }
  template <class V>
  static constexpr int sorted_chunk_items = sorted_chunk_for(0, sizeof(V));
  // The index of a chunk in sorted_chunk_choices (-1: not one of them).
  static constexpr int sorted_chunk_index(int chunk) {
    for (size_t c = 0; c < sorted_chunk_choices.size(); ++c)
      if (sorted_chunk_choices[c] == chunk) return static_cast<int>(c);
    return -1;
  }
  static constexpr int large_threads = 512;
  static constexpr int compact_threads = 256;
  static constexpr int dot_threads = 256;  // masked products by the mask's entries: a warp per entry
};

// The semiring's kernels of a product: for each entry of the table they fill, the kernel template and
// its parameters after the semiring (threads per block, and items where the template takes them).
// One list for both builds: nvcc instantiates every variant that fits the values
// (gql/device/spgemm/spgemm_kernels.hpp); the JIT names for NVRTC those a product runs and binds them
// to the same entries (gql/device/jit_kernels.hpp).
enum class SpgemmKernel { small_rows, medium_rows, medium_rows_bitmap, sorted_rows, large_rows, dot_entries };

// The template's name in gql::device::spgemm, as NVRTC's name expressions spell it.
constexpr const char* spgemm_kernel_template(SpgemmKernel kernel) {
  switch (kernel) {
    case SpgemmKernel::small_rows: return "spgemm_small_rows";
    case SpgemmKernel::medium_rows: return "spgemm_medium_rows";
    case SpgemmKernel::medium_rows_bitmap: return "spgemm_medium_rows_bitmap";
    case SpgemmKernel::sorted_rows: return "spgemm_sorted_rows";
    case SpgemmKernel::large_rows: return "spgemm_large_rows";
    case SpgemmKernel::dot_entries: break;
  }
  return "spgemm_dot_entries";
}

// The table's entries that hold a semiring's kernels.
enum class SpgemmSlot { tiny_rows, small_rows, medium_rows, medium_rows_bitmap, sorted_rows, large_rows, dot_entries };

struct SpgemmVariant {
  SpgemmSlot slot = SpgemmSlot::tiny_rows;
  SpgemmKernel kernel = SpgemmKernel::small_rows;
  int threads = 0;
  int items = 0;  // 0: the template takes no items
  int index = 0;  // sorted_rows: the chunk's index in SpgemmShapes::sorted_chunk_choices
};

// Every variant of a table whose values take value_bytes: a sorted_rows variant per chunk the shared
// memory holds for them.
inline constexpr size_t spgemm_variant_count = 6 + SpgemmShapes::sorted_chunk_choices.size();
constexpr std::array<SpgemmVariant, spgemm_variant_count> spgemm_semiring_variants(size_t value_bytes) {
  using S = SpgemmShapes;
  using K = SpgemmKernel;
  using Slot = SpgemmSlot;
  std::array<SpgemmVariant, spgemm_variant_count> out{{
      {Slot::tiny_rows, K::small_rows, S::tiny_threads, S::tiny_items},
      {Slot::small_rows, K::small_rows, S::small_threads, S::small_items_for(value_bytes)},
      {Slot::medium_rows, K::medium_rows, S::medium_threads, S::medium_slots},
      {Slot::medium_rows_bitmap, K::medium_rows_bitmap, S::medium_threads, S::medium_slots},
      {Slot::large_rows, K::large_rows, S::large_threads},
      {Slot::dot_entries, K::dot_entries, S::dot_threads},
  }};
  for (size_t c = 0; c < S::sorted_chunk_choices.size(); ++c)
    out[6 + c] = {Slot::sorted_rows, K::sorted_rows, S::sorted_threads, S::sorted_chunk_choices[c], static_cast<int>(c)};
  return out;
}

// Whether a variant is built for values of value_bytes (a sorted chunk must fit shared memory).
constexpr bool spgemm_variant_built(const SpgemmVariant& v, size_t value_bytes) {
  return v.kernel != SpgemmKernel::sorted_rows || v.items <= SpgemmShapes::max_sorted_chunk_items_for(value_bytes);
}

// The kernels of a product whose operands hold AT and BT and whose result holds V. The handles'
// types depend only on these, so one driver (gql/device/spgemm/spgemm.hpp) serves every semiring of a shape.
template <class AT, class BT, class V>
struct SpgemmKernelTable {
  using A = device::CsrView<AT>;
  using B = device::CsrView<BT>;
  using Mask = device::spgemm::MaskView;
  KernelHandle<A, B, long long*> row_bounds;
  KernelHandle<const long long*, long long, long long, long long, device::spgemm::SpgemmBinLimits, unsigned char*,
               index_t*, long long*, unsigned long long*>
      classify;
  KernelHandle<const index_t*, long long, const long long*, long long, long long*, bool> gather;
  KernelHandle<A, B, Mask, const index_t*, const long long*, index_t*, V*, offset_t*> tiny_rows, small_rows,
      medium_rows, medium_rows_bitmap;
  using SortedRows =
      KernelHandle<A, B, Mask, const index_t*, const long long*, long long, index_t*, V*, index_t*, V*, offset_t*>;
  // One per SpgemmShapes::sorted_chunk_choices; null where the chunk does not fit V's shared memory.
  std::array<SortedRows, SpgemmShapes::sorted_chunk_choices.size()> sorted_rows;
  KernelHandle<A, B, Mask, const index_t*, const long long*, int, int, index_t*, V*, unsigned long long*, long long*,
               long long*, offset_t*>
      large_rows;
  // By the mask's entries (gql/device/spgemm/spgemm_dot.cuh): B's transpose read as B.
  KernelHandle<A, B, const offset_t*, const index_t*, long long, long long, V*, unsigned char*> dot_entries;
  KernelHandle<const index_t*, const long long*, long long, const offset_t*, const index_t*, const V*, index_t*, V*>
      compact_rows;
  KernelHandle<const index_t*, const long long*, int, const long long*, const long long*, const offset_t*,
               const index_t*, const V*, index_t*, V*>
      compact_large_rows;
  KernelHandle<const offset_t*, long long, offset_t, offset_t*> shift_offsets;
};

// The entry of a table that a variant of `Slot` fills (at `index` for sorted_rows): typed, for nvcc's
// instantiations.
template <SpgemmSlot Slot, class Table>
constexpr auto& spgemm_slot(Table& t, int index) {
  if constexpr (Slot == SpgemmSlot::tiny_rows) return t.tiny_rows;
  else if constexpr (Slot == SpgemmSlot::small_rows) return t.small_rows;
  else if constexpr (Slot == SpgemmSlot::medium_rows) return t.medium_rows;
  else if constexpr (Slot == SpgemmSlot::medium_rows_bitmap) return t.medium_rows_bitmap;
  else if constexpr (Slot == SpgemmSlot::sorted_rows) return t.sorted_rows.at(static_cast<size_t>(index));
  else if constexpr (Slot == SpgemmSlot::large_rows) return t.large_rows;
  else return t.dot_entries;
}

// The address of that entry for a variant known at run time (the JIT's binding).
template <class Table>
const void*& spgemm_slot_address(Table& t, const SpgemmVariant& v) {
  switch (v.slot) {
    case SpgemmSlot::tiny_rows: return spgemm_slot<SpgemmSlot::tiny_rows>(t, v.index).address;
    case SpgemmSlot::small_rows: return spgemm_slot<SpgemmSlot::small_rows>(t, v.index).address;
    case SpgemmSlot::medium_rows: return spgemm_slot<SpgemmSlot::medium_rows>(t, v.index).address;
    case SpgemmSlot::medium_rows_bitmap: return spgemm_slot<SpgemmSlot::medium_rows_bitmap>(t, v.index).address;
    case SpgemmSlot::sorted_rows: return spgemm_slot<SpgemmSlot::sorted_rows>(t, v.index).address;
    case SpgemmSlot::large_rows: return spgemm_slot<SpgemmSlot::large_rows>(t, v.index).address;
    case SpgemmSlot::dot_entries: break;
  }
  return spgemm_slot<SpgemmSlot::dot_entries>(t, v.index).address;
}

// The entries that depend on the element types alone (bounds, classes, compaction); the
// semiring's entries stay null. Defined in gql/device/spgemm/spgemm_kernels.hpp (nvcc); the runtime
// library holds it for the shapes of gql/device/product_shapes.hpp.
template <class AT, class BT, class V>
SpgemmKernelTable<AT, BT, V> spgemm_shape_kernels();

// A semiring's table.
template <class S>
using SpgemmKernels = SpgemmKernelTable<typename S::a_type, typename S::b_type, typename S::value_type>;

// The element types of a product without its operators: what the driver needs of a semiring.
template <class AT, class BT, class V>
struct SpgemmTypes {
  using a_type = AT;
  using b_type = BT;
  using value_type = V;
};

}  // namespace gql
