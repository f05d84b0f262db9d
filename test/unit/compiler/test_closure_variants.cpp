// The GPU closure's variant table (gql/closure_variants.hpp), which sema and the runtime both check
// schedules by: every variant it lists is accepted, and everything else is refused with the lists in
// the message.
#include <gtest/gtest.h>

#include <string>

#include "gql/closure_variants.hpp"

namespace gql {
namespace {

GpuClosureRefusal refusal(int tile, int rows, int cols, int per_thread, size_t value_bytes) {
  return gpu_closure_refusal({tile, rows, cols, per_thread, value_bytes});
}

TEST(ClosureVariants, EveryListedVariantIsAccepted) {
  for (const int kb : gpu_closure_k_blocks)
    for (const GpuThreadTile& t : gpu_closure_thread_tiles)
      for (const size_t bytes : {1u, 4u, 8u})
        EXPECT_EQ(refusal(kb, t.rows, t.cols, 0, bytes).why.empty(), t.holds(bytes)) << kb << " " << t.cols << " " << bytes;
  for (const GpuClosureTile& s : gpu_closure_shared_tiles) EXPECT_EQ(refusal(s.tile, 8, 8, s.per_thread, 8).why, "");
  // What the runtime fills in: the k-block, the thread tile, the shared design's tile.
  EXPECT_EQ(refusal(0, 0, 0, 0, 8).why, "");
  EXPECT_EQ(refusal(0, 8, 8, 4, 8).why, "");
}

TEST(ClosureVariants, OthersAreRefusedNamingWhatIsBuilt) {
  EXPECT_EQ(refusal(16, 8, 8, 0, 8).why,
            "the GPU closure's register tiles take a k-block (tile) of 32, 64, 128 or 256, not 16");
  const GpuClosureRefusal square = refusal(128, 16, 16, 0, 4);
  EXPECT_EQ(square.why, "the GPU closure's register tiles are 8x8 or 8x16, not 16x16");
  EXPECT_TRUE(square.register_tile);
  const GpuClosureRefusal wide = refusal(128, 8, 16, 0, 8);
  EXPECT_EQ(wide.why, "register_tile 8x16 holds values of 4 bytes or fewer (this closure's are 8); 8x8 holds any");
  EXPECT_TRUE(wide.register_tile);
  EXPECT_EQ(refusal(128, 8, 8, 4, 8).why, "the shared-tile GPU closure (per_thread) takes tile 32 or 64, not 128");
  EXPECT_EQ(refusal(64, 8, 8, 2, 8).why, "tile 64 takes per_thread 4 or 8, not 2");
  EXPECT_EQ(refusal(32, 8, 8, 3, 8).why, "tile 32 takes per_thread 1, 2 or 4, not 3");
  EXPECT_FALSE(refusal(32, 8, 8, 3, 8).register_tile);
}

}  // namespace
}  // namespace gql
