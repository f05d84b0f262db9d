// lu(A) on the GPU: ||P A - L U|| / ||A|| small next to cuSOLVER getrf's on the same matrix, the
// pivots of gql::cpu::lu, panels that do not divide n, the trailing update by cuBLAS and by the
// semiring GEMM, a singular matrix reported as gql::cpu::lu reports it, and the op of generated code
// on a kernel's values (the matrix on the device or the host; the factors left on the device).
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cusolverDn.h>

#include "gpu_check.hpp"
#include "gql/cpu/lu.hpp"
#include "gql/device/dense/lu.hpp"
#include "gql/device/resident.hpp"
#include "gql/device/dense/lu_residual.hpp"

namespace {

using namespace gql;

template <class T>
Matrix<T> random_matrix(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Matrix<T> m(n, n);
  for (auto& x : m.data()) x = static_cast<T>(value(rng));
  return m;
}

// cuSOLVER's getrf on the same buffer (which it reads column-major, i.e. A^T): its relative residual.
template <class T>
double cusolver_residual(const Matrix<T>& A) {
  const int n = static_cast<int>(A.n_rows());
  Stream stream;
  DeviceBuffer<T> a(A.data().size()), f(A.data().size());
  DeviceBuffer<int> pivots(static_cast<size_t>(n)), info(1);
  a.copy_from_host(A.data(), stream);
  f.copy_from_device(a, stream);
  cusolverDnHandle_t handle = nullptr;
  GPU_CHECK(cusolverDnCreate(&handle) == CUSOLVER_STATUS_SUCCESS);
  cusolverDnSetStream(handle, stream.get());
  int work_size = 0;
  if constexpr (std::is_same_v<T, float>) cusolverDnSgetrf_bufferSize(handle, n, n, f.data(), n, &work_size);
  else cusolverDnDgetrf_bufferSize(handle, n, n, f.data(), n, &work_size);
  DeviceBuffer<T> work(static_cast<size_t>(work_size));
  if constexpr (std::is_same_v<T, float>)
    cusolverDnSgetrf(handle, n, n, f.data(), n, work.data(), pivots.data(), info.data());
  else
    cusolverDnDgetrf(handle, n, n, f.data(), n, work.data(), pivots.data(), info.data());
  std::vector<int32_t> host_pivots(static_cast<size_t>(n));
  pivots.copy_to_host(std::span<int>(host_pivots.data(), host_pivots.size()), stream);
  stream.synchronize();
  cusolverDnDestroy(handle);
  for (auto& p : host_pivots) --p;  // 1-based
  return gpu::lu_relative_residual(a.data(), f.data(), host_pivots, n, /*column_major=*/true);
}

template <class T>
double gql_residual(const Matrix<T>& A, const gpu::LuFactors<T>& factors) {
  Stream stream;
  DeviceBuffer<T> a(A.data().size()), f(A.data().size());
  a.copy_from_host(A.data(), stream);
  f.copy_from_host(factors.lu.data(), stream);
  stream.synchronize();
  return gpu::lu_relative_residual(a.data(), f.data(), factors.pivots, A.n_rows(), /*column_major=*/false);
}

template <class T>
void residual_near_cusolver(const std::string& what, int64_t n, int64_t panel, bool vendor, double floor) {
  const Matrix<T> A = random_matrix<T>(n, static_cast<uint64_t>(n * 7 + panel));
  const auto factors = gpu::lu(A, gpu::DeviceLuOptions{panel, vendor});
  const double ours = gql_residual(A, factors), theirs = cusolver_residual(A);
  GPU_CHECK_MSG(ours <= std::max(10 * theirs, floor), what + ": residual " + std::to_string(ours) + ", cuSOLVER's " +
                                                         std::to_string(theirs));
  if constexpr (std::is_same_v<T, double>) {  // in f32, rounding may break a near tie the other way
    const auto cpu_factors = cpu::lu(A, panel);
    int64_t differ = 0;
    for (size_t k = 0; k < factors.pivots.size(); ++k) differ += factors.pivots[k] != cpu_factors.pivots[k];
    GPU_CHECK_MSG(differ == 0, what + ": " + std::to_string(differ) + " pivots differ from the OpenMP LU's");
  }
  std::printf("%s: residual %.3g (cuSOLVER %.3g)\n", what.c_str(), ours, theirs);
}

std::string error_text(const auto& factor) {
  try {
    factor();
  } catch (const Error& e) {
    return std::string(to_string(e.kind())) + ": " + e.reason();
  }
  return "no error";
}

void singular_reported() {
  const int64_t n = gpu_test::small_inputs() ? 40 : 300;
  Matrix<double> A = random_matrix<double>(n, 5);
  for (int64_t i = 0; i < n; ++i) A(i, 17) = 0.0;
  const std::string gpu_text = error_text([&] { gpu::lu(A, gpu::DeviceLuOptions{16, true}); });
  const std::string cpu_text = error_text([&] { cpu::lu(A, 16); });
  GPU_CHECK_MSG(gpu_text == cpu_text && gpu_text.find("column 17") != std::string::npos,
                "singular matrix: GPU says '" + gpu_text + "', OpenMP says '" + cpu_text + "'");
}

// The op on Residents: the same factors and pivots as gpu::lu on the host matrix, the argument
// unchanged, the results on the device.
void op_on_kernel_values() {
  const int64_t n = gpu_test::small_inputs() ? 90 : 500;
  const Matrix<double> A = random_matrix<double>(n, 11);
  const auto expected = gpu::lu(A, gpu::DeviceLuOptions{64, true});
  const Stream stream;
  const DeviceMatrix<double> on_device = to_device(A, stream);
  for (const bool device_argument : {true, false}) {
    const std::string what = std::string("lu op, ") + (device_argument ? "device" : "host") + " argument";
    KernelContext ctx;
    auto a = device_argument ? gpu::Resident<Matrix<double>>::borrow(on_device) : gpu::Resident<Matrix<double>>::borrow(A);
    gpu::Resident<Matrix<double>> factors;
    gpu::Resident<Vector<int32_t>> pivots;
    gpu::lu(factors, pivots, a, gpu::LuOptions{64, true, 0, "op"}, ctx);
    GPU_CHECK_MSG(factors.on_device() && pivots.on_device(), what + ": the results are not on the device");
    const Matrix<double> lu = gpu::take_host(std::move(factors), stream);
    const Vector<int32_t> p = gpu::take_host(std::move(pivots), stream);
    GPU_CHECK_MSG(std::equal(lu.data().begin(), lu.data().end(), expected.lu.data().begin()), what + ": factors differ");
    GPU_CHECK_MSG(p.nvals() == n && std::equal(p.values().begin(), p.values().end(), expected.pivots.begin()),
                  what + ": pivots differ");
    const Matrix<double> argument = on_device.to_host(stream);
    GPU_CHECK_MSG(std::equal(argument.data().begin(), argument.data().end(), A.data().begin()),
                  what + ": the argument was written");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_lu", [] {
    const bool small = gpu_test::small_inputs();
    const int64_t n = small ? 100 : 700;
    residual_near_cusolver<double>("f64 cuBLAS gemm, panel 128", n, 128, true, 1e-13);
    residual_near_cusolver<double>("f64 semiring gemm, panel 48", n, 48, false, 1e-13);
    residual_near_cusolver<float>("f32 cuBLAS gemm, panel 64", n, 64, true, 1e-5);
    if (!small) residual_near_cusolver<double>("f64 cuBLAS gemm, panel 256, n=2050", 2050, 256, true, 1e-13);
    singular_reported();
    op_on_kernel_values();
  });
}
