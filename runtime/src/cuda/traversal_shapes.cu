// The BFS of gql/device/traversal/traversal.hpp for every graph element type, so that host code compiled
// without nvcc (the JIT's) can run a spec's recognized BFS loop on the GPU.
#include <cstdint>

#include "../element_types.hpp"
#include "gql/device/traversal/traversal.hpp"

namespace gql::gpu {

#define GQL_BFS_LEVELS(TG)                                                                                      \
  template Vector<int32_t> bfs_levels<TG>(const Csr<TG>&, const Csr<TG>&, int64_t, const DirectionOptions&, \
                                          TraversalStats*, const BfsSchedule&, Stream);                         \
  template void bfs_levels<TG>(Resident<Vector<int32_t>>&, Resident<Csr<TG>>&, int64_t, const DirectionOptions&, \
                               bool, TraversalStats*, const BfsSchedule&, KernelContext&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_BFS_LEVELS)
#undef GQL_BFS_LEVELS

}  // namespace gql::gpu
