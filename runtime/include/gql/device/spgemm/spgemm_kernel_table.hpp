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

// The kernels of a product whose operands hold AT and BT and whose result holds V. The handles'
// types depend only on these, so one driver (gql/device/spgemm/spgemm.hpp) serves every semiring of a shape.
template <class AT, class BT, class V>
struct SpgemmKernelTable {
  using A = device::CsrView<AT>;
  using B = device::CsrView<BT>;
  using Mask = device::MaskView;
  KernelHandle<A, B, long long*> row_bounds;
  KernelHandle<const long long*, long long, long long, long long, device::SpgemmBinLimits, unsigned char*, index_t*,
               long long*, unsigned long long*>
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
