// NVRTC needs no GPU: kernels that include the runtime's device headers (embedded in the library)
// compile to CUBIN for sm_90 here; loading and running them is test/gpu's part.
#ifdef GQL_JIT_HAVE_NVRTC
#include <gtest/gtest.h>

#include <string>

#include "nvrtc_products.hpp"
#include "gql/error.hpp"
#include "nvrtc_compiler.hpp"

namespace gql::jit {
namespace {

const char* min_plus_kernel = R"(
#include "gql/device/types.cuh"
struct min_plus {
  using value_type = float;
  static constexpr gql::Monoid monoid = gql::Monoid::min;
  GQL_HD static float con(float a, float b) { return a + b; }
  GQL_HD static float agg(float x, float y) { return x < y ? x : y; }
};
extern "C" __global__ void relax(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = min_plus::agg(c[i], min_plus::con(a[i], b[i]));
}
)";

TEST(Nvrtc, CompilesKernelsWithEmbeddedHeadersToCubin) {
  const CudaBinary binary = nvrtc_compile(min_plus_kernel, "relax.cu", 90, nvrtc_default_options());
  EXPECT_TRUE(binary.is_cubin);
  EXPECT_EQ(binary.arch, 90);
  ASSERT_GT(binary.bytes.size(), 4u);
  EXPECT_EQ(binary.bytes.substr(0, 4), "\x7f" "ELF");
  EXPECT_NE(binary.bytes.find("relax"), std::string::npos);  // the kernel's symbol
}

TEST(Nvrtc, ErrorsCarryTheLog) {
  try {
    (void)nvrtc_compile("extern \"C\" __global__ void k() { undeclared(); }", "bad.cu", 90, nvrtc_default_options());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::jit);
    EXPECT_NE(e.reason().find("undeclared"), std::string::npos) << e.reason();
  }
}

TEST(Nvrtc, CacheKeyCoversSourceKernelsAndArchitecture) {
  const std::vector<std::string> kernels = {"&relax"};
  const CacheKey k = nvrtc_cache_key(min_plus_kernel, kernels, 90);
  EXPECT_EQ(k, nvrtc_cache_key(min_plus_kernel, kernels, 90));
  EXPECT_NE(k, nvrtc_cache_key(min_plus_kernel, kernels, 80));
  EXPECT_NE(k, nvrtc_cache_key(std::string(min_plus_kernel) + " ", kernels, 90));
  EXPECT_NE(k, nvrtc_cache_key(min_plus_kernel, {}, 90));
}

}  // namespace
}  // namespace gql::jit
#endif
