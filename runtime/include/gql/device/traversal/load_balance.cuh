// The traversal kernels' block size and edge tiles, and the ways a push step maps a frontier's
// out-edges to threads (gql::LoadBalance), as the kernels (frontier.cuh) and host code (schedules,
// kernel names for NVRTC) share them.
// NVRTC-compatible and host-compilable.
#pragma once

#include "gql/load_balance.hpp"

namespace gql::device::traversal {

// Threads per block of every traversal kernel (the kernels take it as a template parameter so that
// a header defines them in every translation unit without clashing); a push tile is traversal_block * tile_items edges.
inline constexpr int traversal_block = 256;
inline constexpr int tile_items = 4;
inline constexpr long long traversal_tile = static_cast<long long>(traversal_block) * tile_items;
// An edge-balanced step over a queue of at most this many vertices scans their degrees in each
// block's shared memory (8 KiB) instead of in a scan launched before it.
inline constexpr long long shared_scan_queue = 1024;

}  // namespace gql::device::traversal
