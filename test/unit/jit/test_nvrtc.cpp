// NVRTC needs no GPU: kernels that include the runtime's device headers (embedded in the library)
// compile to CUBIN for sm_90 here, and the NVRTC path's cache entries and kernel names are checked;
// loading and running them is test/gpu's part.
#ifdef GQL_JIT_HAVE_NVRTC
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "nvrtc_products.hpp"
#include "disk_cache.hpp"
#include "gql/device/jit_kernels.hpp"
#include "gql/device/product_shapes.hpp"
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

// A min-plus policy over `type` named `name`, as the code generator writes one, with `extra` members.
std::string min_plus_policy(const std::string& name, const std::string& type, const std::string& zero,
                            const std::string& extra = "") {
  const std::string& t = type;
  return "struct " + name + " {\n  using a_type = " + t + ";\n  using b_type = " + t + ";\n  using value_type = " + t +
         ";\n  static constexpr gql::Monoid monoid = gql::Monoid::min;\n"
         "  static constexpr bool reads_values = true;\n  static constexpr bool positional = false;\n"
         "  static constexpr bool has_terminal = false;\n" +
         "  GQL_HD static " + t + " con(" + t + " a, " + t + " b, long long, long long, long long) { return a + b; }\n" +
         "  GQL_HD static " + t + " agg(" + t + " x, " + t + " y) { return x < y ? x : y; }\n" +
         "  GQL_HD static " + t + " zero() { return " + zero + "; }\n" +
         "  GQL_HD static " + t + " terminal() { return 0; }\n" + extra + "};\n";
}

// A device source of the runtime's `headers` and `policies` in namespace gqlgen.
std::string device_source(const std::vector<std::string>& headers, const std::string& policies) {
  std::string source = "#include <gql/device/nvrtc_stdint.cuh>\n";
  for (const std::string& h : headers) source += "#include <" + h + ">\n";
  return source + "namespace gqlgen {\n" + policies + "}  // namespace gqlgen\n";
}

// An f32 min-plus policy, gqlgen::min_plus_f32, with the runtime's `headers`.
std::string min_plus_f32_source(const std::vector<std::string>& headers) {
  return device_source(headers, min_plus_policy("min_plus_f32", "float", "1e30f"));
}

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

TEST(NvrtcProducts, KernelNamesFollowTheDriversShapes) {
  const SpgemmSemiringKernelNames u64 = spgemm_semiring_kernel_names("gqlgen::S", 8, 0);
  EXPECT_EQ(u64.sorted_chunk, 2048);  // the default
  std::vector<std::string> expressions;
  for (const SpgemmKernelName& k : u64.kernels) expressions.push_back(k.expression);
  EXPECT_EQ(expressions, (std::vector<std::string>{
                             "&gql::device::spgemm::spgemm_small_rows<gqlgen::S, 64, 256>",
                             "&gql::device::spgemm::spgemm_small_rows<gqlgen::S, 256, 2048>",
                             "&gql::device::spgemm::spgemm_medium_rows<gqlgen::S, 512, 8192>",
                             "&gql::device::spgemm::spgemm_medium_rows_bitmap<gqlgen::S, 512, 8192>",
                             "&gql::device::spgemm::spgemm_large_rows<gqlgen::S, 512>",
                             "&gql::device::spgemm::spgemm_dot_entries<gqlgen::S, 256>",
                             "&gql::device::spgemm::spgemm_sorted_rows<gqlgen::S, 256, 2048>"}));
  // Each fills its own entry of the table; the spilled rows' at the chunk's index.
  EXPECT_EQ(u64.of(SpgemmSlot::tiny_rows), expressions[0]);
  EXPECT_EQ(u64.kernels.back().variant.slot, SpgemmSlot::sorted_rows);
  EXPECT_EQ(u64.kernels.back().variant.index, SpgemmShapes::sorted_chunk_index(2048));
  SpgemmKernelTable<float, float, float> table;
  for (const SpgemmKernelName& k : u64.kernels) spgemm_slot_address(table, k.variant) = &k;
  EXPECT_EQ(table.tiny_rows.address, &u64.kernels[0]);
  EXPECT_EQ(table.small_rows.address, &u64.kernels[1]);
  EXPECT_EQ(table.medium_rows_bitmap.address, &u64.kernels[3]);
  EXPECT_EQ(table.dot_entries.address, &u64.kernels[5]);
  EXPECT_EQ(table.sorted_rows[static_cast<size_t>(SpgemmShapes::sorted_chunk_index(2048))].address, &u64.kernels[6]);
  // A chunk wider than the values allow is narrowed, as the driver narrows it.
  EXPECT_EQ(spgemm_semiring_kernel_names("S", 8, 4096).sorted_chunk, 2048);
  EXPECT_EQ(spgemm_semiring_kernel_names("S", 4, 4096).sorted_chunk, 4096);
  EXPECT_EQ(spgemm_semiring_kernel_names("S", 16, 0).sorted_chunk, 1024);
  EXPECT_EQ(spgemm_semiring_kernel_names("S", 1, 512).of(SpgemmSlot::sorted_rows),
            "&gql::device::spgemm::spgemm_sorted_rows<S, 256, 512>");
  EXPECT_THROW((void)spgemm_semiring_kernel_names("S", 4, 700), Error);
  EXPECT_EQ(device_semiring_name("gqlgen::R", true), "gql::device::ByteValued<gqlgen::R>");
  EXPECT_EQ(device_semiring_name("gqlgen::R", false), "gqlgen::R");
}

