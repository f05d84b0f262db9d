// Bounds and defaults that the compiler's checks and the runtime share, so each is written once: sema
// validates and fills in schedules from them, the runtime builds and runs its kernels by them, and
// the plan's prose prints them.
#pragma once

#include <array>
#include <cstdint>

namespace gql {

// The most threads a schedule's `threads` directive and a program's --threads take.
inline constexpr int max_threads = 4096;

// The GPU SpGEMM's row classes by default (gql::SpgemmPlan; the cuda `rows` directive's default,
// swept on the H200): rows of at least gpu_large_row_products products take dense accumulators,
// those of at least gpu_medium_row_products_min the shared-memory hash, the others are sorted in
// shared memory, and rows spilled to global memory are sorted in chunks of gpu_sort_chunk.
inline constexpr int64_t gpu_large_row_products = 4096;
inline constexpr int64_t gpu_medium_row_products_min = 2049;
inline constexpr int gpu_sort_chunk = 2048;
// The chunks the spilled rows' sort is built for (a block's shared memory holds no more).
inline constexpr std::array<int, 4> gpu_sort_chunks{512, 1024, 2048, 4096};

// The CPU SpGEMM's automatic accumulator: a row that can hold fewer than n_cols / this entries takes
// the hash accumulator, the others the dense one.
inline constexpr int64_t cpu_hash_row_divisor = 256;

}  // namespace gql
