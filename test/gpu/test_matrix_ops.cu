// The dense matrices' device ops (gql/device/values/matrix_ops.hpp) against their OpenMP twins: a copy made
// on the device from a borrowed device argument (which stays unchanged) and on the host from a host
// one, element stores that wait with the matrix until it is read (in order: of two stores to one
// position the later wins; past the pending limit they are written early), a whole-value write that
// drops waiting stores, and stores outside the matrix refused. Element sizes 1, 4 and 8 bytes.
#include <cstdint>
#include <string>
#include <vector>

#include "gpu_check.hpp"
#include "matrix_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's matrix ops, and gql/cpu/ops.hpp, the reference

namespace {

using namespace gql;

using gpu_test::numbered_matrix;
using gpu_test::same_matrix;

// The stores of a loop such as apsp's diagonal, then two to one position.
struct Store {
  int64_t i, j;
  double value;
};
std::vector<Store> stores(int64_t rows, int64_t cols) {
  std::vector<Store> out;
  for (int64_t i = 0; i < std::min(rows, cols); ++i) out.push_back({i, i, 0.0});
  out.push_back({0, cols - 1, 5.0});
  out.push_back({rows - 1, 0, 3.0});
  out.push_back({0, cols - 1, 7.0});  // the later store to (0, cols - 1) wins
  return out;
}

template <class T>
void copy_and_store(int64_t rows, int64_t cols, bool argument_on_device) {
  const std::string what = std::string(argument_on_device ? "device" : "host") + " argument " +
                           std::to_string(rows) + " x " + std::to_string(cols) + ", " +
                           std::to_string(sizeof(storage_t<T>)) + "-byte elements";
  const Stream stream;
  const Matrix<T> host_argument = numbered_matrix<T>(rows, cols, 1);
  const DeviceMatrix<T> device_argument = to_device(host_argument, stream);
  auto A = argument_on_device ? gpu::Resident<Matrix<T>>::borrow(device_argument)
                              : gpu::Resident<Matrix<T>>::borrow(host_argument);

  Matrix<T> expected;
  cpu::assign(expected, cpu::no_mask(), false, host_argument);
  for (const Store& s : stores(rows, cols)) cpu::set_element(expected, s.i, s.j, s.value);

  gpu::Resident<Matrix<T>> C;
  gpu::assign(C, cpu::no_mask(), false, A, stream);
  GPU_CHECK(C.on_device() == argument_on_device);
  for (const Store& s : stores(rows, cols)) gpu::set_element(C, s.i, s.j, s.value, stream);
  GPU_CHECK(C.on_device() == argument_on_device && C.on_host() == !argument_on_device);
  if (!GPU_CHECK(same_matrix(C.host(stream), expected))) std::fprintf(stderr, "  %s\n", what.c_str());
  // Read through the device too: the stores were written there, once.
  const Matrix<T> through_device = C.take_device(stream).to_host(stream);
  if (!GPU_CHECK(same_matrix(through_device, expected))) std::fprintf(stderr, "  %s (device)\n", what.c_str());
  // The argument is the caller's and unchanged.
  GPU_CHECK(same_matrix(device_argument.to_host(stream), host_argument));
}

// Stores then a whole value written over them: the waiting stores are dropped, not applied to it.
void stores_dropped_by_a_write() {
  const Stream stream;
  const Matrix<float> a = numbered_matrix<float>(64, 48, 2), b = numbered_matrix<float>(64, 48, 3);
  auto A = gpu::Resident<Matrix<float>>(to_device(a, stream));
  auto B = gpu::Resident<Matrix<float>>(to_device(b, stream));
  gpu::set_element(A, 5, 6, 100.0, stream);
  gpu::assign(A, cpu::no_mask(), false, B, stream);
  GPU_CHECK(same_matrix(A.host(stream), b));
  // And a store into a value just downloaded goes to the device copy, which the host's then follows.
  gpu::set_element(A, 7, 8, 42.0, stream);
  GPU_CHECK(A.on_device() && !A.on_host());
  GPU_CHECK(A.host(stream)(7, 8) == 42.0f);
}

// More stores than the pending list keeps: written in batches, in order.
void past_the_pending_limit() {
  const Stream stream;
  const int64_t n = 2048;
  const auto limit = static_cast<int64_t>(PendingStores<int32_t>::limit);
  Matrix<int32_t> expected(n, n, 0);
  auto M = gpu::Resident<Matrix<int32_t>>(to_device(expected, stream));
  for (int64_t k = 0; k < limit + 1000; ++k) {
    const int64_t position = (k * 7919) % (n * n);
    gpu::set_element(M, position / n, position % n, k, stream);
    expected(position / n, position % n) = static_cast<int32_t>(k);
  }
  GPU_CHECK(same_matrix(M.host(stream), expected));
}

void outside_the_matrix() {
  const Stream stream;
  auto M = gpu::Resident<Matrix<double>>(to_device(numbered_matrix<double>(4, 5, 0), stream));
  bool refused = false;
  try {
    gpu::set_element(M, 4, 0, 1.0, stream);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::usage && std::string(e.what()).find("(4, 0) is outside a 4 x 5 matrix") !=
                                                  std::string::npos;
  }
  GPU_CHECK(refused);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_matrix_ops", [] {
    const int64_t big = gql::gpu_test::small_inputs() ? 40 : 1000;
    for (const bool on_device : {true, false}) {
      copy_and_store<float>(big, big, on_device);
      copy_and_store<double>(37, 53, on_device);
      copy_and_store<int64_t>(53, 37, on_device);
      copy_and_store<bool>(big, 33, on_device);
    }
    stores_dropped_by_a_write();
    if (!gql::gpu_test::small_inputs()) past_the_pending_limit();
    outside_the_matrix();
  });
}
