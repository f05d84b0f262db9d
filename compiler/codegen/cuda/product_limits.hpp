// A product's row classes as the GPU driver takes them (gql::gpu::ProductOptions): dense
// accumulators take the rows of the first class with a dense accumulator, the shared-memory hash
// those of the first hash class below it, and the first sort class's chunk is the spilled rows' sort
// chunk; 0 leaves the runtime's default (SpgemmPlan).
#pragma once

#include <cstdint>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::codegen {

namespace cuda {
struct ProductLimits {
  int64_t large = 0;
  int64_t medium = 0;
  int64_t sort_chunk = 0;
};
}  // namespace cuda

inline cuda::ProductLimits cuda_product_limits(const ir::ProductSchedule& p) {
  cuda::ProductLimits limits;
  for (const ir::RowClass& c : p.rows) {
    if (limits.large == 0 && c.accumulator == ir::Accumulator::dense && c.min_work > 0) limits.large = c.min_work;
    if (limits.medium == 0 && c.accumulator == ir::Accumulator::hash && c.min_work > 0) limits.medium = c.min_work;
    if (limits.sort_chunk == 0 && c.accumulator == ir::Accumulator::sort) limits.sort_chunk = c.chunk;
  }
  return limits;
}

}  // namespace gql::compiler::codegen
