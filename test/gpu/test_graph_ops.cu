// The device graph ops (gql/device/values/graph_ops.hpp) against their OpenMP twins (cpu/ops.hpp), exact:
// tril and triu for diagonals below, on and above the main one and past the graph's edges, transpose
// (of a graph and of one marked symmetric), the empty constructor, apply, union and intersect (into
// other element types, with pattern and empty operands), and reduce (sum, min, max, or, any) of stored
// values and of pattern graphs; then the product's graph masks read on the device
// (gql/device/values/graph_mask.hpp): a mask made by tril on the device, complemented and plain masks
// merged into an output that holds entries (replace and merge), and a result of another element type.
// Graphs: skewed ones with hubs (f32, i32, pattern), rectangular and empty ones, Kronecker, and the
// real graphs under GQL_DATA_DIR.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "skewed_graph.hpp"
#include "gql/device/ops.hpp"  // gql::gpu's graph ops, and gql/cpu/ops.hpp, the reference
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace graph_ops_test {

using namespace gql;
using gpu_test::Paths;
using gpu_test::same_graph;
using Count = Paths::value_type;  // the path count's values, as the device makes them

template <class T>
std::string shape(const Csr<T>& g) {
  return std::to_string(g.n_rows()) + " x " + std::to_string(g.n_cols()) + ", " + std::to_string(g.nvals()) +
         " entries";
}

// A graph of another shape: the first rows of g, columns as they are.
template <class T>
Csr<T> first_rows(const Csr<T>& g, int64_t rows) {
  Array<offset_t> offsets(g.row_offsets().begin(), g.row_offsets().begin() + rows + 1);
  const auto nvals = static_cast<size_t>(offsets.back());
  Array<index_t> cols(g.col_indices().begin(), g.col_indices().begin() + static_cast<std::ptrdiff_t>(nvals));
  Array<storage_t<T>> vals;
  if constexpr (stores_values<T>)
    vals.assign(g.values().begin(), g.values().begin() + static_cast<std::ptrdiff_t>(nvals));
  return Csr<T>(rows, g.n_cols(), std::move(offsets), std::move(cols), std::move(vals));
}

template <class T>
void check_bands_and_transpose(const std::string& name, const Csr<T>& g) {
  const Stream stream;
  for (const int64_t k : {int64_t{-1000000}, int64_t{-3}, int64_t{-1}, int64_t{0}, int64_t{1}, int64_t{2},
                          int64_t{1000000}}) {
    gpu::Resident<Csr<T>> a = gpu::Resident<Csr<T>>::borrow(g);
    gpu::Resident<Csr<T>> lower, upper;
    gpu::tril(lower, cpu::no_mask(), false, a, k, stream);
    gpu::triu(upper, cpu::no_mask(), false, a, k, stream);
    GPU_CHECK(lower.on_device() && !lower.on_host());
    Csr<T> want_lower, want_upper;
    cpu::tril(want_lower, cpu::no_mask(), false, g, k);
    cpu::triu(want_upper, cpu::no_mask(), false, g, k);
    GPU_CHECK_MSG(same_graph(lower.take_host(stream), want_lower), name + ": tril k = " + std::to_string(k));
    GPU_CHECK_MSG(same_graph(upper.take_host(stream), want_upper), name + ": triu k = " + std::to_string(k));
  }
  gpu::Resident<Csr<T>> a = gpu::Resident<Csr<T>>::borrow(g);
  gpu::Resident<Csr<T>> t;
  gpu::transpose(t, cpu::no_mask(), false, a, stream);
  Csr<T> want;
  cpu::transpose(want, cpu::no_mask(), false, g);
  GPU_CHECK_MSG(same_graph(t.take_host(stream), want), name + ": transpose (" + shape(g) + ")");
}

struct Halved {  // an element function as generated code writes it
  template <class A>
  GQL_HD double operator()(A a) const { return double(a) / 2; }
};

// apply(G, fn) on the device into f64, i32 (a conversion that truncates) and from a pattern graph.
template <class T>
void check_apply(const std::string& name, const Csr<T>& g) {
  const Stream stream;
  const auto one = [&](auto result) {
    using R = decltype(result);
    gpu::Resident<Csr<T>> a = gpu::Resident<Csr<T>>::borrow(g);
    gpu::Resident<Csr<R>> c;
    gpu::apply(c, cpu::no_mask(), false, a, Halved{}, stream);
    Csr<R> want;
    cpu::apply(want, cpu::no_mask(), false, g, Halved{});
    GPU_CHECK_MSG(c.on_device() && same_graph(c.take_host(stream), want),
                  name + ": apply into " + std::to_string(sizeof(R)) + "-byte values");
  };
  one(double{});
  one(int32_t{});
}

struct SumHalved {
  template <class A, class B>
  GQL_HD double operator()(A a, B b) const { return (double(a) + double(b)) / 2; }
};

// union(A, B, fn) and intersect(A, B, fn) on the device into f64 and i32, against the host's.
template <class TA, class TB>
void check_union_intersect(const std::string& name, const Csr<TA>& A, const Csr<TB>& B) {
  const Stream stream;
  const auto one = [&](auto result) {
    using R = decltype(result);
    gpu::Resident<Csr<TA>> a = gpu::Resident<Csr<TA>>::borrow(A);
    gpu::Resident<Csr<TB>> b = gpu::Resident<Csr<TB>>::borrow(B);
    gpu::Resident<Csr<R>> u, i;
    gpu::ewise_union(u, cpu::no_mask(), false, a, b, SumHalved{}, stream);
    gpu::ewise_intersect(i, cpu::no_mask(), false, a, b, SumHalved{}, stream);
    Csr<R> want_u, want_i;
    cpu::ewise_union(want_u, cpu::no_mask(), false, A, B, SumHalved{});
    cpu::ewise_intersect(want_i, cpu::no_mask(), false, A, B, SumHalved{});
    const std::string into = " into " + std::to_string(sizeof(R)) + "-byte values";
    GPU_CHECK_MSG(u.on_device() && same_graph(u.take_host(stream), want_u), name + ": union" + into);
    GPU_CHECK_MSG(i.on_device() && same_graph(i.take_host(stream), want_i), name + ": intersect" + into);
  };
  one(double{});
  one(int32_t{});
}

// reduce over the graph's values on the device against the host's, every monoid the language has.
template <class T, class R>
void check_reduce(const std::string& name, const Csr<T>& g) {
  const Stream stream;
  gpu::Resident<Csr<T>> a(to_device(g, stream));  // only on the device: a reduce reads it there
  const auto same = [&](auto got, auto want, const char* monoid) {
    const bool equal = got == want;
    GPU_CHECK_MSG(equal, name + ": reduce " + monoid + " " + std::to_string(double(got)) + ", the host's " +
                             std::to_string(double(want)));
  };
  same(gpu::reduce<Monoid::sum, R>(a, stream), cpu::reduce<Monoid::sum, R>(g), "sum");
  same(gpu::reduce<Monoid::min, R>(a, stream), cpu::reduce<Monoid::min, R>(g), "min");
  same(gpu::reduce<Monoid::max, R>(a, stream), cpu::reduce<Monoid::max, R>(g), "max");
  same(gpu::reduce<Monoid::lor, bool>(a, stream), cpu::reduce<Monoid::lor, bool>(g), "lor");
  if (g.nvals() == 0) same(gpu::reduce<Monoid::any, R>(a, stream), cpu::reduce<Monoid::any, R>(g), "any (empty)");
  GPU_CHECK_MSG(a.on_device() && !a.on_host(), name + ": reduce left the graph on the device only");
}

void check_empty_graph() {
  const Stream stream;
  for (const auto& [rows, cols] : {std::pair<int64_t, int64_t>{0, 0}, {1, 5}, {1000, 3}}) {
    gpu::Resident<Csr<Count>> c(gpu::empty_graph<Count>(rows, cols, stream));
    GPU_CHECK(c.on_device() && c.nvals() == 0 && c.rows() == rows && c.cols() == cols);
    GPU_CHECK_MSG(same_graph(c.take_host(stream), Csr<Count>(rows, cols)),
                  "empty graph " + std::to_string(rows) + " x " + std::to_string(cols));
  }
}

// C<M, replace> = G * G over S (the path count, or a bool semiring, whose products the device makes
// as bytes) with C and M made or held on the device, against cpu::mxm; the merge leaves C there.
template <class TC, class S = Paths>
void check_masked_product(const std::string& name, const Csr<bool>& G, const Csr<bool>& M, bool complement,
                          bool replace, const Csr<TC>& before) {
  const std::string what = name + (complement ? ", complemented mask" : ", mask") + (replace ? ", replace" : ", merge") +
                           (before.nvals() > 0 ? ", into " + std::to_string(before.nvals()) + " entries" : "");
  KernelContext cpu_ctx;
  Csr<TC> want = before.clone();
  cpu::mxm<S>(want, cpu::mask(M, complement), replace, G, G,
              cpu::ProductOptions{cpu::Accumulator::automatic, 0, "reference"}, cpu_ctx);
  KernelContext ctx;
  const Stream stream;
  gpu::Resident<Csr<bool>> g = gpu::Resident<Csr<bool>>::borrow(G);
  gpu::Resident<Csr<bool>> m(to_device(M, stream));  // the mask only on the device
  gpu::Resident<Csr<TC>> c(before.clone());
  gpu::mxm<S>(c, gpu::graph_mask(m, complement), replace, g, g, gpu::ProductOptions{0, 0, 0, 256, "masked"}, ctx);
  GPU_CHECK_MSG(c.on_device() && !c.on_host(), what + ": merged on the device");
  GPU_CHECK_MSG(same_graph(c.take_host(stream), want), what);
}

void check_graph(const std::string& name, const Csr<bool>& G) {
  check_bands_and_transpose(name + " (pattern)", G);
  const Csr<float> W = test_support::skewed_graph<float>(G.n_rows(), 5);
  check_bands_and_transpose(name + " f32 weights", W);
  check_reduce<float, double>(name + " f32", W);  // sums in double: exact in any order
  check_reduce<int, int64_t>(name + " i32", convert<int>(W));
  check_reduce<bool, Count>(name + " pattern", G);
  check_apply(name + " f32", W);
  check_apply(name + " pattern", G);
  check_union_intersect(name + " f32 with f32", W, test_support::skewed_graph<float>(G.n_rows(), 17));
  check_union_intersect(name + " pattern with f32", G, W);
  check_union_intersect(name + " with an empty graph", W, Csr<float>(G.n_rows(), G.n_cols()));

  // The triangle count's mask, made on the device: C<L, replace> = L * U stays there.
  const Stream stream;
  gpu::Resident<Csr<bool>> g = gpu::Resident<Csr<bool>>::borrow(G);
  gpu::Resident<Csr<bool>> L, U;
  gpu::tril(L, cpu::no_mask(), false, g, -1, stream);
  gpu::triu(U, cpu::no_mask(), false, g, 1, stream);
  gpu::Resident<Csr<Count>> C(gpu::empty_graph<Count>(G.n_rows(), G.n_cols(), stream));
  KernelContext ctx;
  gpu::mxm<Paths>(C, gpu::graph_mask(L, false), true, L, U, gpu::ProductOptions{0, 0, 0, 256, "triangles"}, ctx);
  GPU_CHECK_MSG(C.on_device() && !C.on_host() && L.on_device() && !L.on_host(),
                name + ": the triangle count's product and mask stay on the device");
  Csr<bool> hL, hU;
  cpu::tril(hL, cpu::no_mask(), false, G, -1);
  cpu::triu(hU, cpu::no_mask(), false, G, 1);
  Csr<Count> want(G.n_rows(), G.n_cols());
  KernelContext cpu_ctx;
  cpu::mxm<Paths>(want, cpu::mask(hL, false), true, hL, hU,
                  cpu::ProductOptions{cpu::Accumulator::automatic, 0, "reference"}, cpu_ctx);
  const Count triangles = gpu::reduce<Monoid::sum, Count>(C, stream);
  const Count want_triangles = cpu::reduce<Monoid::sum, Count>(want);
  GPU_CHECK_MSG(triangles == want_triangles, name + ": triangle count");
  GPU_CHECK_MSG(same_graph(C.take_host(stream), want), name + ": C<L, replace> = L * U");

  // Masks merged into an output that holds entries, on the device, as GraphBLAS's assignment says.
  const Csr<bool> M = test_support::skewed_graph<bool>(G.n_rows(), 11);
  const Csr<Count> before = convert<Count>(test_support::skewed_graph<float>(G.n_rows(), 13));
  for (const bool complement : {false, true})
    for (const bool replace : {false, true}) {
      check_masked_product(name, G, M, complement, replace, before);
      check_masked_product(name, G, M, complement, replace, Csr<Count>(G.n_rows(), G.n_cols()));
    }
  check_masked_product(name + " into i64", G, M, false, true, convert<int64_t>(before));
  check_masked_product(name + " into a pattern", G, M, true, false, convert<bool>(before));
  for (const bool replace : {false, true})
    check_masked_product<bool, reference_semirings::OrAnd>(name + " or_and into a pattern", G, M, false, replace,
                                                           convert<bool>(before));
}

}  // namespace graph_ops_test

int main(int argc, char** argv) {
  using namespace graph_ops_test;
  return gql::gpu_test::run_main(argc, argv, "gpu_test_graph_ops", [] {
    ReadOptions undirected;
    undirected.symmetrize = true;
    const bool small = gpu_test::small_inputs();
    check_empty_graph();
    const Csr<float> skewed = test_support::skewed_graph<float>(small ? 300 : 3000, 3);
    check_bands_and_transpose("rectangular", first_rows(skewed, skewed.n_rows() / 3));
    check_bands_and_transpose("empty 0 x 0", Csr<float>(0, 0));
    check_reduce<float, double>("empty", Csr<float>(7, 7));
    check_graph("kron:" + std::string(small ? "8" : "14"), generate_graph<bool>(small ? "kron:8" : "kron:14", undirected));
    check_graph("skewed", convert<bool>(skewed));
    if (small) return;
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    check_graph("ca-GrQc", read_graph<bool>(std::string(data) + "/ca-GrQc.csv", undirected));
  });
}
