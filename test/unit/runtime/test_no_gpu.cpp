// Without a usable GPU, a CUDA call says so before CUDA's own words ("driver version is insufficient",
// which is what CUDA reports when no NVIDIA driver is loaded at all). Skipped where a GPU is present.
#include <gtest/gtest.h>

#include <string>

#if GQL_HAVE_CUDA
#include "gql/device.hpp"

TEST(NoGpu, ACudaCallSaysThatNoGpuCanBeUsed) {
  if (gql::device_count() > 0) GTEST_SKIP() << "a GPU is present";
  try {
    const gql::Stream stream;
    FAIL() << "a stream was made without a GPU";
  } catch (const gql::Error& e) {
    EXPECT_EQ(e.kind(), gql::ErrorKind::cuda);
    EXPECT_NE(std::string(e.what()).find("no CUDA GPU can be used on this machine"), std::string::npos) << e.what();
  }
}
#else
TEST(NoGpu, NeedsTheCudaToolkit) { GTEST_SKIP() << "built without CUDA"; }
#endif