TEST(NvrtcProducts, ShapesAreNamedAsTheGeneratorSpellsTypes) {
  EXPECT_TRUE(spgemm_shape_precompiled("bool", "bool", "uint64_t"));
  EXPECT_TRUE(spgemm_shape_precompiled("bool", "bool", "bool"));
  EXPECT_TRUE(spgemm_shape_precompiled("float", "float", "float"));
  EXPECT_FALSE(spgemm_shape_precompiled("float", "float", "uint64_t"));
  EXPECT_FALSE(spgemm_shape_precompiled("bool", "bool", "unsigned char"));  // the device's name, not the language's
  EXPECT_FALSE(spgemm_shape_precompiled("int8_t", "int8_t", "int8_t"));
}

TEST(NvrtcProducts, AnEntryWithoutItsManifestOrCutShortIsRefused) {
  const std::string dir = (std::filesystem::temp_directory_path() / "gql-test-nvrtc-manifest").string();
  std::filesystem::remove_all(dir);
  DiskCache cache(dir, 1 << 20);
  const CacheEntry entry = cache.get_or_build(CacheKeyBuilder().add("t", "manifest").finish(), ".cubin",
                                              [](const std::string& out) { DiskCache::write_payload(out, "\x7f" "ELF"); });
  try {
    (void)read_nvrtc_products(entry.path);
    FAIL() << "an entry without a manifest was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::jit);
    EXPECT_NE(e.reason().find("manifest"), std::string::npos) << e.reason();
  }
  // A manifest whose image is cut short (a kernel of 100 bytes, 4 there).
  const CacheEntry cut = cache.get_or_build(CacheKeyBuilder().add("t", "cut").finish(), ".cubin", [](const std::string& out) {
    DiskCache::write_payload(out, "gql-nvrtc-products 2\n90 cubin 1\n&k<int>\n100 _Z1kIiEvv\n\x7f" "ELF");
  });
  try {
    (void)read_nvrtc_products(cut.path);
    FAIL() << "an entry shorter than its manifest was read";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::jit);
    EXPECT_NE(e.reason().find("shorter than their manifest"), std::string::npos) << e.reason();
  }
  std::filesystem::remove_all(dir);
}

