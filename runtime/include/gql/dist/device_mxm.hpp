// C = A * B over S over the ranks' GPUs (what a gqlc --mpi CUDA program's unmasked product of graphs
// calls): A's rows in blocks of equal products, as gql/dist/mxm.hpp divides them on the host; each rank
// multiplies its rows on its GPU by the whole of B with the one-GPU product (gql/device/ops.hpp: on the
// device, or batch by batch into host memory when too large for it), and the blocks are joined in
// rank order on every rank's host, or on rank 0's alone when only the kernel's result reads the
// product (a program's result, written by rank 0). Each row of the product is made as the one-GPU
// product makes it, so the entries are its entries. A semiring whose con reads positions runs the
// one-GPU product whole on each rank: a block's rows would be counted from its first row.
// Host code; compiles with nvcc (generated programs and the GPU tests).
#pragma once

#include <cstdint>
#include <string>

#include "gql/device.hpp"
#include "gql/device/ops.hpp"
#include "gql/device/resident.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/joined.hpp"
#include "gql/dist/mxm.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/graph.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist {

template <class S, class TC, class TA, class TB>
void mxm(const DeviceWorld& devices, gpu::Resident<Csr<TC>>& C, gpu::Resident<Csr<TA>>& A,
         gpu::Resident<Csr<TB>>& B, const gpu::ProductOptions& options, KernelContext& ctx, bool joined_on_root) {
  const World& world = devices.world();
  if (world.size() == 1 || S::positional) return gpu::mxm<S>(C, gpu::no_mask(), false, A, B, options, ctx);
  const CallStream call(ctx);
  const Stream stream = call.stream();
  Csr<TC> block;
  int64_t n_cols = 0;
  const int64_t products_before = ctx.work().products;  // each rank's product adds its rows' products
  world.on_every_rank([&] {
    const Csr<TA>& a = A.host(stream);
    const Csr<TB>& b = B.host(stream);
    if (a.n_cols() != b.n_rows())
      throw Error(ErrorKind::usage, "mxm: inner dimensions differ (" + std::to_string(a.n_cols()) + " and " +
                                        std::to_string(b.n_rows()) + ")");
    n_cols = b.n_cols();
    const RowRange mine = rows_by_work(detail::product_work(a, b), world.size(), world.rank());
    gpu::Resident<Csr<TA>> rows(rows_of(a, mine));
    gpu::Resident<Csr<TC>> product;
    const std::string label = std::string(options.label) + " (rank " + std::to_string(world.rank()) + "'s rows)";
    gpu::ProductOptions rows_options = options;  // --explain: a line of its own for the one-GPU product
    rows_options.label = label.c_str();
    gpu::mxm<S>(product, gpu::no_mask(), false, rows, B, rows_options, ctx);
    block = product.take_host(stream);
  });
  ctx.work().products = products_before + world.sum(ctx.work().products - products_before);  // every rank's
  C.set_host(joined_on_root ? detail::joined_rows_on(world, std::move(block), n_cols, 0)
                            : detail::joined_rows(world, std::move(block), n_cols));
  ctx.explain(options.label, "product over " + std::to_string(world.size()) +
                                 " ranks' GPUs: A's rows in blocks of equal products, joined on " +
                                 (joined_on_root ? "rank 0" : "every rank"));
}

}  // namespace gql::dist
