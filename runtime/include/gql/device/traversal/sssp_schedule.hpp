// How device single-source paths (gql/device/traversal/sssp.hpp) step, never what they find: the schedule
// generated code writes. Host-compilable.
#pragma once

#include "gql/device/traversal/load_balance.cuh"

namespace gql::gpu {

using gql::LoadBalance;

enum class PathsKernel {
  bellman_ford,    // every vertex improved in a round is relaxed in the next
  delta_stepping,  // only those below a threshold, raised by delta when none is left (min semirings)
};

struct SsspSchedule {
  PathsKernel kernel = PathsKernel::bellman_ford;
  // Delta-stepping's bucket width; 0: 32 x the mean weight / the mean out-degree (a warp's worth of
  // edges per bucket and vertex). Integer values round it up to a whole step.
  double delta = 0;
  // How rounds over large frontiers map the frontier's edges to threads (small frontiers run in
  // device-driven batches, a thread per vertex, whatever it says).
  LoadBalance balance = LoadBalance::edge;
};

}  // namespace gql::gpu
