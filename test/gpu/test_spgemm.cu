// The GPU generalized graph multiplication against a plain CPU reference, on generated graphs with
// skewed degrees, for several semirings (native atomics, CAS loops on 4-byte and 1-byte values, a
// positional con, a terminal monoid) and plans that send rows to every class (tiny and small rows
// sorted in shared memory, medium rows hashed, spilled rows sorted in global memory with the default
// and other sort chunks, large rows in dense column chunks, one or many per row), all rows to one
// class, or the rows through many batches; and masks (plain and complemented) applied on the device.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "reference_product.hpp"
#include "skewed_graph.hpp"
#include "gql/device/spgemm/spgemm.hpp"

// The semiring structs as the code generator writes them (external linkage, as in generated code).
namespace spgemm_test {

using namespace gql;
using gpu_test::MinPlusI32;
using gpu_test::Paths;
using gpu_test::PlusTimesF32;

struct XorMix {  // a user-written agg: a CAS loop on 4-byte values
  using a_type = int;
  using b_type = int;
  using value_type = unsigned;
  static constexpr Monoid monoid = Monoid::user;
  static constexpr bool reads_values = true, positional = true, has_terminal = false;
  GQL_HD static value_type con(int a, int b, long long, long long k, long long j) {
    return static_cast<unsigned>(a * 7919 + b * 31 + k * 13 + j);
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return x ^ y; }
  GQL_HD static value_type zero() { return 0u; }
  GQL_HD static value_type terminal() { return 0u; }
};

struct OrBytes {  // a 1-byte value: the CAS works on the aligned word around the cell
  using a_type = int;
  using b_type = int;
  using value_type = unsigned char;
  static constexpr Monoid monoid = Monoid::user;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(int a, int b, long long, long long, long long) {
    return static_cast<unsigned char>(1u << ((a + b) % 8));
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return static_cast<unsigned char>(x | y); }
  GQL_HD static value_type zero() { return 0; }
  GQL_HD static value_type terminal() { return 0xff; }
};

struct MinVia {  // a positional con: the smallest intermediate vertex k of any path i -> k -> j
  using a_type = bool;
  using b_type = bool;
  using value_type = long long;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = false, positional = true, has_terminal = false;
  GQL_HD static value_type con(bool, bool, long long, long long k, long long) { return k; }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() { return 9223372036854775807LL; }
  GQL_HD static value_type terminal() { return 0; }
};

struct LorLand {  // a terminal monoid (or stops at true) on byte values
  using a_type = int;
  using b_type = int;
  using value_type = unsigned char;
  static constexpr Monoid monoid = Monoid::user;
  static constexpr bool reads_values = true, positional = false, has_terminal = true;
  GQL_HD static value_type con(int a, int b, long long, long long, long long) { return (a + b) % 3 == 0 ? 1 : 0; }
  GQL_HD static value_type agg(value_type x, value_type y) { return x | y; }
  GQL_HD static value_type zero() { return 0; }
  GQL_HD static value_type terminal() { return 1; }
};

}  // namespace spgemm_test

