// gql::Compiler with Target::cuda where the tests run: nvcc is here, a GPU may not be. One spec is
// compiled by nvcc into the suite's shared cache (once per build folder: nvcc takes about half a minute
// of CPU for any spec, the runtime headers being most of it, so every nvcc test here shares that one
// kernel, a product of a shape whose host driver the library does not hold); the products (a vector
// product, a masked matrix product) and closures take the NVRTC path. Their results on the GPU are
// test/gpu's part (test_jit_cuda).
#ifdef GQL_HAVE_CUDA
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

#include "gql/device.hpp"
#include "gql/gql.hpp"
#include "gql/jit.hpp"
#include "jit_test_support.hpp"

namespace gql {
namespace {

const char* const step_spec = R"(
semiring any_pair(a: bool, b: bool) -> bool { con(a, b) = true; agg = any; }
kernel step(G: graph<bool>, f: vector<bool>) -> vector<bool> {
  return f * G over any_pair;
}
)";
const char* const step_name = "jit_cuda_step.gql";

// A product of f32 operands into f64 values: the library holds no host driver for that shape, so
// nvcc builds it.
const char* const nvcc_spec = R"(
semiring wsum(a: f32, b: f32) -> f64 { con(a, b) = f64(a) * f64(b); agg = sum; }
kernel square(G: graph<f32>) -> graph<f64> {
  return G * G over wsum;
}
)";
const char* const nvcc_name = "jit_cuda_wide_product.gql";

// Closures under two schedules, one with predecessors: the NVRTC path.
const char* const closure_spec = R"(
semiring min_plus(a: f32, b: f32) -> f32 { con(a, b) = a + b; agg = min; }
kernel apsp(D: matrix<f32>) -> matrix<f32> {
  return closure(D over min_plus);
} schedule cuda { tile 32; per_thread 2; }
kernel apsp_paths(D: matrix<f32>) -> (matrix<f32>, matrix<i32>) {
  return closure(D over min_plus, paths);
}
)";
const char* const closure_name = "jit_cuda_closure.gql";

// A masked product with bool results: the NVRTC path, with ByteValued semiring kernels.
const char* const product_spec = R"(
semiring any_pair(a: bool, b: bool) -> bool { con(a, b) = true; agg = any; }
kernel two_hop_new(G: graph<bool>) -> graph<bool> {
  var C: graph<bool> = graph<bool>(rows(G), cols(G));
  C<!G, replace> = G * G over any_pair;
  return C;
}
)";
const char* const product_name = "jit_cuda_two_hop.gql";

// A product whose con and agg use every integer operator and a float-to-integer conversion: NVRTC
// compiles the language's arithmetic (gql/integer_ops.hpp) into the semiring kernels.
const char* const arithmetic_spec = R"(
semiring mixed(a: i64, b: i64) -> i64 { con(a, b) = -a * b + (a - b) / (b % 7) + i64(f64(a) * 0.5); agg = sum; }
kernel mixed_square(G: graph<i64>) -> graph<i64> {
  return G * G over mixed;
}
)";
const char* const arithmetic_name = "jit_cuda_arithmetic.gql";

// GQL_JIT_VERBOSE's lines of one Compiler.
struct Log {
  std::mutex mutex;
  std::vector<std::string> lines;
  std::string all() {
    std::lock_guard lock(mutex);
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return out;
  }
};

CompilerOptions cuda_options(Log& log) {
  CompilerOptions o;
  o.target = Target::cuda;
  o.cache_dir = test::shared_kernel_cache();
  o.verbose = true;
  o.log = [&log](const std::string& line) {
    std::lock_guard lock(log.mutex);
    log.lines.push_back(line);
  };
  return o;
}

// A module compiled for the CUDA target (compile(compiler) makes it) and what the compiler said,
// checked to name no nvcc run.
struct CompiledWithoutNvcc {
  Module module;
  std::string said;
};
template <class Compile>
CompiledWithoutNvcc compile_without_nvcc(Compile&& compile) {
  Log log;
  Compiler compiler(cuda_options(log));
  Module m = compile(compiler);
  std::string said = log.all();
  EXPECT_EQ(said.find("nvcc"), std::string::npos) << said;
  return {std::move(m), std::move(said)};
}

