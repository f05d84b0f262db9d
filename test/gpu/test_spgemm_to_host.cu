// The product made in host memory in batches of rows (spgemm_to_host, gql/device/spgemm/spgemm.hpp) against
// a plain CPU reference: batches from a few rows each to all rows in one, a con that reads the global
// row id i (batches keep A's row numbering), and the batches cut from the device budget; then
// spgemm_device_or_host, which keeps a result on the device when it fits there and makes it in host
// memory when it does not.
#include <cstdint>
#include <string>
#include <vector>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "reference_product.hpp"
#include "skewed_graph.hpp"
#include "gql/device/spgemm/spgemm.hpp"

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
    SpgemmPlan plan;
  };
  // A batch takes its rows' scratch and C (two entries per product, at most): these budgets cut
  // batches of a few rows up to one batch of every row.
  constexpr size_t entry_bytes = sizeof(index_t) + sizeof(V);
  const Case cases[] = {
      {"batches of a few rows", SpgemmPlan{.batch_bytes = 2 * 64 * entry_bytes}},
      {"small batches, many large rows", SpgemmPlan{.large_row_products = 64, .batch_bytes = 40000 * entry_bytes}},
      {"batches from the budget", SpgemmPlan{}},
      {"one batch", SpgemmPlan{.batch_bytes = size_t{1} << 40}},
  };
  int64_t products = 0;
  for (int64_t i = 0; i < n; ++i)
    for (offset_t p = a.row_offsets()[i]; p < a.row_offsets()[i + 1]; ++p)
      products += b.row_offsets()[a.col_indices()[p] + 1] - b.row_offsets()[a.col_indices()[p]];
  for (const Case& c : cases) {
    const std::string where = std::string(name) + ", " + c.what;
    DeviceSpgemmStats stats;
    const Csr<V> got = spgemm_to_host<S>(da, db, c.plan, &stats);
    compare_with_reference(got, expected, where);
    GPU_CHECK_MSG(stats.products == products, where + ": stats count " + std::to_string(stats.products) +
                                                  " products, expected " + std::to_string(products));
    std::printf("  %-50s %lld batches, %lld products, %lld entries\n", where.c_str(),
                static_cast<long long>(stats.batches), static_cast<long long>(stats.products),
                static_cast<long long>(got.nvals()));
  }
  // Batches of a few rows whose joined result would not fit the budget go to host memory; with the
  // whole budget the result stays on the device.
  for (const bool small_budget : {true, false}) {
    DeviceSpgemmStats stats;
    const SpgemmPlan plan{.batch_bytes = small_budget ? 2 * 64 * entry_bytes : 0};
    auto result =
        spgemm_device_or_host<S>(da, db, device::spgemm::MaskView{}, plan, stream, &stats, spgemm_kernels<S>());
    const std::string where = std::string(name) + (small_budget ? ", device or host, small budget" : ", device or host");
    GPU_CHECK_MSG(std::holds_alternative<Csr<V>>(result) == small_budget,
                  where + ": the result is " + (std::holds_alternative<Csr<V>>(result) ? "in host memory" : "on the device"));
    const Csr<V> got = small_budget ? std::get<Csr<V>>(std::move(result)) : std::get<DeviceCsr<V>>(result).to_host(stream);
    compare_with_reference(got, expected, where);
  }
}

void check_edge_cases() {
  Stream stream;
  const Csr<bool> empty(0, 0);
  const DeviceCsr<bool> de = to_device(empty, stream);
  const Csr<unsigned long long> r = spgemm_to_host<Paths>(de, de);
  GPU_CHECK(r.n_rows() == 0 && r.nvals() == 0);
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
