// The GPU's masked products by the mask's entries (gql/device/spgemm/masked_dot.hpp) against the OpenMP op,
// gql::cpu::mxm: C<M, replace> = A * B with the GPU forced to `masked dot`, to `masked saxpy`, and left
// to choose, for a count (the triangle count's), min_plus on i32, plus_times on f32 with small integer
// weights (exact sums in any order) and a bool any_pair (a pattern result: only entries found). Masks:
// the triangle count's (L with L * U, B's transpose made on the device, and again with G marked
// symmetric so that none is made), a random mask, an empty one; graphs: skewed ones with hubs,
// Kronecker, and the real graphs under GQL_DATA_DIR. Also the device transpose against the host's.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "device_semirings.cuh"
#include "gpu_check.hpp"
#include "graph_check.hpp"
#include "skewed_graph.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/device/device_transpose.hpp"
#include "gql/device/ops.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace masked_dot_test {

using namespace gql;
using gpu_test::MinPlusI32;
using gpu_test::Paths;
using gpu_test::same_graph;
using gpu_test::PlusTimesF32;
using AnyPair = reference_semirings::AnyPair;

// C<M, replace> = A * B over S on the GPU (each masked method) equals the OpenMP op's C.
template <class S, class TA, class TB, class TM>
void check_product(const std::string& name, const Csr<TA>& A, const Csr<TB>& B, const Csr<TM>& M) {
  using V = typename S::value_type;
  KernelContext cpu_ctx;
  Csr<V> expected(A.n_rows(), B.n_cols());
  cpu::mxm<S>(expected, cpu::mask(M, false), true, A, B, cpu::ProductOptions{cpu::Accumulator::automatic, 0, "ref"},
              cpu_ctx);
  for (const cpu::MaskedMethod method : {cpu::MaskedMethod::dot, cpu::MaskedMethod::saxpy, cpu::MaskedMethod::automatic}) {
    const char* what = method == cpu::MaskedMethod::dot ? "dot" : method == cpu::MaskedMethod::saxpy ? "saxpy" : "auto";
    KernelContext ctx(/*explain=*/true);
    gpu::Resident<Csr<TA>> a = gpu::Resident<Csr<TA>>::borrow(A);
    gpu::Resident<Csr<TB>> b = gpu::Resident<Csr<TB>>::borrow(B);
    gpu::Resident<Csr<TM>> m = gpu::Resident<Csr<TM>>::borrow(M);
    gpu::Resident<Csr<V>> c(Csr<V>(A.n_rows(), B.n_cols()));
    gpu::ProductOptions options{0, 0, 0, 256, "masked"};
    options.masked = method;
    gpu::mxm<S>(c, gpu::graph_mask(m, false), true, a, b, options, ctx);
    const Csr<V> got = c.take_host(Stream());
    GPU_CHECK_MSG(same_graph(got, expected), name + ", masked " + what + ": " + std::to_string(got.nvals()) +
                                                 " entries, the OpenMP op's " + std::to_string(expected.nvals()));
    if (method == cpu::MaskedMethod::dot && !ctx.plan().empty())
      GPU_CHECK_MSG(ctx.plan()[0].find("by the mask's") != std::string::npos,
                    name + ": the forced dot method ran (" + ctx.plan()[0] + ")");
  }
}

// Every semiring over one graph G: the triangle count's mask and operands, then G * G through a
// random mask and through an empty one.
void check_graph(const std::string& name, Csr<bool> G) {
  const Csr<bool> L = cpu::triangle(G, cpu::Triangle::lower, -1), U = cpu::triangle(G, cpu::Triangle::upper, 1);
  check_product<Paths>(name + " count, C<L> = L * U", L, U, L);
  check_product<AnyPair>(name + " any_pair, C<L> = L * U", L, U, L);
  const Csr<float> W = test_support::skewed_graph<float>(G.n_rows(), 5);
  const Csr<int> Wi = convert<int>(W);
  const Csr<bool> random_mask = test_support::skewed_graph<bool>(G.n_rows(), 11);
  check_product<PlusTimesF32>(name + " plus_times f32, random mask", W, W, random_mask);
  check_product<MinPlusI32>(name + " min_plus i32, random mask", Wi, Wi, random_mask);
  check_product<Paths>(name + " count, empty mask", G, G, Csr<bool>(G.n_rows(), G.n_cols()));
  // Marked symmetric (where it is): B's transpose is B itself, none is made.
  if (!same_graph(cpu::transpose(G), G)) return;
  G.derived().mark_symmetric();
  check_product<Paths>(name + " count, C<G> = G * G, G symmetric", G, G, G);
}

void check_transpose(const std::string& name, const Csr<float>& g) {
  const Stream stream;
  const Csr<float> got = gpu::transpose(to_device(g, stream), stream).to_host(stream);
  GPU_CHECK_MSG(same_graph(got, cpu::transpose_of(g)), name + ": the device transpose");
}

}  // namespace masked_dot_test

int main(int argc, char** argv) {
  using namespace masked_dot_test;
  return gql::gpu_test::run_main(argc, argv, "gpu_test_masked_dot", [] {
    ReadOptions undirected;
    undirected.symmetrize = true;
    undirected.self_loops = SelfLoops::drop;
    const bool small = gpu_test::small_inputs();
    check_transpose("skewed 3000", test_support::skewed_graph<float>(3000, 3));
    check_transpose("rectangular 0 x 0", Csr<float>(0, 0));
    check_graph("kron:" + std::string(small ? "8" : "14"), generate_graph<bool>(small ? "kron:8" : "kron:14", undirected));
    check_graph("skewed", convert<bool>(test_support::skewed_graph<float>(small ? 300 : 4000, 7)));
    if (small) return;
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    check_graph("ca-GrQc", read_graph<bool>(std::string(data) + "/ca-GrQc.csv", undirected));
  });
}
