// The dense matrices' device ops of gql/device/values/matrix_ops.hpp against their OpenMP twins, element by
// element: the filled constructor, scalar assignment, apply, union and intersect (with conversions
// of the element type), reduce (sum, min, max, or, and, any), transpose and dense(G, fill = v) of
// weighted and pattern graphs. Operands current on the host or on the device, outputs that alias an
// operand, empty and one-row shapes, and union's shape check. Float inputs hold small integers, so
// every sum is exact in any order and the comparisons are exact.
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_check.hpp"
#include "matrix_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's matrix ops, and gql/cpu/ops.hpp, the reference

namespace {

using namespace gql;

using gpu_test::numbered_matrix;
using gpu_test::same_matrix;

// The value a Resident holds, read through the device when it is there (its own copy, not the host's).
template <class T>
Matrix<T> held(gpu::Resident<Matrix<T>>& r, const Stream& stream) {
  return r.on_device() ? r.device(stream).to_host(stream) : r.host(stream).clone();
}

std::string shape_text(int64_t rows, int64_t cols) { return std::to_string(rows) + " x " + std::to_string(cols); }

// Element functions as generated code writes them, callable on both sides.
struct Twice {
  template <class A>
  GQL_HD A operator()(A a) const { return A(a * 2); }
};
struct Half {
  template <class A>
  GQL_HD double operator()(A a) const { return double(a) / 2.0; }
};
struct Positive {
  template <class A>
  GQL_HD bool operator()(A a) const { return a > A(0); }
};
struct MinOf {
  template <class A, class B>
  GQL_HD auto operator()(A a, B b) const { return a < b ? a : b; }
};
struct Differs {
  template <class A, class B>
  GQL_HD bool operator()(A a, B b) const { return a != b; }
};

// The operand both ways: borrowed where the caller keeps it on the host, and on the device.
template <class T>
struct Operand {
  Operand(const Matrix<T>& host, bool on_device, const Stream& stream)
      : device_copy(to_device(host, stream)),
        resident(on_device ? gpu::Resident<Matrix<T>>::borrow(device_copy) : gpu::Resident<Matrix<T>>::borrow(host)) {}
  DeviceMatrix<T> device_copy;
  gpu::Resident<Matrix<T>> resident;
};

void constructors(int64_t rows, int64_t cols) {
  const Stream stream;
  const std::string what = "constructor " + shape_text(rows, cols);
  GPU_CHECK_MSG(same_matrix(gpu::filled_matrix_of<float>(rows, cols, 2.5, stream).to_host(stream),
                            Matrix<float>(rows, cols, 2.5f)),
                what);
  GPU_CHECK_MSG(same_matrix(gpu::filled_matrix_of<int32_t>(rows, cols, -7, stream).to_host(stream),
                            Matrix<int32_t>(rows, cols, -7)),
                what);
  GPU_CHECK_MSG(same_matrix(gpu::filled_matrix_of<bool>(rows, cols, true, stream).to_host(stream),
                            Matrix<bool>(rows, cols, storage_t<bool>(1))),
                what);
  GPU_CHECK_MSG(same_matrix(gpu::filled_matrix_of<double>(rows, cols, 0.0, stream).to_host(stream),
                            Matrix<double>(rows, cols)),
                what);
  bool refused = false;
  try {
    gpu::filled_matrix_of<float>(-1, cols, 1.0, stream);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK_MSG(refused, "a negative number of rows");
}

// C = value, C on either side: every position, C's shape kept, the value converted to C's type.
template <class T>
void assign_scalar(int64_t rows, int64_t cols, bool on_device) {
  const Stream stream;
  const Matrix<T> before = numbered_matrix<T>(rows, cols, 3);
  Matrix<T> expected = before.clone();
  cpu::assign_scalar(expected, cpu::no_mask(), false, 9.75);
  Operand<T> C(before, on_device, stream);
  gpu::assign_scalar(C.resident, cpu::no_mask(), false, 9.75, stream);
  GPU_CHECK(C.resident.on_device());
  GPU_CHECK_MSG(same_matrix(held(C.resident, stream), expected), "assign_scalar " + shape_text(rows, cols));
}

// apply, union, intersect and reduce of TA operands into TA and into other element types.
template <class TA>
void elementwise(int64_t rows, int64_t cols, bool on_device, const std::string& name) {
  const Stream stream;
  const std::string what = name + " " + shape_text(rows, cols) + (on_device ? " on the device" : " on the host");
  const Matrix<TA> a = numbered_matrix<TA>(rows, cols, 1), b = numbered_matrix<TA>(rows, cols, 6);
  Operand<TA> A(a, on_device, stream), B(b, on_device, stream);

  const auto check = [&](const auto& expected, auto& got, const std::string& op) {
    GPU_CHECK_MSG(got.on_device(), what + " " + op + " left on the device");
    GPU_CHECK_MSG(same_matrix(held(got, stream), expected), what + " " + op);
  };
  {
    Matrix<TA> expected;
    cpu::apply(expected, cpu::no_mask(), false, a, Twice{});
    gpu::Resident<Matrix<TA>> got;
    gpu::apply(got, cpu::no_mask(), false, A.resident, Twice{}, stream);
    check(expected, got, "apply");
  }
  {
    Matrix<double> expected;
    cpu::apply(expected, cpu::no_mask(), false, a, Half{});
    gpu::Resident<Matrix<double>> got;
    gpu::apply(got, cpu::no_mask(), false, A.resident, Half{}, stream);
    check(expected, got, "apply into f64");
  }
  {
    Matrix<bool> expected;
    cpu::apply(expected, cpu::no_mask(), false, a, Positive{});
    gpu::Resident<Matrix<bool>> got;
    gpu::apply(got, cpu::no_mask(), false, A.resident, Positive{}, stream);
    check(expected, got, "apply into bool");
  }
  {
    Matrix<TA> expected;
    cpu::ewise_union(expected, cpu::no_mask(), false, a, b, MinOf{});
    gpu::Resident<Matrix<TA>> got;
    gpu::ewise_union(got, cpu::no_mask(), false, A.resident, B.resident, MinOf{}, stream);
    check(expected, got, "union");
  }
  {
    Matrix<bool> expected;
    cpu::ewise_intersect(expected, cpu::no_mask(), false, a, b, Differs{});
    gpu::Resident<Matrix<bool>> got;
    gpu::ewise_intersect(got, cpu::no_mask(), false, A.resident, B.resident, Differs{}, stream);
    check(expected, got, "intersect into bool");
  }
  // The operands are the caller's and unchanged.
  GPU_CHECK_MSG(same_matrix(A.device_copy.to_host(stream), a), what + " operand kept");

  // reduce into TA (a float sum in double: exact in any order), under every builtin monoid whose
  // result no order of combination changes.
  using R = std::conditional_t<std::is_floating_point_v<TA>, double, TA>;
  const auto reduced = [&](auto monoid) {
    constexpr Monoid M = decltype(monoid)::value;
    const R host = cpu::reduce<M, R>(a);
    const R device = gpu::reduce<M, R>(A.resident, stream);
    GPU_CHECK_MSG(host == device, what + " reduce " + std::to_string(static_cast<int>(M)));
  };
  reduced(std::integral_constant<Monoid, Monoid::sum>{});
  reduced(std::integral_constant<Monoid, Monoid::min>{});
  reduced(std::integral_constant<Monoid, Monoid::max>{});
  reduced(std::integral_constant<Monoid, Monoid::lor>{});
  reduced(std::integral_constant<Monoid, Monoid::land>{});
  reduced(std::integral_constant<Monoid, Monoid::any>{});
}

// An output that is also the operand: A = apply(A, f), then A = union(A, B, f), then A = transpose(A).
void aliased_outputs() {
  const Stream stream;
  const Matrix<int32_t> a = numbered_matrix<int32_t>(70, 50, 2), b = numbered_matrix<int32_t>(70, 50, 4);
  Matrix<int32_t> applied, joined, expected;
  cpu::apply(applied, cpu::no_mask(), false, a, Twice{});
  cpu::ewise_union(joined, cpu::no_mask(), false, applied, b, MinOf{});
  cpu::transpose(expected, cpu::no_mask(), false, joined);
  auto A = gpu::Resident<Matrix<int32_t>>(to_device(a, stream));
  auto B = gpu::Resident<Matrix<int32_t>>(to_device(b, stream));
  gpu::apply(A, cpu::no_mask(), false, A, Twice{}, stream);
  gpu::ewise_union(A, cpu::no_mask(), false, A, B, MinOf{}, stream);
  gpu::transpose(A, cpu::no_mask(), false, A, stream);
  GPU_CHECK(same_matrix(held(A, stream), expected));
}

void union_refuses_other_shapes() {
  const Stream stream;
  auto A = gpu::Resident<Matrix<float>>(to_device(numbered_matrix<float>(3, 4, 0), stream));
  auto B = gpu::Resident<Matrix<float>>(to_device(numbered_matrix<float>(4, 3, 0), stream));
  gpu::Resident<Matrix<float>> C;
  bool refused = false;
  try {
    gpu::ewise_union(C, cpu::no_mask(), false, A, B, MinOf{}, stream);
  } catch (const Error& e) {
    refused = std::string(e.what()).find("union") != std::string::npos;
  }
  GPU_CHECK(refused);
}

template <class T>
void transposes(int64_t rows, int64_t cols, bool on_device) {
  const Stream stream;
  const Matrix<T> a = numbered_matrix<T>(rows, cols, 5);
  Matrix<T> expected;
  cpu::transpose(expected, cpu::no_mask(), false, a);
  Operand<T> A(a, on_device, stream);
  gpu::Resident<Matrix<T>> got;
  gpu::transpose(got, cpu::no_mask(), false, A.resident, stream);
  GPU_CHECK(got.on_device() && got.rows() == cols && got.cols() == rows);
  GPU_CHECK_MSG(same_matrix(held(got, stream), expected),
                "transpose " + shape_text(rows, cols) + ", " + std::to_string(sizeof(storage_t<T>)) + "-byte elements");
}

// A rows x cols graph whose row i holds the columns j with (i * 7 + j * 3) % spread == 0 (spread 1:
// every position), values (i + j) % 9 - 4; some rows empty.
template <class T>
Csr<T> banded_graph(int64_t rows, int64_t cols, int64_t spread) {
  Array<offset_t> offsets{0};
  Array<index_t> columns;
  Array<storage_t<T>> values;
  for (int64_t i = 0; i < rows; ++i) {
    if (i % 5 != 3)
      for (int64_t j = 0; j < cols; ++j)
        if ((i * 7 + j * 3) % spread == 0) {
          columns.push_back(static_cast<index_t>(j));
          if constexpr (stores_values<T>) values.push_back(static_cast<storage_t<T>>((i + j) % 9 - 4));
        }
    offsets.push_back(static_cast<offset_t>(columns.size()));
  }
  return Csr<T>(rows, cols, std::move(offsets), std::move(columns), std::move(values));
}

template <class T>
void densified(int64_t rows, int64_t cols, int64_t spread, T fill) {
  const Stream stream;
  const Csr<T> g = banded_graph<T>(rows, cols, spread);
  Matrix<T> expected;
  cpu::densify(expected, g, fill);
  auto G = gpu::Resident<Csr<T>>::borrow(g);
  gpu::Resident<Matrix<T>> got;
  gpu::densify(got, G, fill, stream);
  GPU_CHECK(got.on_device());
  GPU_CHECK_MSG(same_matrix(held(got, stream), expected), "dense " + shape_text(rows, cols) + " of " +
                                                       std::to_string(g.nvals()) + " entries, " +
                                                       std::to_string(sizeof(storage_t<T>)) + "-byte elements");
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_matrix_ops_elementwise", [] {
    const int64_t big = gql::gpu_test::small_inputs() ? 45 : 1000;
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{big, big + 13}, {37, 53}, {1, 7}, {0, 5}}) {
      constructors(rows, cols);
      for (const bool on_device : {true, false}) {
        assign_scalar<float>(rows, cols, on_device);
        assign_scalar<int64_t>(rows, cols, on_device);
        assign_scalar<bool>(rows, cols, on_device);
        elementwise<float>(rows, cols, on_device, "f32");
        elementwise<int32_t>(rows, cols, on_device, "i32");
        elementwise<int64_t>(rows, cols, on_device, "i64");
        transposes<float>(rows, cols, on_device);
        transposes<double>(cols, rows, on_device);
        transposes<bool>(rows, cols, on_device);
      }
      densified<double>(rows, cols, 3, 1e30);
      densified<int32_t>(rows, cols, 1, -1);
      densified<bool>(rows, cols, 2, false);
      densified<float>(rows, cols, 1000003, 0.5f);  // at most a few entries
    }
    aliased_outputs();
    union_refuses_other_shapes();
  });
}
