// The BFS of gql/device/traversal.hpp for every graph element type, so that host code compiled
// without nvcc (the JIT's) can run a spec's recognized BFS loop on the GPU.
#include <cstdint>

#include "gql/device/traversal.hpp"

namespace gql::gpu {

#define GQL_BFS_LEVELS(TG)                                                                                      \
  template Vector<int32_t> bfs_levels<TG>(const Csr<TG>&, const Csr<TG>&, int64_t, const DirectionOptions&, \
                                          TraversalStats*, const BfsSchedule&, Stream);
GQL_BFS_LEVELS(bool)
GQL_BFS_LEVELS(int8_t)
GQL_BFS_LEVELS(int16_t)
GQL_BFS_LEVELS(int32_t)
GQL_BFS_LEVELS(int64_t)
GQL_BFS_LEVELS(uint8_t)
GQL_BFS_LEVELS(uint16_t)
GQL_BFS_LEVELS(uint32_t)
GQL_BFS_LEVELS(uint64_t)
GQL_BFS_LEVELS(float)
GQL_BFS_LEVELS(double)
#undef GQL_BFS_LEVELS

}  // namespace gql::gpu
