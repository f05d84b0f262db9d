// The kernels of one SpGEMM instantiation as a table of untyped handles, and the one helper that
// launches them (cudaLaunchKernel with the kernel's address). The table's AOT entries are the
// addresses of the templates' instantiations; a module loaded at run time can fill the same table
// with its own entry points, and the driver launches whichever it is given. Each handle keeps its
// kernel's parameter types, so a launch with mismatched arguments does not compile.
// Host code compiled by nvcc.
#pragma once

#include <array>
#include <type_traits>
#include <utility>

#include "gql/device.hpp"
#include "gql/device/spgemm_bins.cuh"
#include "gql/device/spgemm_bound.cuh"
#include "gql/device/spgemm_compact.cuh"
#include "gql/device/spgemm_large_rows.cuh"
#include "gql/device/spgemm_medium_rows.cuh"
#include "gql/device/spgemm_small_rows.cuh"

namespace gql {

template <class... Params>
struct KernelHandle {
  const void* address = nullptr;
};

template <class... Params>
KernelHandle<Params...> kernel_handle(void (*kernel)(Params...)) {
  return {reinterpret_cast<const void*>(kernel)};
}

// Launches `kernel` on `stream` (nothing when the grid is empty), allowing its dynamic shared memory
// first.
template <class... Params>
void launch(const KernelHandle<Params...>& kernel, unsigned long long blocks, int threads, size_t shared_bytes,
            const Stream& stream, std::type_identity_t<Params>... args) {
  if (blocks == 0) return;
  if (blocks > 0x7fffffffull) throw Error(ErrorKind::usage, "spgemm: a launch of more than 2^31 - 1 blocks");
  if (shared_bytes > 0)  // static and dynamic shared memory together may pass the default 48 KB
    GQL_CUDA_CHECK(cudaFuncSetAttribute(kernel.address, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(shared_bytes)));
  void* arguments[] = {static_cast<void*>(&args)...};
  GQL_CUDA_CHECK(cudaLaunchKernel(kernel.address, dim3(static_cast<unsigned>(blocks)), dim3(static_cast<unsigned>(threads)),
                                  arguments, shared_bytes, stream.get()));
}

// The driver's fixed kernel shapes (the row classes' limits that depend on them are checked
// against the plan).
struct SpgemmShapes {
  static constexpr int classify_threads = 256;
  static constexpr int tiny_threads = 64;
  static constexpr int tiny_items = 256;
  static constexpr int small_threads = 256;
  template <class V>
  static constexpr int small_items = sizeof(V) <= 8 ? 2048 : 1024;
  static constexpr int medium_threads = 512;
  static constexpr int medium_slots = 8192;
  static constexpr int sorted_threads = 256;
  // The hybrid sort's chunk sizes the spilled rows' kernel is built for (SpgemmPlan::sorted_chunk_items).
  static constexpr std::array<int, 4> sorted_chunk_choices{512, 1024, 2048, 4096};
  // A value type takes the chunks whose keys and values fit 32 KiB of the block's static shared
  // memory (the row's scan and the reduction take the rest of the 48 KiB): 4096 up to 4-byte
  // values, 2048 for 8 bytes, 1024 for 16.
  template <class V>
  static constexpr int max_sorted_chunk_items = [] {
    int chunk = sorted_chunk_choices.front();
    for (int c : sorted_chunk_choices)
      if (static_cast<size_t>(c) * (sizeof(index_t) + sizeof(V)) <= 32 * 1024) chunk = c;
    return chunk;
  }();
  // The default chunk (swept on the H200).
  template <class V>
  static constexpr int sorted_chunk_items = max_sorted_chunk_items<V> < 2048 ? max_sorted_chunk_items<V> : 2048;
  static constexpr int large_threads = 512;
  static constexpr int compact_threads = 256;
};

template <class S>
struct SpgemmKernels {
  using V = typename S::value_type;
  using A = device::CsrView<typename S::a_type>;
  using B = device::CsrView<typename S::b_type>;
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
  KernelHandle<const index_t*, const long long*, long long, const offset_t*, const index_t*, const V*, index_t*, V*>
      compact_rows;
  KernelHandle<const index_t*, const long long*, int, const long long*, const long long*, const offset_t*,
               const index_t*, const V*, index_t*, V*>
      compact_large_rows;
  KernelHandle<const offset_t*, long long, offset_t, offset_t*> shift_offsets;
};

// The spilled rows' kernels for each chunk that fits S's values.
template <class S, size_t... Choice>
void instantiate_sorted_rows(SpgemmKernels<S>& k, std::index_sequence<Choice...>) {
  using Shapes = SpgemmShapes;
  constexpr int max_chunk = Shapes::max_sorted_chunk_items<typename S::value_type>;
  auto one = [&]<size_t C>(std::integral_constant<size_t, C>) {
    constexpr int chunk = Shapes::sorted_chunk_choices[C];
    if constexpr (chunk <= max_chunk)
      k.sorted_rows[C] = kernel_handle(&device::spgemm_sorted_rows<S, Shapes::sorted_threads, chunk>);
  };
  (one(std::integral_constant<size_t, Choice>{}), ...);
}

// The table of the kernel templates instantiated for S (ahead of time).
template <class S>
SpgemmKernels<S> spgemm_kernels() {
  using V = typename S::value_type;
  using Shapes = SpgemmShapes;
  SpgemmKernels<S> k;
  k.row_bounds = kernel_handle(&device::spgemm_row_bounds<typename S::a_type, typename S::b_type>);
  k.classify = kernel_handle(&device::spgemm_classify_rows<Shapes::classify_threads>);
  k.gather = kernel_handle(&device::spgemm_gather_by_row<long long>);
  k.tiny_rows = kernel_handle(&device::spgemm_small_rows<S, Shapes::tiny_threads, Shapes::tiny_items>);
  k.small_rows = kernel_handle(&device::spgemm_small_rows<S, Shapes::small_threads, Shapes::small_items<V>>);
  k.medium_rows = kernel_handle(&device::spgemm_medium_rows<S, Shapes::medium_threads, Shapes::medium_slots>);
  k.medium_rows_bitmap =
      kernel_handle(&device::spgemm_medium_rows_bitmap<S, Shapes::medium_threads, Shapes::medium_slots>);
  instantiate_sorted_rows(k, std::make_index_sequence<Shapes::sorted_chunk_choices.size()>{});
  k.large_rows = kernel_handle(&device::spgemm_large_rows<S, Shapes::large_threads>);
  k.compact_rows = kernel_handle(&device::spgemm_compact_rows<V, Shapes::compact_threads>);
  k.compact_large_rows = kernel_handle(&device::spgemm_compact_large_rows<V, Shapes::compact_threads>);
  k.shift_offsets = kernel_handle(&device::spgemm_shift_offsets<offset_t>);
  return k;
}

}  // namespace gql