TEST(NvrtcProducts, BuildsAProductsKernelsAndReadsThemBack) {
  const std::string dir = (std::filesystem::temp_directory_path() / "gql-test-nvrtc-products").string();
  std::filesystem::remove_all(dir);
  DiskCache cache(dir, 64 << 20);
  const std::string source =
      min_plus_f32_source({"gql/device/spgemm/spgemm_large_rows.cuh", "gql/device/spgemm/spgemm_small_rows.cuh"});
  const SpgemmSemiringKernelNames names = spgemm_semiring_kernel_names("gqlgen::min_plus_f32", 4, 0);
  const std::vector<std::string> kernels = {names.of(SpgemmSlot::tiny_rows), names.of(SpgemmSlot::large_rows)};
  const CacheKey key = nvrtc_cache_key(source, kernels, 90);
  const CacheEntry built = build_nvrtc_products(cache, key, source, "min_plus.cu", kernels, 90);
  EXPECT_EQ(built.origin, CacheOrigin::built);
  const NvrtcImages read = read_nvrtc_products(built.path);
  EXPECT_EQ(read.arch, 90);
  EXPECT_TRUE(read.is_cubin);
  ASSERT_EQ(read.images.size(), kernels.size());  // a program, so an image, per kernel
  for (size_t n = 0; n < kernels.size(); ++n) {
    ASSERT_EQ(read.kernels.count(kernels[n]), 1u);
    const NvrtcKernelSymbol& symbol = read.kernels.at(kernels[n]);
    EXPECT_NE(symbol.lowered.find(n == 0 ? "spgemm_small_rows" : "spgemm_large_rows"), std::string::npos)
        << symbol.lowered;  // the mangled name
    EXPECT_EQ(read.images.at(symbol.image).substr(0, 4), "\x7f" "ELF");
  }
  EXPECT_EQ(build_nvrtc_products(cache, key, source, "min_plus.cu", kernels, 90).origin, CacheOrigin::disk);
  std::filesystem::remove_all(dir);
}

// The variants a closure's schedule may run, each named once, in the table slots the binding fills.
TEST(NvrtcProducts, ClosureKernelNamesFollowTheSchedule) {
  using Slot = gpu::ClosureSlot;
  const auto expressions = [](const std::vector<ClosureKernelName>& names) {
    std::vector<std::string> out;
    for (const ClosureKernelName& n : names) out.push_back(n.expression);
    return out;
  };
  const std::string ns = "&gql::device::closure::";
  // The default: register tiles, the k-block by size (128 or 256: both close their diagonal with 128).
  const std::vector<ClosureKernelName> automatic = closure_kernel_names("S", "float", 4, gpu::ClosureSchedule{}, false);
  EXPECT_EQ(expressions(automatic),
            (std::vector<std::string>{ns + "fill<float>", ns + "fw_tile_diagonal<S, float, 128, 16>",
                                      ns + "semiring_gemm<S, float, gql::device::closure::ThreadTile<8, 8>, "
                                           "gql::device::closure::dpx_capable<S>()>"}));
  EXPECT_EQ(automatic[1].variant.slot, Slot::tile_diagonal);
  EXPECT_EQ(automatic[1].variant.index, gpu::closure_tile_shape_index(128, 16));
  EXPECT_TRUE(automatic[2].variant.dpx);
  // A k-block of 64 with 8x16 thread tiles.
  const std::vector<ClosureKernelName> wide =
      closure_kernel_names("S", "int32_t", 4, gpu::ClosureSchedule{64, {8, 16}, 0}, false);
  EXPECT_EQ(wide[1].expression, ns + "fw_tile_diagonal<S, int32_t, 64, 4>");
  EXPECT_EQ(wide[2].variant.index, 1);
  EXPECT_NE(wide[2].expression.find("ThreadTile<8, 16>"), std::string::npos);
  // The shared-memory design: its three stages, and the plain GEMM for streaming out of core.
  const std::vector<ClosureKernelName> shared =
      closure_kernel_names("S", "double", 8, gpu::ClosureSchedule{32, {0, 0}, 2}, false);
  EXPECT_EQ(expressions(shared),
            (std::vector<std::string>{ns + "fill<double>", ns + "fw_tile_diagonal<S, double, 32, 2>",
                                      ns + "fw_tile_panels<S, double, 32, 2>", ns + "fw_tile_rest<S, double, 32, 2>",
                                      ns + "semiring_gemm<S, double, gql::device::closure::ThreadTile<8, 8>, false>"}));
  EXPECT_FALSE(shared[4].variant.dpx);
  // Predecessors: the global-memory kernel whatever the schedule.
  const std::vector<ClosureKernelName> paths =
      closure_kernel_names("S", "float", 4, gpu::ClosureSchedule{64, {8, 16}, 0}, true);
  EXPECT_EQ(expressions(paths), (std::vector<std::string>{ns + "fill<float>", ns + "fill<int>",
                                                          ns + "initial_predecessors<S, float>",
                                                          ns + "fw_global_step<S, float, true>"}));
  EXPECT_EQ(paths[2].variant.slot, Slot::initial_predecessors);
  EXPECT_EQ(paths[3].variant.slot, Slot::global_step);
  EXPECT_EQ(paths[3].variant.index, 1);
  // 8-byte values: no GEMM on 8x16 thread tiles, so a schedule asking for one names none.
  const std::vector<ClosureKernelName> too_wide =
      closure_kernel_names("S", "double", 8, gpu::ClosureSchedule{64, {8, 16}, 0}, false);
  for (const ClosureKernelName& n : too_wide) EXPECT_NE(n.variant.slot, Slot::gemm) << n.expression;
}

