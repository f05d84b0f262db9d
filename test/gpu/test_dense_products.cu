// Products of dense matrices on the GPU (gql/device/dense/dense_products.hpp) against the OpenMP ones
// (gql/cpu/dense_products.hpp): the tiled semiring GEMM over min_plus (i32, f32), plus_times (i64,
// and f32 as a policy that does not declare con_multiplies), a user-written agg (noisy-or, f64), a
// positional con and bool operands counted into u64; cuBLAS for plus_times over f32 and f64; the op
// of generated code (gpu::mxm over Residents) for both. Ragged sizes: no edge a multiple of the
// 64 x 64 tile or of the 16-deep k step. Integers must match exactly, floats to a relative 1e-5
// (f32) and 1e-12 (f64), since the order of the sums differs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_check.hpp"
#include "gql/cpu/dense_products.hpp"
#include "gql/device/dense/dense_products.hpp"
#include "reference_semirings.hpp"

// The policies are outside the unnamed namespace: their members need not all be called.
namespace dense_policies {

using namespace gql;
using namespace gql::reference_semirings;

// plus_times as gqlc writes it for a spec's plus_times: it may run as a vendor GEMM.
template <class T>
struct VendorPlusTimes : PlusTimes<T> {
  static constexpr bool con_multiplies = true;
};

// noisy-or: the chance that at least one of independent events happens (a user-written agg).
struct NoisyOr : PolicyShape<double, double, double, Monoid::user> {
  GQL_HD static double con(double a, double b, long long, long long, long long) { return a * b; }
  GQL_HD static double agg(double x, double y) { return x + y - x * y; }
  GQL_HD static double zero() { return 0; }
  GQL_HD static double terminal() { return 0; }
};

}  // namespace dense_policies

namespace {

using namespace gql;
using namespace gql::reference_semirings;
using namespace dense_policies;
using gpu_test::small_inputs;

template <class T>
Matrix<T> random_matrix(int64_t rows, int64_t cols, uint64_t seed) {
  std::mt19937_64 rng(seed);
  Matrix<T> m(rows, cols);
  for (auto& x : m.data()) {
    if constexpr (std::is_same_v<T, bool>) x = rng() % 3 == 0;
    else if constexpr (std::is_floating_point_v<T>) x = static_cast<T>(rng() % 1000) / T(1000);
    else x = static_cast<T>(rng() % 100) - 30;
  }
  return m;
}

template <class V>
bool close(V expected, V got) {
  if constexpr (std::is_floating_point_v<V>) {
    const double tolerance = std::is_same_v<V, float> ? 1e-5 : 1e-12;
    return std::abs(double(expected) - double(got)) <= tolerance * std::max(1.0, std::abs(double(expected)));
  } else {
    return expected == got;
  }
}

template <class V>
void expect_same(const std::string& what, const Matrix<V>& expected, const Matrix<V>& got) {
  if (!GPU_CHECK(expected.n_rows() == got.n_rows() && expected.n_cols() == got.n_cols())) return;
  int64_t wrong = 0;
  for (size_t e = 0; e < expected.data().size(); ++e) wrong += !close<V>(expected.data()[e], got.data()[e]);
  gpu_test::check(wrong == 0, what + ": " + std::to_string(wrong) + " entries differ from the OpenMP product", __FILE__,
                  __LINE__);
}

// The kernel (or cuBLAS) on device matrices, and the op of generated code on Residents, against the CPU.
template <class S, class TA, class TB>
void check(const std::string& name, int64_t m, int64_t p, int64_t q, uint64_t seed) {
  using V = typename S::value_type;
  const std::string what = name + " " + std::to_string(m) + "x" + std::to_string(p) + "x" + std::to_string(q);
  const Matrix<TA> A = random_matrix<TA>(m, p, seed);
  const Matrix<TB> B = random_matrix<TB>(p, q, seed + 1);
  const Matrix<V> expected = cpu::dense_mxm<S>(A, B);
  const Stream stream;
  if constexpr (!gpu::gemm_by_cublas<S, TA, TB>()) {
    const auto product = gpu::dense_mxm<S>(to_device(A, stream), to_device(B, stream), stream);
    expect_same(what + " (tiled kernel)", expected, product.to_host(stream));
  }
  KernelContext ctx;
  auto a = gpu::Resident<Matrix<TA>>::borrow(A);
  auto b = gpu::Resident<Matrix<TB>>::borrow(B);
  gpu::Resident<Matrix<V>> c;
  gpu::mxm<S>(c, cpu::no_mask(), false, a, b, gpu::ProductOptions{0, 0, 0, 256, "test"}, ctx);
  GPU_CHECK(c.on_device());
  expect_same(what + " (gpu::mxm)", expected, c.take_host(Stream::for_call(ctx)));
  GPU_CHECK(ctx.work().products == m * p * q);
}

void dense_products() {
  const std::vector<int64_t> sizes = small_inputs() ? std::vector<int64_t>{1, 70} : std::vector<int64_t>{1, 17, 70, 333};
  uint64_t seed = 1;
  for (const int64_t n : sizes) {
    const int64_t m = n, p = n + 5, q = std::max<int64_t>(1, n - 3);
    check<MinPlus<int>, int, int>("min_plus i32", m, p, q, seed++);
    check<MinPlus<float>, float, float>("min_plus f32", m, p, q, seed++);
    check<PlusTimes<long long>, long long, long long>("plus_times i64", m, p, q, seed++);
    check<PlusTimes<float>, float, float>("plus_times f32 (tiled)", m, p, q, seed++);
    check<VendorPlusTimes<float>, float, float>("plus_times f32 (cuBLAS)", m, p, q, seed++);
    check<VendorPlusTimes<double>, double, double>("plus_times f64 (cuBLAS)", m, p, q, seed++);
    check<NoisyOr, double, double>("noisy-or f64", m, p, q, seed++);
    check<ViaK, long long, long long>("via_k i64", m, p, q, seed++);
    check<Paths<unsigned long long>, bool, bool>("paths bool -> u64", m, p, q, seed++);
  }
  // An empty inner dimension: every entry is the semiring's zero.
  check<MinPlus<int>, int, int>("min_plus i32", 5, 0, 7, seed++);
  check<VendorPlusTimes<float>, float, float>("plus_times f32 (cuBLAS)", 5, 0, 7, seed++);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_dense_products", [] { dense_products(); });
}
