// The unmasked product of graphs over the ranks' GPUs (gql/dist/device_mxm.hpp), as generated code calls
// it (over Residents), against the one-GPU product (gql::gpu::mxm) of the whole graphs: equal entry for
// entry, joined on every rank and on rank 0 alone (the others keep the shape without entries). Run by
// CTest under mpiexec with 1, 2 and 3 ranks on the machine's GPUs. Graphs: a symmetric kron:10 counted
// as fof counts it, a skewed directed graph with i64 plus_times and f32 min_plus, a graph with fewer
// rows than ranks, and a positional con (run whole on each rank, so every rank holds the product).
#include <cstdint>
#include <cstdio>
#include <string>

#include "dist_check.hpp"
#include "gpu_check.hpp"
#include "gql/device/ops.hpp"
#include "gql/dist/device_mxm.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"
#include "gql/generate.hpp"
#include "graph_check.hpp"
#include "reference_semirings.hpp"
#include "skewed_graph.hpp"

namespace {

using namespace gql;
using namespace gql::reference_semirings;

template <class S, class TC, class TA>
void check_product(const std::string& what, const Csr<TA>& A) {
  const dist::DeviceWorld& devices = gpu_test::the_devices();
  const gpu::ProductOptions options{0, 0, 0, 256, "product"};
  const Stream stream;
  KernelContext one_ctx;
  gpu::Resident<Csr<TA>> a = gpu::Resident<Csr<TA>>::borrow(A), b = gpu::Resident<Csr<TA>>::borrow(A);
  gpu::Resident<Csr<TC>> one;
  gpu::mxm<S>(one, gpu::no_mask(), false, a, b, options, one_ctx);
  const Csr<TC> expected = one.take_host(stream);
  for (const bool on_root : {false, true}) {
    KernelContext ctx;
    gpu::Resident<Csr<TA>> ra = gpu::Resident<Csr<TA>>::borrow(A), rb = gpu::Resident<Csr<TA>>::borrow(A);
    gpu::Resident<Csr<TC>> c;
    dist::mxm<S>(devices, c, ra, rb, options, ctx, on_root);
    const Csr<TC> got = c.take_host(stream);
    const std::string at = what + " on " + std::to_string(devices.world().size()) + " ranks, joined on " +
                           (on_root ? "rank 0" : "every rank");
    if (!on_root || devices.world().rank() == 0 || S::positional) {  // positional: whole on each rank
      GPU_CHECK_MSG(gpu_test::same_graph(got, expected), at + ": differs from the one-GPU product");
    } else {
      GPU_CHECK_MSG(got.n_rows() == expected.n_rows() && got.n_cols() == expected.n_cols() && got.nvals() == 0,
                    at + ": another rank's result is not the shape without entries");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_over_ranks(argc, argv, "gpu_test_dist_mxm", [] {
    const bool small = gpu_test::small_inputs();
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    const Csr<bool> kron = kronecker<bool>({small ? 8 : 10, 16, 5, true}, symmetric);
    check_product<Paths<uint64_t>, uint64_t>("fof's count, kron", kron);
    const Csr<int64_t> skewed = test_support::skewed_graph<int64_t>(small ? 300 : 2000, 7);
    check_product<PlusTimes<int64_t>, int64_t>("plus_times i64, skewed", skewed);
    check_product<MinPlus<float>, float>("min_plus f32, skewed", convert<float>(skewed));
    const Csr<int64_t> two(2, 2, Array<offset_t>{0, 1, 2}, Array<index_t>{1, 0}, Array<int64_t>{3, 5});
    check_product<PlusTimes<int64_t>, int64_t>("plus_times i64, 2 rows", two);
    check_product<ViaK, long long>("via_k (positional), skewed", convert<long long>(skewed));
  });
}
