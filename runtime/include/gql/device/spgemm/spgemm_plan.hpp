// The schedule of one SpGEMM on the GPU (SpgemmPlan) and what it did (DeviceSpgemmStats), apart
// from the driver so that host code built without nvcc (the JIT's) can plan products and report them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "gql/limits.hpp"

namespace gql {

// The schedule of one multiplication (every value changes speed and memory only, never results).
// A row's class is chosen by its bound b (its number of products).
struct SpgemmPlan {
  // b >= large_row_products: dense accumulators over column chunks (at most 2^31 - 1).
  int64_t large_row_products = gpu_large_row_products;
  // b <= medium_row_products (and above small_row_products): the shared-memory hash table (at most
  // SpgemmShapes::medium_slots); rows between this and large_row_products spill to the hybrid sort
  // in global memory.
  int64_t medium_row_products = gpu_large_row_products;
  // b <= small_row_products: sorted in shared memory (at most SpgemmShapes::small_items).
  int64_t small_row_products = gpu_medium_row_products_min - 1;
  // b <= tiny_row_products: the same with a block of 64 threads (at most SpgemmShapes::tiny_items).
  int64_t tiny_row_products = 256;
  // Shared memory of a large row's column chunk (the dense values; the chunk's width follows).
  int large_chunk_bytes = 96 * 1024;
  // Device memory one batch may take (scratch and C); 0 = 90% of the budget available.
  size_t batch_bytes = 0;
  // Medium rows leave the table in column order through a shared-memory bitmap of C's columns when
  // C has at most this many columns (else they are sorted).
  int64_t medium_bitmap_columns = int64_t{1} << 18;
  // The spilled rows' hybrid sort sorts chunks of this many entries in shared memory before merging
  // them: one of SpgemmShapes::sorted_chunk_choices, or 0 for the default (sorted_chunk_items). A
  // chunk wider than the value type's shared memory allows (max_sorted_chunk_items) takes that
  // maximum.
  int sorted_chunk_items = 0;
};

// What the last spgemm did (for --explain and the benchmarks).
struct DeviceSpgemmStats {
  int64_t products = 0;
  int64_t tiny_rows = 0;
  int64_t small_rows = 0;
  int64_t medium_rows = 0;
  int64_t sorted_rows = 0;
  int64_t large_rows = 0;
  int64_t large_chunks = 0;  // column chunks per large row
  int64_t chunk_columns = 0;
  int64_t sorted_chunk_items = 0;  // the spilled rows' sort chunk
  int64_t batches = 0;
  int64_t scratch_bytes = 0;  // the largest batch's scratch
  int64_t result_bytes = 0;   // C's columns and values
  bool medium_bitmap = false;  // medium rows emitted through a bitmap of C's columns (else sorted)
  // Device time of the phases (ms): bounds, classes and scratch; the row classes' kernels; C's
  // offsets, allocation and compaction.
  double classify_ms = 0;
  double accumulate_ms = 0;
  double assemble_ms = 0;
};

// Adds the counts of one multiplication (e.g. one block of rows) to a total.
inline void accumulate(DeviceSpgemmStats& total, const DeviceSpgemmStats& s) {
  total.products += s.products;
  total.tiny_rows += s.tiny_rows;
  total.small_rows += s.small_rows;
  total.medium_rows += s.medium_rows;
  total.sorted_rows += s.sorted_rows;
  total.large_rows += s.large_rows;
  total.large_chunks = s.large_chunks;
  total.chunk_columns = s.chunk_columns;
  total.sorted_chunk_items = s.sorted_chunk_items;
  total.batches += s.batches;
  total.scratch_bytes = std::max(total.scratch_bytes, s.scratch_bytes);
  total.result_bytes += s.result_bytes;
  total.medium_bitmap = s.medium_bitmap;
  total.classify_ms += s.classify_ms;
  total.accumulate_ms += s.accumulate_ms;
  total.assemble_ms += s.assemble_ms;
}

// One line for --explain: the classes, their counts and the memory plan.
inline std::string describe(const DeviceSpgemmStats& s) {
  return std::to_string(s.products) + " products; rows: " + std::to_string(s.tiny_rows) + " tiny + " +
         std::to_string(s.small_rows) + " small (bitonic sort in shared memory), " + std::to_string(s.medium_rows) +
         " medium (shared-memory hash, " + (s.medium_bitmap ? "bitmap" : "sorted") + " emission), " +
         std::to_string(s.sorted_rows) + " spilled (hybrid sort in global memory, chunks of " +
         std::to_string(s.sorted_chunk_items) + "), " +
         std::to_string(s.large_rows) + " large (dense accumulators, " + std::to_string(s.large_chunks) +
         " chunks of " + std::to_string(s.chunk_columns) + " columns each); memory: " +
         std::to_string(s.scratch_bytes >> 20) + " MiB scratch, " + std::to_string(s.result_bytes >> 20) +
         " MiB result, " + std::to_string(s.batches) + " batch" + (s.batches == 1 ? "" : "es");
}

}  // namespace gql
