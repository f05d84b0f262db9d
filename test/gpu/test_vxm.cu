// The device vxm and mxv ops against gql::cpu's (the same signatures, cpu/ops.hpp) for semirings with
// native atomics (int min, double sum over integers: exact in any order), CAS loops on bytes
// (lor_land on booleans) and a positional con (the least in-neighbour: a BFS parent), with no mask,
// a structural mask, a complemented one, replace and merge, sparse and dense vectors, under every
// load balance of the push (a thread, warp or block per frontier entry, equal edge tiles), on a
// symmetric Kronecker graph and a directed uniform graph.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "vector_check.hpp"
#include "gql/device/ops.hpp"  // gql::gpu::vxm and mxv, and gql/cpu/ops.hpp, the reference
#include "gql/generate.hpp"

// The semiring structs as the code generator writes them.
namespace vxm_test {

using namespace gql;
using gpu_test::MinPlusI32;

struct PlusTimesF64 {
  using a_type = double;
  using b_type = double;
  using value_type = double;
  static constexpr Monoid monoid = Monoid::sum;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(double a, double b, long long, long long, long long) { return a * b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return x + y; }
  GQL_HD static value_type zero() { return 0.0; }
  GQL_HD static value_type terminal() { return 0.0; }
};

struct LorLand {
  using a_type = bool;
  using b_type = bool;
  using value_type = bool;
  static constexpr Monoid monoid = Monoid::lor;
  static constexpr bool reads_values = true, positional = false, has_terminal = true;
  GQL_HD static value_type con(bool a, bool b, long long, long long, long long) { return a && b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return x || y; }
  GQL_HD static value_type zero() { return false; }
  GQL_HD static value_type terminal() { return true; }
};

struct MinFirstIndex {  // w(j) = the least k with v(k) and G(k, j): a BFS parent
  using a_type = bool;
  using b_type = bool;
  using value_type = int;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = false, positional = true, has_terminal = false;
  GQL_HD static value_type con(bool, bool, long long, long long k, long long) { return static_cast<int>(k); }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() { return 2147483647; }
  GQL_HD static value_type terminal() { return 0; }
};

}  // namespace vxm_test

namespace {

using namespace gql;

using gpu_test::same_vector;

// A sparse vector over every `stride`-th vertex from `first`, values 1 + k % 5.
template <class T>
Vector<T> every(int64_t n, int64_t first, int64_t stride) {
  return gpu_test::every<T>(n, first, stride, [](int64_t k) { return 1 + k % 5; });
}

template <class S, class TG>
void check_semiring(const std::string& name, const Csr<TG>& G) {
  using V = typename S::value_type;
  using TV = typename S::a_type;
  const int64_t n = G.n_rows();
  const Vector<TV> sparse_v = every<TV>(n, 3, 17);
  const Vector<TV> dense_v = Vector<TV>::dense(n, static_cast<storage_t<TV>>(1));
  const Vector<int> mask_vector = every<int>(n, 0, 3);
  KernelContext cpu_ctx, gpu_ctx;
  int cases = 0;
  for (const gpu::LoadBalance balance :
       {gpu::LoadBalance::edge, gpu::LoadBalance::thread, gpu::LoadBalance::warp, gpu::LoadBalance::block})
    for (const bool product_of_graph : {false, true})  // v * G, then G * v
      for (const Vector<TV>* v : {&sparse_v, &dense_v})
        for (int mask_kind = 0; mask_kind < 3; ++mask_kind)
          for (const bool replace : {false, true}) {
            const std::string what = name + (product_of_graph ? " mxv" : " vxm") +
                                     (v->is_dense() ? " dense v" : " sparse v") + " mask " + std::to_string(mask_kind) +
                                     (replace ? " replace" : " merge") + " balance " + gpu::to_string(balance);
            Vector<V> expected = every<V>(n, 1, 7), got = every<V>(n, 1, 7);  // earlier contents of w
            const cpu::TraversalOptions options{cpu::Direction::automatic, 15, 18, 0, "w"};
            const gpu::TraversalOptions gpu_options{options, balance};
            // The GPU's ops take the kernel's values as Residents (w holds its earlier contents) and
            // read a vector mask on the device.
            const auto run_both = [&](const auto& host_mask, const auto& device_mask) {
              gpu::Resident<Vector<V>> w(std::move(got));
              auto rv = gpu::Resident<Vector<TV>>::borrow(*v);
              auto rG = gpu::Resident<Csr<TG>>::borrow(G);
              if (product_of_graph) {
                cpu::mxv<S>(expected, host_mask, replace, G, *v, options, cpu_ctx);
                gpu::mxv<S>(w, device_mask, replace, rG, rv, gpu_options, gpu_ctx);
              } else {
                cpu::vxm<S>(expected, host_mask, replace, *v, G, options, cpu_ctx);
                gpu::vxm<S>(w, device_mask, replace, rv, rG, gpu_options, gpu_ctx);
              }
              got = w.take_host(Stream());
            };
            if (mask_kind == 0) {
              run_both(cpu::no_mask(), cpu::no_mask());
            } else {
              auto rm = gpu::Resident<Vector<int>>::borrow(mask_vector);
              run_both(cpu::mask(mask_vector, mask_kind == 2), gpu::vector_mask(rm, mask_kind == 2));
            }
            GPU_CHECK_MSG(same_vector(got, expected), what);
            ++cases;
          }
  GPU_CHECK_MSG(gpu_ctx.work().edges > 0, name + ": edges counted");
  std::printf("  %-44s %d cases\n", name.c_str(), cases);
}

template <class T>
void check_graph(const std::string& name, const Csr<T>& weighted) {
  check_semiring<vxm_test::PlusTimesF64>(name + " plus_times<f64>", convert<double>(weighted));
  check_semiring<vxm_test::MinPlusI32>(name + " min_plus<i32>", convert<int>(weighted));
  check_semiring<vxm_test::LorLand>(name + " lor_land<bool>", convert<bool>(weighted));
  check_semiring<vxm_test::MinFirstIndex>(name + " min_first_index", convert<bool>(weighted));
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_vxm", [] {
    const bool small = gpu_test::small_inputs();
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    symmetric.duplicates = Duplicates::min;
    check_graph(small ? "kron:7" : "kron:13", kronecker<int>({small ? 7 : 13, 16, 5, true}, symmetric));
    check_graph(small ? "urand:7 directed" : "urand:13 directed", urand<int>({small ? 7 : 13, 8, 9, true}));
  });
}
