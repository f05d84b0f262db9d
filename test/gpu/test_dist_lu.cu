// LU over the ranks' GPUs (gql/dist/device_lu.hpp). Run by CTest under mpiexec with 1, 2 and 3 ranks
// on the machine's GPUs (NCCL with a GPU per rank, else host memory over MPI). Every rank checks the
// whole factors against the one-GPU LU with the same panel, by cuBLAS's gemm and by the semiring
// GEMM: the pivots equal, the factors to rounding (cuBLAS's trsm and gemm may take another algorithm
// for a call of other columns; rank 0 says where they came out bit for bit), and P A = L U to the
// one-GPU LU's residual. Panels that do not divide n, more ranks than panels, a singular matrix
// failing every rank alike, and the op of generated code on a kernel's values.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "dist_check.hpp"
#include "gpu_check.hpp"
#include "gql/device/dense/lu_residual.hpp"
#include "gql/dist/device_lu.hpp"

namespace {

using namespace gql;
using gpu_test::small_inputs;

Matrix<double> random_matrix(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Matrix<double> m(n, n);
  for (auto& x : m.data()) x = value(rng);
  return m;
}

// The factors over the ranks' GPUs, from A on the host, downloaded.
gpu::LuFactors<double> over_the_ranks(const Matrix<double>& A, const gpu::DeviceLuOptions& options) {
  const Stream stream;
  DeviceMatrix<double> a = to_device(A, stream);
  DeviceBuffer<int> pivots(static_cast<size_t>(std::max<int64_t>(A.n_rows(), 1)));
  if (A.n_rows() > 0)
    dist::lu_on_devices(gpu_test::the_devices(), a.data().data(), A.n_rows(), pivots.data(), options, stream);
  gpu::LuFactors<double> out{a.to_host(stream), std::vector<int32_t>(static_cast<size_t>(A.n_rows()))};
  pivots.copy_to_host(std::span<int32_t>(out.pivots), stream);
  stream.synchronize();
  return out;
}

double residual(const Matrix<double>& A, const gpu::LuFactors<double>& f) {
  const Stream stream;
  DeviceBuffer<double> a(A.data().size()), lu(A.data().size());
  a.copy_from_host(A.data(), stream);
  lu.copy_from_host(f.lu.data(), stream);
  stream.synchronize();
  return gpu::lu_relative_residual(a.data(), lu.data(), f.pivots, A.n_rows(), /*column_major=*/false);
}

double max_difference(const Matrix<double>& a, const Matrix<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < a.data().size(); ++i) worst = std::max(worst, std::abs(a.data()[i] - b.data()[i]));
  return worst;
}
double largest_entry(const Matrix<double>& a) {
  double largest = 0;
  for (const double x : a.data()) largest = std::max(largest, std::abs(x));
  return largest;
}

void check_sizes() {
  const int ranks = gpu_test::the_devices().world().size();
  int cases = 0, bit_for_bit = 0;
  const std::vector<int64_t> sizes = small_inputs() ? std::vector<int64_t>{70, 300} : std::vector<int64_t>{1, 33, 300, 700, 1500};
  for (const int64_t n : sizes)
    for (const int64_t panel : {32, 64, 128, 512})
      for (const bool vendor : {false, true}) {
        ++cases;
        const Matrix<double> A = random_matrix(n, static_cast<uint64_t>(n * 13 + panel));
        const gpu::DeviceLuOptions options{panel, vendor};
        const gpu::LuFactors<double> one = gpu::lu(A, options), got = over_the_ranks(A, options);
        const std::string at = "n=" + std::to_string(n) + " panel " + std::to_string(panel) +
                               (vendor ? " cuBLAS" : " semiring GEMM") + " on " + std::to_string(ranks) + " ranks";
        GPU_CHECK_MSG(got.pivots == one.pivots, at + ": pivots differ from the one-GPU LU's");
        const double worst = max_difference(got.lu, one.lu);
        GPU_CHECK_MSG(worst <= 1e-10 * std::max(largest_entry(one.lu), 1.0),
                      at + ": factors differ by " + std::to_string(worst));
        if (worst == 0 && gpu_test::the_devices().world().rank() == 0) ++bit_for_bit;
        const double ours = residual(A, got), theirs = residual(A, one);
        GPU_CHECK_MSG(ours <= std::max(10 * theirs, 1e-14), at + ": residual " + std::to_string(ours) +
                                                                ", the one-GPU LU's " + std::to_string(theirs));
      }
  if (gpu_test::the_devices().world().rank() == 0)
    std::printf("%d of %d factorizations bit for bit the one-GPU LU's on %d ranks\n", bit_for_bit, cases, ranks);
}

// Column 40 (the second panel of 32) holds zeros: every rank fails with the one-GPU LU's words, and
// the ranks stay in step for the next call.
void singular_fails_on_every_rank() {
  Matrix<double> A = random_matrix(100, 5);
  for (int64_t i = 0; i < 100; ++i) A(i, 40) = 0.0;
  std::string what;
  try {
    (void)over_the_ranks(A, gpu::DeviceLuOptions{32, true});
  } catch (const Error& e) {
    GPU_CHECK(e.kind() == ErrorKind::requirement);
    what = e.what();
  }
  GPU_CHECK_MSG(what.find("singular (no nonzero pivot in column 40)") != std::string::npos, "error: " + what);
  const Matrix<double> B = random_matrix(90, 6);
  GPU_CHECK(over_the_ranks(B, gpu::DeviceLuOptions{32, false}).pivots == gpu::lu(B, gpu::DeviceLuOptions{32, false}).pivots);
}

// The op of a gqlc --mpi CUDA program: A on the host, the factors and pivots on every rank's device.
void kernel_op() {
  const Matrix<double> A = random_matrix(260, 8);
  gpu::Resident<Matrix<double>> input = gpu::Resident<Matrix<double>>::borrow(A);
  gpu::Resident<Matrix<double>> LU;
  gpu::Resident<Vector<int32_t>> pivots;
  KernelContext ctx;
  dist::lu(gpu_test::the_devices(), LU, pivots, input, gpu::LuOptions{.tile = 64, .vendor_gemm = false, .label = "k: lu"},
           ctx);
  const Stream stream;
  const Matrix<double> got = take_host(std::move(LU), stream);
  const Vector<int32_t> got_pivots = take_host(std::move(pivots), stream);
  const gpu::LuFactors<double> one = gpu::lu(A, gpu::DeviceLuOptions{64, false});
  GPU_CHECK(max_difference(got, one.lu) <= 1e-10 * largest_entry(one.lu));
  GPU_CHECK(std::equal(one.pivots.begin(), one.pivots.end(), got_pivots.values().begin()));
  GPU_CHECK(ctx.work().updates == 2 * 260 * 260 * 260 / 3);
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_over_ranks(argc, argv, "gpu_test_dist_lu", [] {
    check_sizes();
    singular_fails_on_every_rank();
    kernel_op();
  });
}
