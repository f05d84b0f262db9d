// What the CUDA generator tells the JIT's NVRTC path about a module: its GPU products (semiring,
// element types, value size on the device, sort chunk), closures (semiring, value type, schedule,
// predecessors) and single-source paths (semiring, types, schedule), and a device source that holds
// the semirings and no host code.
#include <gtest/gtest.h>

#include "gql/compiler/codegen.hpp"
#include "gql/compiler/compiler.hpp"
#include "gql/error.hpp"

namespace gql::compiler {
namespace {

CudaDeviceParts parts_of(const std::string& spec) {
  Options options;
  options.target = ir::Target::cuda;
  Compiler c(options);
  EXPECT_TRUE(c.compile_source("parts.gql", spec)) << c.rendered_diagnostics();
  CodegenOptions codegen;
  codegen.source_name = "parts.gql";
  return cuda_device_parts(*c.module(), codegen);
}

TEST(CudaDeviceParts, ListsEachProductWithItsTypesAndChunk) {
  const CudaDeviceParts parts = parts_of(R"(
semiring count(a: bool, b: bool) -> u64 { con(a, b) = 1; agg = sum; }
semiring reach(a: bool, b: bool) -> bool { con(a, b) = true; agg = any; }
kernel two(G: graph<bool>) -> (graph<u64>, graph<bool>) {
  let C: graph<u64> = G * G over count;
  let R: graph<bool> = G * G over reach;
  return (C, R);
} schedule cuda {
  rows { large >= 4096: dense; small: sort(chunk = 1024); }
}
)");
  ASSERT_EQ(parts.products.size(), 2u);
  EXPECT_EQ(parts.products[0].semiring, "count_bool_bool_u64");
  EXPECT_EQ(parts.products[0].a_type, "bool");
  EXPECT_EQ(parts.products[0].value_type, "uint64_t");
  EXPECT_EQ(parts.products[0].value_bytes, 8);
  EXPECT_EQ(parts.products[0].sorted_chunk, 1024);
  EXPECT_EQ(parts.products[1].value_type, "bool");
  EXPECT_EQ(parts.products[1].value_bytes, 1);  // bool results are bytes on the device
  // The semirings for NVRTC, with the kernel templates' headers and no host code.
  EXPECT_NE(parts.source.find("struct count_bool_bool_u64"), std::string::npos);
  EXPECT_NE(parts.source.find("struct reach_bool_bool_bool"), std::string::npos);
  EXPECT_NE(parts.source.find("#include <gql/device/spgemm/spgemm_small_rows.cuh>"), std::string::npos);
  EXPECT_EQ(parts.source.find("gql::Csr"), std::string::npos);
  EXPECT_EQ(parts.source.find("#include <vector>"), std::string::npos);
}

TEST(CudaDeviceParts, ListsVectorProductsWithTheirOperandsTypes) {
  const CudaDeviceParts parts = parts_of(R"(
semiring first(a: f64, b: bool) -> f64 { con(a, b) = a; agg = sum; }
semiring second(a: bool, b: f64) -> f64 { con(a, b) = b; agg = sum; }
kernel spread(G: graph<bool>, v: vector<f64>) -> (vector<f64>, vector<f64>) {
  let pushed: vector<f64> = v * G over first;
  let pulled: vector<f64> = G * v over second;
  return (pushed, pulled);
} schedule cuda { balance warp; }
)");
  ASSERT_EQ(parts.products.size(), 2u);
  EXPECT_EQ(parts.products[0].kind, "vxm");
  EXPECT_EQ(parts.products[1].kind, "mxv");
  for (const GpuProduct& p : parts.products) {
    EXPECT_EQ(p.vector_type, "double");
    EXPECT_EQ(p.graph_type, "bool");
    EXPECT_EQ(p.result_type, "double");
    EXPECT_EQ(p.balance, LoadBalance::warp);
  }
  EXPECT_NE(parts.source.find("#include <gql/device/traversal/vxm_kernels.cuh>"), std::string::npos);
}

TEST(CudaDeviceParts, DescribesClosuresByTheirSchedules) {
  const CudaDeviceParts parts = parts_of(R"(
semiring min_plus(a: f32, b: f32) -> f32 { con(a, b) = a + b; agg = min; }
kernel apsp(D: matrix<f32>) -> matrix<f32> {
  return closure(D over min_plus);
} schedule cuda { tile 32; per_thread 2 packed; }
kernel apsp_paths(D: matrix<f32>) -> (matrix<f32>, matrix<i32>) {
  return closure(D over min_plus, paths);
}
)");
  EXPECT_TRUE(parts.products.empty());
  ASSERT_EQ(parts.closures.size(), 2u);
  const GpuClosure& shared = parts.closures[0];
  EXPECT_EQ(shared.semiring, "min_plus_f32_f32_f32");
  EXPECT_EQ(shared.value_type, "float");
  EXPECT_EQ(shared.value_bytes, 4);
  EXPECT_EQ(shared.tile, 32);
  EXPECT_EQ(shared.per_thread, 2);
  EXPECT_FALSE(shared.predecessors);
  EXPECT_TRUE(parts.closures[1].predecessors);
  EXPECT_EQ(parts.closures[1].per_thread, 0);  // the register design
  EXPECT_NE(parts.source.find("#include <gql/device/closure/closure_kernels.cuh>"), std::string::npos);
  EXPECT_NE(parts.source.find("struct min_plus_f32_f32_f32"), std::string::npos);
}

TEST(CudaDeviceParts, DescribesARecognizedPathsLoop) {
  const CudaDeviceParts parts = parts_of(R"(
semiring min_plus(a: f64, b: f64) -> f64 { con(a, b) = a + b; agg = min; }
fn differs(a: f64, b: f64) -> bool = a != b;
kernel sssp(G: graph<f64>, src: vertex) -> vector<f64> {
  var dist = vector<f64>(rows(G));
  dist[src] = 0.0;
  var changed = true;
  var rounds = 0;
  while (changed && rounds < rows(G)) {
    @relax var reached = dist * G over min_plus;
    var better = union(dist, reached, min);
    changed = nvals(better) != nvals(dist) || reduce(intersect(better, dist, differs), or);
    dist = better;
    rounds = rounds + 1;
  }
  return dist;
} schedule cuda { @relax: method delta_stepping; balance warp; }
)");
  ASSERT_EQ(parts.products.size(), 1u);  // the loop's vxm, kept as the traversal's fallback
  EXPECT_EQ(parts.products[0].kind, "vxm");
  ASSERT_EQ(parts.paths.size(), 1u);
  EXPECT_EQ(parts.paths[0].semiring, "min_plus_f64_f64_f64");
  EXPECT_EQ(parts.paths[0].value_type, "double");
  EXPECT_EQ(parts.paths[0].graph_type, "double");
  EXPECT_TRUE(parts.paths[0].delta_stepping);
  EXPECT_EQ(parts.paths[0].balance, LoadBalance::warp);
  EXPECT_NE(parts.source.find("#include <gql/device/traversal/sssp_kernels.cuh>"), std::string::npos);
  EXPECT_EQ(parts.source.find("closure_kernels.cuh"), std::string::npos);  // NVRTC parses only what it needs
}

TEST(CudaDeviceParts, ABfsOrLuNeedsNoKernelsOfItsOwn) {
  const CudaDeviceParts parts = parts_of(R"(
semiring any_pair(a: bool, b: bool) -> bool { con(a, b) = true; agg = any; }
kernel bfs(G: graph<bool>, src: vertex) -> vector<i32> {
  var depth = vector<i32>(rows(G));
  var frontier = vector<bool>(rows(G));
  frontier[src] = true;
  var d = 0;
  while (nvals(frontier) > 0) {
    depth<frontier> = d;
    frontier<!depth, replace> = frontier * G over any_pair;
    d = d + 1;
  }
  return depth;
}
)");
  // The loop is recognized as a BFS: the library's search.
  EXPECT_TRUE(parts.products.empty());
  const CudaDeviceParts lu = parts_of("kernel f(A: matrix<f64>) -> (matrix<f64>, vector<i32>) { return lu(A); }");
  EXPECT_TRUE(lu.closures.empty());  // the library's LU
  EXPECT_TRUE(lu.products.empty());
}

TEST(CudaDeviceParts, RefusesAnOpenmpModule) {
  Compiler c(Options{});
  ASSERT_TRUE(c.compile_source("cpu.gql", "kernel n(G: graph<bool>) -> u64 { return u64(nvals(G)); }"))
      << c.rendered_diagnostics();
  EXPECT_THROW((void)cuda_device_parts(*c.module(), CodegenOptions{}), Error);
}

}  // namespace
}  // namespace gql::compiler
