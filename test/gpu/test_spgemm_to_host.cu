// The product streamed to host memory in blocks of rows (gql/device/spgemm_to_host.hpp) against a
// plain CPU reference: block sizes from one row per block to all rows in one, one to three blocks
// in flight, a con that reads the global row id i (blocks keep A's row numbering), and the block
// sizing from the device budget.
#include <cstdint>
#include <string>
#include <vector>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "reference_product.hpp"
#include "skewed_graph.hpp"
#include "gql/device/spgemm_to_host.hpp"

namespace spgemm_to_host_test {

using namespace gql;
using gpu_test::Paths;

struct RowMix {  // reads i, k, j and the values: a wrong row numbering changes the result
  using a_type = int;
  using b_type = int;
  using value_type = long long;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = true, positional = true, has_terminal = false;
  GQL_HD static value_type con(int a, int b, long long i, long long k, long long j) {
    return (i * 7919 + k * 31 + j) * 8 + a + b;
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() { return 9223372036854775807LL; }
  GQL_HD static value_type terminal() { return 0; }
};

}  // namespace spgemm_to_host_test

namespace {

using namespace gql;
using namespace spgemm_to_host_test;

// Hubs of a quarter of the vertices every 97 rows.
constexpr test_support::SkewedDegrees degrees{.hub_divisor = 4, .low_degrees = 10};

template <class S>
void check_semiring(const char* name) {
  using V = typename S::value_type;
  const int64_t n = gpu_test::small_inputs() ? 300 : 2500;
  const Csr<typename S::a_type> a = test_support::skewed_graph<typename S::a_type>(n, 21, degrees);
  const Csr<typename S::b_type> b = test_support::skewed_graph<typename S::b_type>(n, 22, degrees);
  const Csr<V> expected = reference<S>(a, b);
  Stream stream;
  const DeviceCsr<typename S::a_type> da = to_device(a, stream);
  const DeviceCsr<typename S::b_type> db = to_device(b, stream);
  stream.synchronize();
  struct Case {
    const char* what;
    SpgemmToHostPlan plan;
  };
  const Case cases[] = {
      {"one row per block, one worker", {SpgemmPlan{}, 1, 1}},
      {"small blocks, two workers", {SpgemmPlan{}, 5000, 2}},
      {"small blocks, three workers, many large rows", {SpgemmPlan{.large_row_products = 64}, 20000, 3}},
      {"blocks from the budget", {SpgemmPlan{}, 0, 2}},
      {"one block", {SpgemmPlan{}, int64_t{1} << 40, 2}},
  };
  for (const Case& c : cases) {
    // A multiplication per row is too slow under the sanitizer.
    if (gpu_test::small_inputs() && c.plan.block_products == 1) continue;
    const std::string where = std::string(name) + ", " + c.what;
    SpgemmStats stats;
    const HostSpgemmResult<V> result = spgemm_to_host<S>(da, db, c.plan, &stats);
    int64_t next_row = 0;
    bool ordered = true;
    for (const auto& block : result.blocks) {
      ordered = ordered && block.first_row == next_row && block.n_rows() >= 1;
      next_row = block.first_row + block.n_rows();
    }
    GPU_CHECK_MSG(ordered && next_row == n, where + ": the blocks do not cover the rows once, in order");
    const Csr<V> got = result.to_csr();
    compare_with_reference(got, expected, where);
    int64_t products = 0;
    for (int64_t i = 0; i < n; ++i)
      for (offset_t p = a.row_offsets()[i]; p < a.row_offsets()[i + 1]; ++p)
        products += b.row_offsets()[a.col_indices()[p] + 1] - b.row_offsets()[a.col_indices()[p]];
    GPU_CHECK_MSG(stats.products == products, where + ": stats count " + std::to_string(stats.products) +
                                                  " products, expected " + std::to_string(products));
    std::printf("  %-50s %zu blocks, %lld products, %lld entries\n", where.c_str(), result.blocks.size(),
                static_cast<long long>(stats.products), static_cast<long long>(got.nvals()));
  }
}

void check_edge_cases() {
  Stream stream;
  const Csr<bool> empty(0, 0);
  const DeviceCsr<bool> de = to_device(empty, stream);
  const HostSpgemmResult<unsigned long long> r = spgemm_to_host<Paths>(de, de);
  GPU_CHECK(r.blocks.empty() && r.to_csr().n_rows() == 0);
  const Csr<bool> wide(2, 3);
  const DeviceCsr<bool> dw = to_device(wide, stream);
  bool refused = false;
  try {
    spgemm_to_host<Paths>(dw, dw);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK(refused);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_main(argc, argv, "test_spgemm_to_host", [] {
    check_semiring<Paths>("paths (count)");
    check_semiring<RowMix>("min over a con of i, k, j and values");
    check_edge_cases();
  });
}