// Every variant nvcc instantiates has one entry of the table, and binding every one by its
// address fills each entry once.
TEST(NvrtcProducts, ClosureVariantsFillEachTableEntryOnce) {
  gpu::ClosureKernelTable<float> table;
  table.dpx_capable = true;
  std::set<const void*> entries;
  for (const gpu::ClosureVariant& v : gpu::closure_variants()) {
    const void*& address = gpu::closure_slot_address(table, v);
    EXPECT_TRUE(entries.insert(&address).second) << "two variants share an entry";
    EXPECT_EQ(address, nullptr);
    address = &address;
  }
  EXPECT_EQ(entries.size(), gpu::closure_variant_count);
  EXPECT_NE(table.fill.address, nullptr);
  EXPECT_NE(table.global_step[1].address, nullptr);
  for (const auto& stages : table.tiles) EXPECT_NE(stages.rest.address, nullptr);
  for (const auto& by_tile : table.gemm)
    for (const auto& gemm : by_tile) EXPECT_NE(gemm.address, nullptr);
}

// A closure's kernels through NVRTC, the GEMM's DPX variant chosen by the semiring's own
// declaration: an i32 min-plus that declares con_adds gets the add-min kernel, one that does not the
// plain one.
TEST(NvrtcProducts, ClosureKernelsCompileAndPickTheirDpxVariant) {
  const std::string dir = (std::filesystem::temp_directory_path() / "gql-nvrtc-closure-test").string();
  std::filesystem::remove_all(dir);
  DiskCache cache(dir, 64 << 20);
  const std::string source =
      device_source({"gql/device/closure/closure_kernels.cuh"},
                    min_plus_policy("plain", "int", "1 << 29") +
                        min_plus_policy("adds", "int", "1 << 29", "  static constexpr bool con_adds = true;\n"));
  std::vector<std::string> kernels;
  std::vector<std::string> gemms;
  for (const char* semiring : {"gqlgen::plain", "gqlgen::adds"})
    for (const ClosureKernelName& name : closure_kernel_names(semiring, "int", 4, gpu::ClosureSchedule{64, {8, 8}, 0}, false)) {
      kernels.push_back(name.expression);
      if (name.variant.slot == gpu::ClosureSlot::gemm) gemms.push_back(name.expression);
    }
  ASSERT_EQ(gemms.size(), 2u);
  const CacheKey key = nvrtc_cache_key(source, kernels, 90);
  const NvrtcImages read = read_nvrtc_products(build_nvrtc_products(cache, key, source, "closure.cu", kernels, 90).path);
  for (const std::string& k : kernels) EXPECT_EQ(read.kernels.count(k), 1u) << k;
  // semiring_gemm<S, int, ThreadTile<8, 8>, use_dpx>: the last template argument, mangled as Lb0E or Lb1E.
  EXPECT_NE(read.kernels.at(gemms[0]).lowered.find("Lb0E"), std::string::npos) << read.kernels.at(gemms[0]).lowered;
  EXPECT_NE(read.kernels.at(gemms[1]).lowered.find("Lb1E"), std::string::npos) << read.kernels.at(gemms[1]).lowered;
  std::filesystem::remove_all(dir);
}