// What the compiler said names GPU kernels NVRTC built (or an earlier run's, from the disk cache).
void expect_nvrtc_kernels(const std::string& said) {
  EXPECT_TRUE(said.find("GPU kernel(s) built by NVRTC") != std::string::npos ||
              said.find("GPU kernel(s) reused from the disk cache") != std::string::npos)
      << said;
}

// The entry the verbose report names ("  entry PATH").
std::string entry_path(const std::string& log) {
  const size_t at = log.find("entry ");
  if (at == std::string::npos) return "";
  return log.substr(at + 6, log.find('\n', at) - at - 6);
}

ino_t inode_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

TEST(JitCuda, CompilesWithNvccIntoTheCacheAndANewProcessReusesIt) {
  Log log;
  Compiler compiler(cuda_options(log));
  const Module m = compiler.compile_source(nvcc_spec, nvcc_name);
  const std::string first = log.all();
  // The first run of the suite compiles; a rerun finds the entry of the previous one.
  EXPECT_TRUE(first.find("compiled by nvcc") != std::string::npos ||
              first.find("reused from the disk cache") != std::string::npos ||
              first.find("compiled meanwhile by another") != std::string::npos)
      << first;
  EXPECT_NE(first.find("for sm_"), std::string::npos) << first;
  const std::string entry = entry_path(first);
  ASSERT_TRUE(std::filesystem::is_regular_file(entry)) << first;
  EXPECT_EQ(std::filesystem::path(entry).extension(), ".so");
  EXPECT_EQ(std::filesystem::path(entry).parent_path().parent_path(), std::filesystem::path(test::shared_kernel_cache()));
  if (first.find("compiled by nvcc") != std::string::npos) {
    EXPECT_NE(first.find("nvcc because the product over wsum_f32_f32_f64 has a shape (float, float -> double)"),
              std::string::npos)
        << first;
  }
  // The CUDA generator's code: the product runs on the GPU, behind the entry the module calls.
  EXPECT_NE(m.source().find("gql::gpu::mxm<"), std::string::npos);
  EXPECT_NE(m.source().find("gql_entry_square"), std::string::npos);
  EXPECT_EQ(m.kernel_names(), std::vector<std::string>{"square"});
  const ino_t published = inode_of(entry);

  // A new process finds the entry on disk: no nvcc run, and the entry is not published again.
  const test::RaceResult race = test::race_processes(1, [&](int) {
    jit_detail::forget_loaded_libraries();
    Log child_log;
    Compiler child(cuda_options(child_log));
    (void)child.compile_source(nvcc_spec, nvcc_name).kernel("square");
    const std::string said = child_log.all();
    const bool reused = said.find("reused from the disk cache") != std::string::npos &&
                        said.find("nvcc") == std::string::npos && entry_path(said) == entry;
    return reused ? test::reused_it : test::did_the_work;
  });
  EXPECT_EQ(race.reused, 1);
  EXPECT_EQ(race.did_the_work, 0);
  EXPECT_TRUE(race.other_codes.empty());
  EXPECT_EQ(inode_of(entry), published);

  // Another Compiler of this process shares the loaded library.
  Log again_log;
  Compiler again(cuda_options(again_log));
  (void)again.compile_source(nvcc_spec, nvcc_name);
  EXPECT_NE(again_log.all().find("already loaded in this process"), std::string::npos) << again_log.all();
}

TEST(JitCuda, BindChecksTheSignature) {
  Log log;
  const Module m = Compiler(cuda_options(log)).compile_source(step_spec, step_name);
  const Kernel k = m.kernel("step");
  EXPECT_EQ(k.signature().to_string(), "step(G: graph<bool>, f: vector<bool>) -> vector<bool>");
  EXPECT_NO_THROW((void)k.bind<Vector<bool>(const Csr<bool>&, const Vector<bool>&)>());
  try {
    (void)k.bind<Vector<int32_t>(const Csr<bool>&, const Vector<bool>&)>();
    FAIL() << "bound with the wrong result type";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(e.reason().find("step(G: graph<bool>, f: vector<bool>) -> vector<bool>"), std::string::npos) << e.reason();
  }
}

