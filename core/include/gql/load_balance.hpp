// How a GPU push step maps a frontier's out-edges to threads (a traversal schedule's `balance`): one
// enum for the compiler's IR, the JIT's kernel names and the runtime's kernels, with one name per
// value. Includes nothing, so NVRTC compiles it as it is.
#pragma once

namespace gql {

// A thread per queued vertex, a warp per vertex, a block per vertex, or equal tiles of edges whatever
// the degrees (the default: a hub's list is spread over many blocks).
enum class LoadBalance : int { thread, warp, block, edge };
inline constexpr int load_balance_count = 4;

// The word a schedule writes, which is also the enumerator's name (kernel names spell it).
constexpr const char* balance_name(LoadBalance balance) {
  switch (balance) {
    case LoadBalance::thread: return "thread";
    case LoadBalance::warp: return "warp";
    case LoadBalance::block: return "block";
    case LoadBalance::edge: break;
  }
  return "edge";
}

}  // namespace gql
