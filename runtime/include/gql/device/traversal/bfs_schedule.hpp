// How a device BFS steps (gql/device/traversal/bfs.hpp), never what it finds: the schedule generated code
// writes. Host-compilable, so that the JIT's host code (no nvcc) can call the BFS the runtime
// library holds precompiled (gql/device/traversal/traversal.hpp).
#pragma once

#include "gql/device/traversal/load_balance.cuh"

namespace gql::gpu {

using gql::LoadBalance;

enum class BfsKernel {
  frontier,      // push from a queue or pull into a bitmap, as DirectionOptions choose
  edge_centric,  // every edge of the graph at every step (the seed's kernel), for comparison
};

// What a step writes the next frontier as: automatic (a queue after a push step, a bitmap after a
// pull step: what each reads next if the direction stays), always a queue, or always a bitmap.
enum class FrontierFormat { automatic, sparse, bitmap };

inline const char* to_string(FrontierFormat format) {
  switch (format) {
    case FrontierFormat::sparse: return "sparse";
    case FrontierFormat::bitmap: return "bitmap";
    case FrontierFormat::automatic: break;
  }
  return "auto";
}

struct BfsSchedule {
  BfsKernel kernel = BfsKernel::frontier;
  LoadBalance balance = LoadBalance::edge;  // how push steps map the frontier's edges to threads
  FrontierFormat frontier = FrontierFormat::automatic;
  // Push steps over frontiers of at most 32768 edges past the first batch_levels steps (deep
  // searches: road graphs, thousands of levels) are queued up to this many at once, a warp per
  // vertex, the host reading their counters once per batch; 1: a host wait per level.
  int batch_levels = 16;
};

}  // namespace gql::gpu