// Single-source paths: the schedule's push and the batched rounds always, delta-stepping's kernels
// when it asks for them.
TEST(NvrtcProducts, PathsKernelNamesFollowTheSchedule) {
  using Slot = gpu::PathsSlot;
  const std::vector<PathsKernelName> plain = paths_kernel_names("S", "float", "bool", gpu::SsspSchedule{});
  std::vector<std::string> expressions;
  for (const PathsKernelName& n : plain) expressions.push_back(n.expression);
  EXPECT_EQ(expressions, (std::vector<std::string>{
                             "&gql::device::traversal::paths_init<256, S>",
                             "&gql::device::traversal::paths_start<float>",
                             "&gql::device::traversal::paths_relax<256, gql::LoadBalance::edge, S, bool>",
                             "&gql::device::traversal::paths_relax_batched<256, S, bool>"}));
  EXPECT_EQ(plain[2].variant.slot, Slot::relax);
  EXPECT_EQ(plain[2].variant.balance, LoadBalance::edge);
  const std::vector<PathsKernelName> delta = paths_kernel_names(
      "S", "double", "double", gpu::SsspSchedule{gpu::PathsKernel::delta_stepping, 0, LoadBalance::warp});
  ASSERT_EQ(delta.size(), 7u);
  EXPECT_EQ(delta[2].expression, "&gql::device::traversal::paths_relax<256, gql::LoadBalance::warp, S, double>");
  EXPECT_EQ(delta[2].variant.balance, LoadBalance::warp);
  EXPECT_EQ(delta[4].variant.slot, Slot::split_near_far);
  // Each binds to its own entry of the table.
  gpu::PathsKernelTable<double, double> table;
  for (const PathsKernelName& n : delta) gpu::paths_slot_address(table, n.variant) = &n;
  EXPECT_EQ(table.init.address, &delta[0]);
  EXPECT_EQ(table.start.address, &delta[1]);
  EXPECT_EQ(table.relax[static_cast<size_t>(LoadBalance::warp)].address, &delta[2]);
  EXPECT_EQ(table.relax[static_cast<size_t>(LoadBalance::edge)].address, nullptr);
  EXPECT_EQ(table.relax_batched.address, &delta[3]);
  EXPECT_EQ(table.far_least.address, &delta[6]);
  EXPECT_EQ(delta[5].expression, "&gql::device::traversal::paths_refill_near<256, double>");
  EXPECT_EQ(delta[6].expression, "&gql::device::traversal::paths_far_least<256, S>");
}

TEST(NvrtcProducts, PathsKernelsCompile) {
  const std::string dir = (std::filesystem::temp_directory_path() / "gql-nvrtc-paths-test").string();
  std::filesystem::remove_all(dir);
  DiskCache cache(dir, 64 << 20);
  const std::string source = min_plus_f32_source({"gql/device/traversal/sssp_kernels.cuh"});
  std::vector<std::string> kernels;
  for (const PathsKernelName& name :
       paths_kernel_names("gqlgen::min_plus_f32", "float", "float",
                          gpu::SsspSchedule{gpu::PathsKernel::delta_stepping, 0, LoadBalance::edge}))
    kernels.push_back(name.expression);
  const CacheKey key = nvrtc_cache_key(source, kernels, 90);
  const NvrtcImages read = read_nvrtc_products(build_nvrtc_products(cache, key, source, "paths.cu", kernels, 90).path);
  for (const std::string& k : kernels) EXPECT_EQ(read.kernels.count(k), 1u) << k;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace gql::jit
#endif