namespace {

using namespace gql;
using namespace spgemm_test;

using test_support::skewed_graph;  // hubs of a third of the vertices every 97 rows

// Plans that route the rows of the generated graphs (bounds from 0 to several thousand) through
// every class, or all through one.
struct Case {
  const char* what;
  SpgemmPlan plan;
};

std::vector<Case> cases() {
  constexpr int64_t never = (int64_t{1} << 31) - 1;
  // Every row spilled to the hybrid sort in global memory, in sort chunks of `chunk` (0: the default).
  const auto all_spilled = [](int chunk) {
    return SpgemmPlan{.large_row_products = never, .medium_row_products = 0, .small_row_products = 0,
                      .tiny_row_products = 0, .sorted_chunk_items = chunk};
  };
  return {
      {"default plan", SpgemmPlan{}},
      {"every class, narrow chunks",
       SpgemmPlan{.large_row_products = 1024, .medium_row_products = 256, .small_row_products = 64,
                  .tiny_row_products = 16, .large_chunk_bytes = 1024}},
      {"all medium or spilled",
       SpgemmPlan{.large_row_products = never, .medium_row_products = 8192, .small_row_products = 0,
                  .tiny_row_products = 0}},
      {"all medium or spilled, sorted emission",
       SpgemmPlan{.large_row_products = never, .medium_row_products = 8192, .small_row_products = 0,
                  .tiny_row_products = 0, .medium_bitmap_columns = 0}},
      {"all spilled (hybrid sort)", all_spilled(0)},
      // The sort chunk of a schedule's sort(chunk = N): many chunks merged per row, or most rows in
      // one chunk (4096 only for values of up to 4 bytes; wider ones take their largest).
      {"all spilled, sort chunks of 512", all_spilled(512)},
      {"all spilled, sort chunks of 4096", all_spilled(4096)},
      {"all large, one chunk",
       SpgemmPlan{.large_row_products = 1, .medium_row_products = 0, .small_row_products = 0, .tiny_row_products = 0,
                  .large_chunk_bytes = 64 * 1024}},
      {"all large, many chunks",
       SpgemmPlan{.large_row_products = 1, .medium_row_products = 0, .small_row_products = 0, .tiny_row_products = 0,
                  .large_chunk_bytes = 1024}},
      {"every class, many batches",
       SpgemmPlan{.large_row_products = 1024, .medium_row_products = 256, .small_row_products = 64,
                  .tiny_row_products = 16, .large_chunk_bytes = 2048, .batch_bytes = size_t{1} << 17}},
  };
}

void print_stats(const std::string& where, const DeviceSpgemmStats& s, int64_t nvals) {
  std::printf("  %-58s %lld products; rows %lld/%lld/%lld/%lld/%lld (tiny/small/medium/spilled/large), %lld batches, "
              "%lld entries\n",
              where.c_str(), static_cast<long long>(s.products), static_cast<long long>(s.tiny_rows),
              static_cast<long long>(s.small_rows), static_cast<long long>(s.medium_rows),
              static_cast<long long>(s.sorted_rows), static_cast<long long>(s.large_rows),
              static_cast<long long>(s.batches), static_cast<long long>(nvals));
}

template <class S>
void check_semiring(const char* name) {
  const int64_t n = gpu_test::small_inputs() ? 300 : 3000;
  Csr<typename S::a_type> a = skewed_graph<typename S::a_type>(n, 11);
  Csr<typename S::b_type> b = skewed_graph<typename S::b_type>(n, 12);
  Csr<typename S::value_type> expected = reference<S>(a, b);
  Stream stream;
  DeviceCsr<typename S::a_type> da = to_device(a, stream);
  DeviceCsr<typename S::b_type> db = to_device(b, stream);
  for (const Case& c : cases()) {
    const std::string where = std::string(name) + ", " + c.what;
    DeviceSpgemmStats stats;
    const Csr<typename S::value_type> got = spgemm<S>(da, db, c.plan, stream, &stats).to_host(stream);
    compare_with_reference(got, expected, where);
    print_stats(where, stats, got.nvals());
    using V = typename S::value_type;
    const int64_t chunk = c.plan.sorted_chunk_items == 0 ? SpgemmShapes::sorted_chunk_items<V>
                                                         : std::min(c.plan.sorted_chunk_items,
                                                                    SpgemmShapes::max_sorted_chunk_items<V>);
    GPU_CHECK_MSG(stats.sorted_chunk_items == chunk, where + ": sorted in chunks of " +
                                                         std::to_string(stats.sorted_chunk_items) + ", expected " +
                                                         std::to_string(chunk));
  }
}

// The reference product's entries that a structural mask lets through.
template <class V, class M>
Csr<V> through_mask(const Csr<V>& c, const Csr<M>& mask, bool complement) {
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  gql::Array<V> vals;
  for (int64_t i = 0; i < c.n_rows(); ++i) {
    const auto m_begin = mask.col_indices().begin() + mask.row_offsets()[i];
    const auto m_end = mask.col_indices().begin() + mask.row_offsets()[i + 1];
    for (offset_t p = c.row_offsets()[i]; p < c.row_offsets()[i + 1]; ++p) {
      const bool present = std::binary_search(m_begin, m_end, c.col_indices()[p]);
      if (present == complement) continue;
      cols.push_back(c.col_indices()[p]);
      vals.push_back(c.values()[p]);
    }
    offsets.push_back(static_cast<offset_t>(cols.size()));
  }
  return Csr<V>(c.n_rows(), c.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

template <class S>
void check_masked(const char* name) {
  const int64_t n = gpu_test::small_inputs() ? 300 : 3000;
  Csr<typename S::a_type> a = skewed_graph<typename S::a_type>(n, 21);
  Csr<typename S::b_type> b = skewed_graph<typename S::b_type>(n, 22);
  // A mask denser than the operands, so both a plain and a complemented mask keep many entries.
  Csr<bool> mask = skewed_graph<bool>(n, 23);
  const Csr<typename S::value_type> full = reference<S>(a, b);
  Stream stream;
  DeviceCsr<typename S::a_type> da = to_device(a, stream);
  DeviceCsr<typename S::b_type> db = to_device(b, stream);
  DeviceCsr<bool> dm = to_device(mask, stream);
  for (const bool complement : {false, true}) {
    const Csr<typename S::value_type> expected = through_mask(full, mask, complement);
    for (const Case& c : cases()) {
      const std::string where = std::string(name) + (complement ? ", complemented mask, " : ", mask, ") + c.what;
      DeviceSpgemmStats stats;
      const Csr<typename S::value_type> got =
          spgemm<S>(da, db, mask_view(dm, complement), c.plan, stream, &stats).to_host(stream);
      compare_with_reference(got, expected, where);
    }
  }
}

void check_edge_cases() {
  Stream stream;
  Csr<bool> empty(5, 5);
  DeviceCsr<bool> de = to_device(empty, stream);
  Csr<unsigned long long> c = spgemm<Paths>(de, de, SpgemmPlan{}, stream).to_host(stream);
  c.validate();
  GPU_CHECK(c.n_rows() == 5 && c.nvals() == 0);
  Csr<bool> wide(2, 3);
  DeviceCsr<bool> dw = to_device(wide, stream);
  bool refused = false;
  try {
    spgemm<Paths>(dw, dw, SpgemmPlan{}, stream);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK(refused);
  bool bad_plan = false;
  try {
    DeviceCsr<bool> dg = to_device(Csr<bool>(4, 4), stream);
    spgemm<Paths>(dg, dg, SpgemmPlan{.medium_row_products = 100000}, stream);
  } catch (const Error& e) {
    bad_plan = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK(bad_plan);
  bool bad_chunk = false;
  try {
    DeviceCsr<bool> dg = to_device(Csr<bool>(4, 4), stream);
    spgemm<Paths>(dg, dg, SpgemmPlan{.sorted_chunk_items = 300}, stream);
  } catch (const Error& e) {
    bad_chunk = e.kind() == ErrorKind::usage && std::string(e.what()).find("512, 1024, 2048, 4096") != std::string::npos;
  }
  GPU_CHECK(bad_chunk);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_main(argc, argv, "test_spgemm", [] {
    check_semiring<Paths>("paths (count)");
    check_semiring<PlusTimesF32>("plus_times f32");
    check_semiring<MinPlusI32>("min_plus i32");
    check_semiring<XorMix>("user xor agg (CAS, positional con)");
    check_semiring<OrBytes>("user or agg on bytes (word CAS)");
    check_semiring<MinVia>("min over k (positional con)");
    check_semiring<LorLand>("or of a test on bytes (terminal monoid)");
    check_masked<Paths>("paths (count)");
    check_masked<MinPlusI32>("min_plus i32");
    check_masked<OrBytes>("user or agg on bytes (word CAS)");
    check_edge_cases();
  });
}