TEST(JitCuda, CallingWithoutAGpuThrowsACudaError) {
  Log log;
  const Module m = Compiler(cuda_options(log)).compile_source(step_spec, step_name);
  auto step = m.kernel("step").bind<Vector<bool>(const Csr<bool>&, const Vector<bool>&)>();
  const Csr<bool> G(2, 2, {0, 1, 1}, {1});
  const Vector<bool> f = Vector<bool>::sparse(2, {0}, {1});
  if (device_count() > 0) {
    // With a GPU the call runs: vertex 0's only out-neighbour is 1.
    const Vector<bool> next = step(G, f);
    ASSERT_EQ(next.nvals(), 1);
    EXPECT_EQ(next.indices()[0], 1);
    return;
  }
  try {
    (void)step(G, f);
    FAIL() << "a CUDA kernel ran without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cuda);
    EXPECT_NE(e.reason().find("no CUDA device"), std::string::npos) << e.reason();
  }
}

TEST(JitCuda, ProductsTakeTheNvrtcPath) {
#ifdef GQL_JIT_HAVE_NVRTC
  const auto [m, said] = compile_without_nvcc([](Compiler& c) { return c.compile_source(product_spec, product_name); });
  expect_nvrtc_kernels(said);
  const size_t at = said.find("GPU kernels ");
  ASSERT_NE(at, std::string::npos) << said;
  const std::string cubin = said.substr(at + 12, said.find('\n', at) - at - 12);
  EXPECT_TRUE(std::filesystem::is_regular_file(cubin)) << said;
  EXPECT_EQ(std::filesystem::path(cubin).extension(), ".cubin");
  // The host code calls the product through the kernels NVRTC built (the binding shim).
  EXPECT_NE(m.source().find("gql::bind_spgemm_kernels<gql::device::device_semiring_t<gqlgen::any_pair_bool_bool_bool>>"),
            std::string::npos);
  auto two_hop = m.kernel("two_hop_new").bind<Csr<bool>(const Csr<bool>&)>();
  const Csr<bool> G(3, 3, {0, 1, 2, 2}, {1, 2});  // 0 -> 1 -> 2
  if (device_count() > 0) {
    const Csr<bool> C = two_hop(G);  // 0 -> 2 is new
    ASSERT_EQ(C.nvals(), 1);
    EXPECT_EQ(C.row_degree(0), 1);
    EXPECT_EQ(C.col_indices()[0], 2);
    return;
  }
  try {
    (void)two_hop(G);
    FAIL() << "a CUDA kernel ran without a GPU";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::cuda);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, IntegerArithmeticBuildsWithNvrtc) {
#ifdef GQL_JIT_HAVE_NVRTC
  const auto [m, said] = compile_without_nvcc([](Compiler& c) { return c.compile_source(arithmetic_spec, arithmetic_name); });
  expect_nvrtc_kernels(said);
  EXPECT_NE(m.source().find("gql::integer_div<int64_t>"), std::string::npos);
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, VectorProductsTakeTheNvrtcPath) {
#ifdef GQL_JIT_HAVE_NVRTC
  // The stdlib's connected components: two mxv (one over swapped operands' positions) between CPU
  // element-wise ops, all in the host code the host compiler builds.
  const auto [m, said] = compile_without_nvcc(
      [](Compiler& c) { return c.compile_file(std::string(GQL_SOURCE_DIR) + "/stdlib/std/components.gql"); });
  EXPECT_NE(said.find("GPU kernels "), std::string::npos) << said;
  EXPECT_NE(m.source().find("gql::bind_vxm_kernels<gql::cpu::SwappedOperands<gqlgen::"), std::string::npos);
  auto components = m.kernel("components").bind<Vector<int64_t>(const Csr<bool>&)>();
  // Two components, {0, 1} and {2, 3}: each vertex labelled with its component's smallest id.
  const Csr<bool> G(4, 4, {0, 1, 2, 3, 4}, {1, 0, 3, 2});
  if (device_count() > 0) {
    const Vector<int64_t> label = components(G);
    ASSERT_EQ(label.nvals(), 4);
    for (size_t v = 0; v < 4; ++v) EXPECT_EQ(label.values()[v], v < 2 ? 0 : 2) << v;  // all four: in vertex order
  } else {
    EXPECT_THROW((void)components(G), Error);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, ClosuresTakeTheNvrtcPath) {
#ifdef GQL_JIT_HAVE_NVRTC
  const auto [m, said] = compile_without_nvcc([](Compiler& c) { return c.compile_source(closure_spec, closure_name); });
  EXPECT_NE(said.find("GPU kernels "), std::string::npos) << said;
  // One binding per closure, each with its schedule's kernels.
  EXPECT_NE(m.source().find("gql::bind_closure_kernels<gqlgen::min_plus_f32_f32_f32>(*kernels, "
                            "\"gqlgen::min_plus_f32_f32_f32\", \"float\", gql::gpu::ClosureSchedule{32, {8, 8}, 2}, false)"),
            std::string::npos)
      << m.source();
  EXPECT_NE(m.source().find(", true);"), std::string::npos);  // apsp_paths: predecessors
  auto apsp = m.kernel("apsp").bind<Matrix<float>(const Matrix<float>&)>();
  const float inf = std::numeric_limits<float>::infinity();
  Matrix<float> D(3, 3, inf);  // 0 -> 1 -> 2, weights 1 and 2
  for (int64_t i = 0; i < 3; ++i) D(i, i) = 0;
  D(0, 1) = 1;
  D(1, 2) = 2;
  if (device_count() > 0) {
    const Matrix<float> closed = apsp(D);
    EXPECT_EQ(closed(0, 2), 3.0f);
    EXPECT_EQ(closed(2, 0), inf);
  } else {
    EXPECT_THROW((void)apsp(D), Error);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, SingleSourcePathsTakeTheNvrtcPath) {
#ifdef GQL_JIT_HAVE_NVRTC
  // The stdlib's Bellman-Ford loop, recognized as single-source paths (its vxm kept as the fallback).
  const auto [m, said] = compile_without_nvcc(
      [](Compiler& c) { return c.compile_file(std::string(GQL_SOURCE_DIR) + "/stdlib/std/sssp.gql"); });
  EXPECT_NE(said.find("GPU kernels "), std::string::npos) << said;
  EXPECT_NE(m.source().find("gql::bind_paths_kernels<gqlgen::min_plus_f32_f32_f32, float>(*kernels, "
                            "\"gqlgen::min_plus_f32_f32_f32\", \"float\", \"float\", gql::gpu::SsspSchedule{"),
            std::string::npos)
      << m.source();
  auto sssp = m.kernel("sssp").bind<Vector<float>(const Csr<float>&, int32_t)>();
  const Csr<float> G(3, 3, {0, 2, 3, 3}, {1, 2, 2}, {1.0f, 5.0f, 2.0f});  // 0 -> 1 -> 2 is shorter than 0 -> 2
  if (device_count() > 0) {
    const Vector<float> dist = sssp(G, 0);
    ASSERT_EQ(dist.nvals(), 3);
    EXPECT_EQ(dist.values()[2], 3.0f);
  } else {
    EXPECT_THROW((void)sssp(G, 0), Error);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, BfsAndLuTakeTheHostCompilerAlone) {
#ifdef GQL_JIT_HAVE_NVRTC
  // The example's BFS (a recognized BFS loop) and the stdlib's LU: neither depends on a semiring of
  // the spec's, and the runtime library holds both whole, so neither nvcc nor NVRTC runs.
  for (const char* spec : {"/examples/bfs.gql", "/stdlib/std/lu.gql"}) {
    const auto [m, said] =
        compile_without_nvcc([&](Compiler& c) { return c.compile_file(std::string(GQL_SOURCE_DIR) + spec); });
    EXPECT_NE(said.find("no GPU kernels of its own"), std::string::npos) << said;
  }
  Log log;
  const Module m = Compiler(cuda_options(log)).compile_file(std::string(GQL_SOURCE_DIR) + "/examples/bfs.gql");
  EXPECT_NE(m.source().find("gql::gpu::bfs_levels("), std::string::npos);
  auto bfs = m.kernel("bfs").bind<Vector<int32_t>(const Csr<bool>&, int32_t)>();
  const Csr<bool> G(3, 3, {0, 1, 2, 2}, {1, 2});  // 0 -> 1 -> 2
  if (device_count() > 0) {
    const Vector<int32_t> depth = bfs(G, 0);
    ASSERT_EQ(depth.nvals(), 3);
  } else {
    EXPECT_THROW((void)bfs(G, 0), Error);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, DenseProductsTakeTheHostCompilerAlone) {
#ifdef GQL_JIT_HAVE_NVRTC
  // Every pairing with a dense matrix: cuBLAS (held by the runtime library) for plus_times over floats,
  // the host's GEMM for the others in code built without nvcc, the pairings with a graph or a vector
  // and dense() on the host: no GPU kernel of the spec's own.
  const auto [m, said] = compile_without_nvcc([](Compiler& c) {
    return c.compile_source(R"(import "std/semirings.gql";
kernel mm(A: matrix<f64>, B: matrix<f64>) -> matrix<f64> { return A * B over plus_times; }
kernel mm_min(A: matrix<i32>, B: matrix<i32>) -> matrix<i32> { return A * B over min_plus; }
kernel gm(G: graph<i32>, B: matrix<i32>) -> matrix<i32> { return G * B over min_plus; }
kernel mg(A: matrix<i32>, G: graph<i32>) -> matrix<i32> { return A * G over min_plus; }
kernel mv(A: matrix<f32>, v: vector<f32>) -> vector<f32> { return A * v over plus_times; }
kernel vm(v: vector<f32>, A: matrix<f32>) -> vector<f32> { return v * A over plus_times; }
kernel hops(G: graph<f32>) -> matrix<f32> { let D = dense(G, fill = inf); return D * D over min_plus; }
)", "jit_cuda_dense_products.gql");
  });
  EXPECT_NE(said.find("no GPU kernels of its own"), std::string::npos) << said;
  EXPECT_NE(m.source().find("gql::gpu::mxm<plus_times_f64_f64_f64>("), std::string::npos);
  auto min_plus = m.kernel("mm_min").bind<Matrix<int32_t>(const Matrix<int32_t>&, const Matrix<int32_t>&)>();
  Matrix<int32_t> A(2, 2);
  A(0, 0) = 1, A(0, 1) = 5, A(1, 0) = 2, A(1, 1) = 0;
  if (device_count() > 0) {
    const Matrix<int32_t> C = min_plus(A, A);
    EXPECT_EQ(C(0, 0), 2);  // min(1 + 1, 5 + 2)
    EXPECT_EQ(C(0, 1), 5);  // min(1 + 5, 5 + 0)
    EXPECT_EQ(C(1, 0), 2);  // min(2 + 1, 0 + 2)
    EXPECT_EQ(C(1, 1), 0);  // min(2 + 5, 0 + 0)
  } else {
    EXPECT_THROW((void)min_plus(A, A), Error);
  }
#else
  GTEST_SKIP() << "gql was built without NVRTC";
#endif
}

TEST(JitCuda, MissingNvccSaysHowToPointAtIt) {
  CompilerOptions o;
  o.target = Target::cuda;
  o.nvcc = "/nonexistent/bin/nvcc";
  o.cache_dir = test::shared_kernel_cache();
  try {
    // With NVRTC the Compiler starts; a spec that needs nvcc says it is missing.
    Compiler compiler(o);
    (void)compiler.compile_source(nvcc_spec, "jit_cuda_wide_product_without_nvcc.gql");
    FAIL() << "a spec that needs nvcc compiled without it";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::jit);
    EXPECT_NE(e.reason().find("/nonexistent/bin/nvcc"), std::string::npos) << e.reason();
    EXPECT_NE(e.reason().find("GQL_NVCC"), std::string::npos) << e.reason();
  }
}

}  // namespace
}  // namespace gql
#endif
