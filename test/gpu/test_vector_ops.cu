// The device vector ops (gql/device/values/vector_ops.hpp) against their OpenMP twins (cpu/ops.hpp), exact
// for integers and element-wise floats: union, intersect and apply (with type conversions), copies,
// scalar assignment, element stores and reduce (sum, min, max, or, and, any), with no mask, a structural mask
// and a complemented one, replace and merge, over sparse, empty and dense operands and outputs whose
// earlier contents the merge keeps.
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu_check.hpp"
#include "vector_check.hpp"
#include "vector_mask_cases.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's vector ops, and gql/cpu/ops.hpp, the reference

namespace {

using namespace gql;

using gpu_test::each_mask;
using gpu_test::same_vector;

// A sparse vector over every `stride`-th index from `first`, values (k * 7) % 11 - 3.
template <class T>
Vector<T> every(int64_t n, int64_t first, int64_t stride) {
  return gpu_test::every<T>(n, first, stride, [](int64_t k) { return (k * 7) % 11 - 3; });
}

// Element functions as generated code writes them, callable on both sides.
struct MinOf {
  template <class A, class B>
  GQL_HD auto operator()(A a, B b) const { return a < b ? a : b; }
};
struct Differs {
  template <class A, class B>
  GQL_HD bool operator()(A a, B b) const { return a != b; }
};
struct Twice {
  template <class A>
  GQL_HD A operator()(A a) const { return A(a * 2); }
};

// The operands of every case: sparse, empty and dense.
template <class T>
std::vector<Vector<T>> operands(int64_t n) {
  std::vector<Vector<T>> out;
  out.push_back(every<T>(n, 0, 3));
  out.push_back(every<T>(n, 1, 2));
  out.push_back(Vector<T>(n));
  out.push_back(Vector<T>::dense(n, static_cast<storage_t<T>>(5)));
  return out;
}

// Outputs before an element store: sparse, empty, dense.
template <class T>
std::vector<Vector<T>> store_targets(int64_t n) {
  std::vector<Vector<T>> out;
  out.push_back(every<T>(n, 3, 4));
  out.push_back(Vector<T>(n));
  out.push_back(Vector<T>::dense(n, storage_t<T>{}));
  return out;
}

template <class TA, class TB, class TW>
void check_types(const std::string& name, int64_t n) {
  const Stream stream;
  const Vector<int> mask_vector = every<int>(n, 2, 5);
  const Vector<TW> before = every<TW>(n, 0, 4);
  int cases = 0;
  for (const Vector<TA>& a : operands<TA>(n))
    for (const Vector<TB>& b : operands<TB>(n)) {
      auto ra = gpu::Resident<Vector<TA>>::borrow(a);
      auto rb = gpu::Resident<Vector<TB>>::borrow(b);
      const std::string what = name + " a " + std::to_string(a.nvals()) + " b " + std::to_string(b.nvals());
      each_mask<TW>(
          what + " union", before, mask_vector,
          [&](Vector<TW>& w, const auto& m, bool r) { cpu::ewise_union(w, m, r, a, b, MinOf{}); },
          [&](auto& w, const auto& m, bool r) { gpu::ewise_union(w, m, r, ra, rb, MinOf{}, stream); }, cases);
      each_mask<TW>(
          what + " intersect", before, mask_vector,
          [&](Vector<TW>& w, const auto& m, bool r) { cpu::ewise_intersect(w, m, r, a, b, Differs{}); },
          [&](auto& w, const auto& m, bool r) { gpu::ewise_intersect(w, m, r, ra, rb, Differs{}, stream); }, cases);
    }
  for (const Vector<TA>& a : operands<TA>(n)) {
    auto ra = gpu::Resident<Vector<TA>>::borrow(a);
    const std::string what = name + " a " + std::to_string(a.nvals());
    each_mask<TW>(
        what + " apply", before, mask_vector, [&](Vector<TW>& w, const auto& m, bool r) { cpu::apply(w, m, r, a, Twice{}); },
        [&](auto& w, const auto& m, bool r) { gpu::apply(w, m, r, ra, Twice{}, stream); }, cases);
    each_mask<TW>(
        what + " assign", before, mask_vector, [&](Vector<TW>& w, const auto& m, bool r) { cpu::assign(w, m, r, a); },
        [&](auto& w, const auto& m, bool r) { gpu::assign(w, m, r, ra, stream); }, cases);
    // reduce under the builtin monoids whose result no order of combination changes here (a product
    // of many entries overflows, in an order-dependent way), into TW.
    const auto reduced = [&](auto monoid) {
      constexpr Monoid M = decltype(monoid)::value;
      const TW host = cpu::reduce<M, TW>(a);
      const TW device = gpu::reduce<M, TW>(ra, stream);
      GPU_CHECK_MSG(host == device, what + " reduce " + std::to_string(static_cast<int>(M)));
      ++cases;
    };
    reduced(std::integral_constant<Monoid, Monoid::sum>{});
    reduced(std::integral_constant<Monoid, Monoid::min>{});
    reduced(std::integral_constant<Monoid, Monoid::max>{});
    reduced(std::integral_constant<Monoid, Monoid::lor>{});
    reduced(std::integral_constant<Monoid, Monoid::land>{});
    reduced(std::integral_constant<Monoid, Monoid::any>{});
  }
  each_mask<TW>(
      name + " assign_scalar", before, mask_vector,
      [&](Vector<TW>& w, const auto& m, bool r) { cpu::assign_scalar(w, m, r, 9); },
      [&](auto& w, const auto& m, bool r) { gpu::assign_scalar(w, m, r, 9, stream); }, cases);
  // Element stores: into a present index, an absent one before, between and after the entries, and
  // into a dense vector.
  for (const Vector<TW>& start : store_targets<TW>(n)) {
    Vector<TW> expected = start.clone();
    gpu::Resident<Vector<TW>> got(start.clone());
    for (const int64_t i : {int64_t{3}, int64_t{0}, int64_t{5}, n - 1, int64_t{7}}) {
      cpu::set_element(expected, i, 4);
      gpu::set_element(got, i, 4, stream);
    }
    GPU_CHECK_MSG(same_vector(got.take_host(stream), expected), name + " set_element from " + std::to_string(start.nvals()));
    ++cases;
  }
  // The constructors.
  GPU_CHECK(same_vector(gpu::Resident<Vector<TW>>(gpu::empty_vector<TW>(n)).take_host(stream), Vector<TW>(n)));
  GPU_CHECK(same_vector(gpu::Resident<Vector<TW>>(gpu::filled_vector_of<TW>(n, 3, stream)).take_host(stream),
                        Vector<TW>::dense(n, static_cast<storage_t<TW>>(convert_element<TW>(3)))));
  std::printf("  %-40s %d cases\n", name.c_str(), cases);
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_vector_ops", [] {
    const int64_t n = gpu_test::small_inputs() ? 61 : 100003;
    check_types<int64_t, int64_t, int64_t>("i64, i64 -> i64", n);
    check_types<int32_t, double, double>("i32, f64 -> f64", n);
    check_types<double, int64_t, int32_t>("f64, i64 -> i32", n);
    check_types<bool, bool, bool>("bool, bool -> bool", n);
    check_types<float, float, float>("f32, f32 -> f32", n);
  });
}
