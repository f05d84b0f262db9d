// The traversal kernels' block size and the ways a push step maps a frontier's out-edges to threads,
// as the kernels (frontier.cuh) and host code (schedules, kernel names for NVRTC) share them.
// NVRTC-compatible and host-compilable.
#pragma once

namespace gql::device {

// Threads per block of every traversal kernel (the kernels take it as a template parameter so that
// a header defines them in every translation unit without clashing); a push tile is traversal_block * tile_items edges.
inline constexpr int traversal_block = 256;
inline constexpr int tile_items = 4;
inline constexpr long long traversal_tile = static_cast<long long>(traversal_block) * tile_items;
// An edge-balanced step over a queue of at most this many vertices scans their degrees in each
// block's shared memory (8 KiB) instead of in a scan launched before it.
inline constexpr long long shared_scan_queue = 1024;

// How a push step maps the frontier's out-edges to threads (a schedule's `balance`): a thread per
// queued vertex, a warp per vertex, a block per vertex, or equal tiles of edges whatever the
// degrees (the default: a hub's list is spread over many blocks).
enum class LoadBalance : int { thread, warp, block, edge };
inline constexpr int load_balance_count = 4;

// The name a schedule gives a load balance (and the enumerator's, for kernel names).
constexpr const char* balance_name(LoadBalance balance) {
  switch (balance) {
    case LoadBalance::thread: return "thread";
    case LoadBalance::warp: return "warp";
    case LoadBalance::block: return "block";
    case LoadBalance::edge: break;
  }
  return "edge";
}

}  // namespace gql::device
