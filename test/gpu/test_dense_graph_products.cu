// Products of a dense matrix with a graph or a vector on the GPU (gql/device/dense/dense_products.hpp:
// graph x matrix, matrix x graph, matrix x vector, vector x matrix) against their OpenMP twins
// (gql/cpu/ops.hpp), as generated code calls them: over Residents, the result left on the device.
// Both fold each output's k in ascending order, so every semiring here must match exactly: min_plus
// (i32, f32: a single rounding per term), plus_times i64, max_min f64, a positional con (the k passed
// to con), and bool graphs and vectors counted into u64. Graphs: a directed one with skewed degrees
// (its transpose differs from it), a symmetric Kronecker graph (read as its own transpose) and an
// empty one; dense sides that differ from the graph's, so rows and columns cannot be swapped unseen.
// Vector products run with sparse, dense and empty vectors, under no mask, a mask and its
// complement, replace and merge.
#include <cstdint>
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's products, and gql/cpu/ops.hpp, the reference
#include "gql/generate.hpp"
#include "matrix_check.hpp"
#include "reference_semirings.hpp"
#include "skewed_graph.hpp"
#include "vector_check.hpp"
#include "vector_mask_cases.hpp"

namespace {

using namespace gql;
using namespace gql::reference_semirings;
using gpu_test::numbered_matrix;
using gpu_test::same_matrix;

// A sparse vector over every `stride`-th index from `first`, values (k * 5) % 9 - 2.
template <class T>
Vector<T> every(int64_t n, int64_t first, int64_t stride) {
  return gpu_test::every<T>(n, first, stride, [](int64_t k) { return (k * 5) % 9 - 2; });
}

// The vector operands: sparse, dense and empty.
template <class T>
std::vector<Vector<T>> vectors(int64_t n) {
  std::vector<Vector<T>> out;
  out.push_back(every<T>(n, 1, 3));
  out.push_back(Vector<T>::dense(n, static_cast<storage_t<T>>(convert_element<T>(2))));
  out.push_back(Vector<T>(n));
  return out;
}

// C = G * B and C = A * G on both sides; the device's result stays there.
template <class S, class TG>
void check_matrix_products(const std::string& name, const Csr<TG>& G, int64_t dense_side, int& cases) {
  using V = typename S::value_type;
  using TA = typename S::a_type;
  using TB = typename S::b_type;
  const int64_t n = G.n_rows();
  const Matrix<TB> B = numbered_matrix<TB>(n, dense_side, 3);
  const Matrix<TA> A = numbered_matrix<TA>(dense_side, n, 7);
  const cpu::ProductOptions host_options{.label = "C"};
  const gpu::ProductOptions device_options{.label = "C"};
  KernelContext host_ctx, device_ctx;
  auto rG = gpu::Resident<Csr<TG>>::borrow(G);
  auto rA = gpu::Resident<Matrix<TA>>::borrow(A);
  auto rB = gpu::Resident<Matrix<TB>>::borrow(B);
  {
    Matrix<V> expected;
    gpu::Resident<Matrix<V>> got;
    cpu::mxm<S>(expected, cpu::no_mask(), false, G, B, host_options, host_ctx);
    gpu::mxm<S>(got, cpu::no_mask(), false, rG, rB, device_options, device_ctx);
    GPU_CHECK_MSG(got.on_device(), name + " G * B left on the device");
    GPU_CHECK_MSG(same_matrix(got.take_host(Stream()), expected), name + " G * B");
  }
  {
    Matrix<V> expected;
    gpu::Resident<Matrix<V>> got;
    cpu::mxm<S>(expected, cpu::no_mask(), false, A, G, host_options, host_ctx);
    gpu::mxm<S>(got, cpu::no_mask(), false, rA, rG, device_options, device_ctx);
    GPU_CHECK_MSG(got.on_device(), name + " A * G left on the device");
    GPU_CHECK_MSG(same_matrix(got.take_host(Stream()), expected), name + " A * G");
  }
  GPU_CHECK_MSG(device_ctx.work().products == host_ctx.work().products, name + ": products counted alike");
  cases += 2;
}

// w<mask, replace> = v * A and A * v on both sides, w starting from earlier contents.
template <class S>
void check_vector_products(const std::string& name, int64_t n, int64_t dense_side, int& cases) {
  using V = typename S::value_type;
  using TA = typename S::a_type;
  using TB = typename S::b_type;
  const Matrix<TB> right = numbered_matrix<TB>(n, dense_side, 5);  // v * right: dense_side entries
  const Matrix<TA> left = numbered_matrix<TA>(dense_side, n, 9);   // left * v: dense_side entries
  const Vector<int> mask_vector = every<int>(dense_side, 2, 5);
  const Vector<V> before = every<V>(dense_side, 0, 4);
  const cpu::TraversalOptions host_options{cpu::Direction::automatic, 15, 18, 0, "w"};
  const gpu::TraversalOptions device_options{host_options, gpu::LoadBalance::edge};
  KernelContext host_ctx, device_ctx;
  auto r_right = gpu::Resident<Matrix<TB>>::borrow(right);
  auto r_left = gpu::Resident<Matrix<TA>>::borrow(left);
  for (const Vector<TA>& v : vectors<TA>(n)) {
    auto rv = gpu::Resident<Vector<TA>>::borrow(v);
    gpu_test::each_mask<V>(
        name + " v * A, v of " + std::to_string(v.nvals()), before, mask_vector,
        [&](Vector<V>& w, const auto& m, bool r) { cpu::vxm<S>(w, m, r, v, right, host_options, host_ctx); },
        [&](auto& w, const auto& m, bool r) { gpu::vxm<S>(w, m, r, rv, r_right, device_options, device_ctx); }, cases);
  }
  for (const Vector<TB>& v : vectors<TB>(n)) {
    auto rv = gpu::Resident<Vector<TB>>::borrow(v);
    gpu_test::each_mask<V>(
        name + " A * v, v of " + std::to_string(v.nvals()), before, mask_vector,
        [&](Vector<V>& w, const auto& m, bool r) { cpu::mxv<S>(w, m, r, left, v, host_options, host_ctx); },
        [&](auto& w, const auto& m, bool r) { gpu::mxv<S>(w, m, r, r_left, rv, device_options, device_ctx); }, cases);
  }
  GPU_CHECK_MSG(device_ctx.work().products == host_ctx.work().products, name + ": products counted alike");
}

template <class T>
void check_graph(const std::string& name, const Csr<T>& weighted, int64_t dense_side) {
  int cases = 0;
  check_matrix_products<MinPlus<int>>(name + " min_plus i32", convert<int>(weighted), dense_side, cases);
  check_matrix_products<MinPlus<float>>(name + " min_plus f32", convert<float>(weighted), dense_side, cases);
  check_matrix_products<PlusTimes<long long>>(name + " plus_times i64", convert<long long>(weighted), dense_side,
                                              cases);
  check_matrix_products<MaxMin<double>>(name + " max_min f64", convert<double>(weighted), dense_side, cases);
  check_matrix_products<ViaK>(name + " via_k i64", convert<long long>(weighted), dense_side, cases);
  check_matrix_products<Paths<unsigned long long>>(name + " paths bool -> u64", convert<bool>(weighted), dense_side,
                                                   cases);
  std::printf("  %-40s %d cases\n", name.c_str(), cases);
}

void check_vectors(int64_t n, int64_t dense_side) {
  int cases = 0;
  check_vector_products<MinPlus<int>>("min_plus i32", n, dense_side, cases);
  check_vector_products<MinPlus<float>>("min_plus f32", n, dense_side, cases);
  check_vector_products<PlusTimes<long long>>("plus_times i64", n, dense_side, cases);
  check_vector_products<MaxMin<double>>("max_min f64", n, dense_side, cases);
  check_vector_products<ViaK>("via_k i64", n, dense_side, cases);
  check_vector_products<Paths<unsigned long long>>("paths bool -> u64", n, dense_side, cases);
  std::printf("  %-40s %d cases\n", ("vectors of " + std::to_string(n)).c_str(), cases);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_dense_graph_products", [] {
    const bool small = gpu_test::small_inputs();
    const int64_t n = small ? 150 : 1100;
    check_graph("skewed directed", test_support::skewed_graph<int>(n, 11), small ? 37 : 300);
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    symmetric.duplicates = Duplicates::min;
    check_graph(small ? "kron:7" : "kron:10", kronecker<int>({small ? 7 : 10, 16, 5, true}, symmetric), 65);
    check_graph("empty", Csr<int>(40, 40), 9);
    check_vectors(n, small ? 70 : 513);
    check_vectors(1, 1);
  });
}
