// closure(D over S) over the ranks' GPUs (what a gqlc --mpi CUDA program's closure op calls): blocked
// Floyd-Warshall over row blocks, as gql/dist/closure.hpp on the host. The rows are divided among the
// ranks in whole k-blocks, each rank's rows in its GPU's memory. For each k-block its owner closes the
// block's diagonal tile and updates the block's rows through it (the one-GPU closure's stages 1 and 2,
// gql/device/closure/closure.hpp); the rows are broadcast (DeviceWorld: NCCL, or host memory over MPI);
// then every rank updates its rows' k-block columns through the diagonal tile, and the rest of its rows
// through the block's rows (the one-GPU closure's register-tiled semiring GEMM). Each entry goes
// through the same steps as in the one-GPU closure with the same k-block, so the results are the same.
// Host code; compiles with nvcc (generated programs and the GPU tests).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gql/device.hpp"
#include "gql/device/closure/closure.hpp"
#include "gql/device/closure/closure_ops.hpp"
#include "gql/device/resident.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/row_blocks.hpp"
#include "gql/error.hpp"
#include "gql/kernel_context.hpp"

namespace gql::dist {
namespace detail {

// How a rank runs its rows' part: the k-block (a register-tiled closure's `tile`), the GEMM's thread
// tile and whether it runs the DPX add-min.
struct DeviceRowsPlan {
  int64_t k_block = 128;
  int thread_tile = 0;
  bool dpx = false;
};

// The closure of the n x n matrix whose rows blocks.mine() (whole k-blocks) this rank holds at
// `rows` in device memory (row i at rows + (i - mine.begin) * ld; ld a multiple of 128 of at least
// n, and rows allocated up to a multiple of 128, padding filled with the semiring's zero), in place,
// on `stream`. `panel` (k_block rounded up to 128 rows of ld, zero-filled) receives the other ranks'
// k-blocks.
template <class V>
void close_device_rows(const DeviceWorld& devices, const gpu::ClosureKernelTable<V>& k, V* rows, V* panel, int64_t n,
                       int64_t ld, const RowBlocks& blocks, const DeviceRowsPlan& plan, cudaStream_t stream) {
  namespace dc = device::closure;
  const int rank = devices.world().rank();
  const RowRange mine = blocks.mine();
  const int64_t m = mine.size();
  const auto gemm = [&](const dc::GemmArgs<V>& g) { gpu::detail::semiring_gemm(k, g, plan.dpx, plan.thread_tile, stream); };
  for (int64_t k0 = 0; k0 < n; k0 += plan.k_block) {
    const int64_t k1 = std::min(n, k0 + plan.k_block), kb = k1 - k0;
    const int holder = blocks.owner(k0);
    const bool mine_block = holder == rank;
    V* block = mine_block ? rows + (k0 - mine.begin) * ld : panel;  // the k-block's rows, D(K, :)
    if (mine_block) {
      // Stages 1 and 2 of the one-GPU closure: the diagonal tile closed, then D(K, :) through it.
      gpu::detail::register_closure(k, static_cast<int>(plan.k_block), plan.thread_tile, block + k0, kb, ld, k0,
                                    plan.dpx, stream);
      dc::GemmArgs<V> row_panel{block + k0, ld, block, ld, block, block, ld, kb, kb, n, k0, k0, 0};
      row_panel.skip_cols_lo = k0;
      row_panel.skip_cols_hi = k1;
      gemm(row_panel);
    }
    devices.broadcast(block, static_cast<size_t>(kb * ld) * sizeof(V), holder, stream);
    if (m == 0) continue;
    // This rank's other rows: their k-block columns through the diagonal tile (stage 2's column
    // panel), then everything else through the k-block's rows (stage 3).
    const int64_t skip_lo = mine_block ? k0 - mine.begin : 0, skip_hi = mine_block ? k1 - mine.begin : 0;
    dc::GemmArgs<V> column_panel{rows + k0, ld, block + k0, ld, rows + k0, rows + k0, ld, m, kb, kb,
                                 mine.begin, k0, k0};
    column_panel.skip_rows_lo = skip_lo;
    column_panel.skip_rows_hi = skip_hi;
    gemm(column_panel);
    dc::GemmArgs<V> rest{rows + k0, ld, block, ld, rows, rows, ld, m, kb, n, mine.begin, k0, 0};
    rest.skip_rows_lo = skip_lo;
    rest.skip_rows_hi = skip_hi;
    rest.skip_cols_lo = k0;
    rest.skip_cols_hi = k1;
    gemm(rest);
  }
}

}  // namespace detail

// The plan of the row-block closure for an n x n matrix over S under the schedule: the one-GPU
// closure's register-tiled plan (its k-block, thread tile and DPX), in core.
template <class S>
detail::DeviceRowsPlan device_rows_plan(int64_t n, const gpu::ClosureSchedule& schedule) {
  gpu::DeviceClosureOptions options = gpu::detail::device_closure_options(schedule);
  options.kernel = gpu::ClosureKernel::register_tiles;  // the only design with the GEMM the rows need
  options.out_of_core = gpu::OutOfCore::off;
  const gpu::ClosurePlan plan = gpu::plan_closure<S>(n, options, false);
  return {plan.tile, gpu_thread_tile_index(plan.register_tile.rows, plan.register_tile.cols), plan.dpx};
}

// The n x n row-major matrix at `source` (host or device memory, on every rank: `kind` of the copy)
// closed over the ranks' GPUs into `target` (n x n, row-major, in each rank's device memory): each
// rank closes its row block (whole k-blocks, as even as they go), then the blocks are joined on every
// rank's GPU (DeviceWorld::join_parts). Returns when done. A rank without the memory fails every
// rank, before any exchange.
template <class S>
void close_on_devices(const DeviceWorld& devices, const typename S::value_type* source, cudaMemcpyKind kind,
                      typename S::value_type* target, int64_t n, const detail::DeviceRowsPlan& plan,
                      const Stream& stream) {
  using V = typename S::value_type;
  const gpu::ClosureKernelTable<V>& k = gpu::detail::closure_kernel_table<S>();
  const cudaStream_t s = stream.get();
  const World& world = devices.world();
  const RowBlocks blocks(detail::even_starts(n, world.size(), plan.k_block), world.rank());
  const RowRange mine = blocks.mine();
  const auto padded = [](int64_t x) { return gpu::detail::round_up(std::max<int64_t>(x, 1), device::closure::gemm_tile); };
  const int64_t ld = padded(n), m = mine.size();
  const size_t block_entries = static_cast<size_t>(padded(m) * ld);
  const size_t panel_entries = static_cast<size_t>(padded(plan.k_block) * ld);
  std::optional<StreamBuffer<V>> rows, panel;
  world.on_every_rank([&] {
    rows.emplace(block_entries, stream);
    panel.emplace(panel_entries, stream);
  });
  gpu::detail::fill_on_device(k.fill, rows->data(), block_entries, k.zero, 1024, s);
  gpu::detail::fill_on_device(k.fill, panel->data(), panel_entries, k.zero, 1024, s);
  if (m > 0) gpu::detail::copy_block(rows->data(), ld, source + mine.begin * n, n, m, n, kind, s);
  detail::close_device_rows(devices, k, rows->data(), panel->data(), n, ld, blocks, plan, s);
  if (m > 0) gpu::detail::copy_block(target + mine.begin * n, n, rows->data(), ld, m, n, cudaMemcpyDeviceToDevice, s);
  std::vector<int64_t> offsets;  // each rank's rows, in bytes
  for (const int64_t start : blocks.starts()) offsets.push_back(start * n * static_cast<int64_t>(sizeof(V)));
  devices.join_parts(reinterpret_cast<std::byte*>(target), offsets, s);
  stream.synchronize();
}

// A kernel's closure op over the ranks' GPUs: D_out = closure(D over S), D whole on every rank (on
// its host or device), the result whole on every rank's device. On one rank the one-GPU op
// (gpu::closure, by the op's schedule); on several close_on_devices.
template <class S, class T>
void closure(const DeviceWorld& devices, gpu::Resident<Matrix<T>>& out, gpu::Resident<Matrix<T>>& D,
             const gpu::ClosureSchedule& schedule, KernelContext& ctx) {
  using V = typename S::value_type;
  const World& world = devices.world();
  if (world.size() == 1) return gpu::closure<S>(out, D, schedule, ctx);
  const CallStream call(ctx);
  const Stream stream = call.stream();
  const int64_t n = D.rows();
  gpu::detail::check_closure_shape(n, D.cols());
  const detail::DeviceRowsPlan plan = device_rows_plan<S>(n, schedule);
  // Each rank takes its rows from where D is current: no whole upload of a matrix on the host.
  const bool on_device = D.on_device();
  const V* source = on_device ? reinterpret_cast<const V*>(D.device(stream).data().data())
                              : reinterpret_cast<const V*>(D.host(stream).data().data());
  std::optional<DeviceMatrix<T>> result;
  world.on_every_rank([&] { result.emplace(n, n); });
  V* target = reinterpret_cast<V*>(result->data().data());
  close_on_devices<S>(devices, source, on_device ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice, target, n, plan,
                      stream);
  out.set_device(std::move(*result));
  ctx.work().updates += n * n * n;
  ctx.explain(schedule.label, "closure over " + std::to_string(world.size()) + " ranks' GPUs (" + devices.describe() +
                                  "), row blocks of whole " + std::to_string(plan.k_block) +
                                  "-row k-blocks; the result left on every rank's device");
}

}  // namespace gql::dist
