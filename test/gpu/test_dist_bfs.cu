// BFS levels over the ranks' GPUs (gql/dist/device_bfs.hpp) against the one-process OpenMP search
// (gql::cpu::bfs_levels): the same levels on every rank, in every direction, through the row-block
// search itself (also on one rank) and through the kernel op generated code calls (one rank: the
// one-GPU search). Run by CTest under mpiexec with 1, 2 and 3 ranks on the machine's GPUs. Graphs:
// Kronecker graphs with their hubs, symmetric and directed (pull steps then read the transpose's rows),
// a star whose hub has more out-edges than one warp takes in a push step,
// a path deeper than a byte's levels, 300 vertices (blocks that end inside a word of the frontier's bits
// are moved to whole words), graphs with fewer vertices than ranks and without edges, and the real
// graphs under GQL_DATA_DIR.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dist_check.hpp"
#include "gpu_check.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/dist/device_bfs.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "star_graph.hpp"
#include "vector_check.hpp"

namespace {

using namespace gql;
using common::Direction;
using common::DirectionOptions;

// Each rank's rows are whole words of 32 vertices, the blocks in rank order cover every vertex.
void check_rows(const std::string& name, const Csr<bool>& g, int ranks) {
  int64_t next = 0;
  for (int r = 0; r < ranks; ++r) {
    const dist::RowRange rows = dist::bfs_rows(g.row_offsets(), ranks, r);
    GPU_CHECK_MSG(rows.begin == next && rows.begin % 32 == 0 && rows.end >= rows.begin,
                  name + ": rank " + std::to_string(r) + "'s rows");
    next = rows.end;
  }
  GPU_CHECK_MSG(next == g.n_rows(), name + ": the blocks end at " + std::to_string(next));
}

template <class TG>
void check_graph(const std::string& name, const Csr<TG>& g, const std::vector<int64_t>& sources) {
  const dist::DeviceWorld& devices = gpu_test::the_devices();
  const int ranks = devices.world().size();
  const Csr<TG>& gt = g.derived().symmetric() ? g : cpu::transpose_of(g);
  if constexpr (std::is_same_v<TG, bool>) check_rows(name, g, ranks);
  const Stream stream;
  const auto rows = dist::detail::rows_of(g);
  dist::DeviceBfsRows search(devices, rows, dist::detail::rows_of(gt), g.nvals(), stream);
  for (const int64_t source : sources) {
    for (const Direction direction : {Direction::automatic, Direction::push, Direction::pull}) {
      const DirectionOptions options{direction};
      const std::string at = name + " from " + std::to_string(source) + ", " +
                             (direction == Direction::push ? "push" : direction == Direction::pull ? "pull" : "auto") +
                             ", " + std::to_string(ranks) + " ranks";
      const Vector<int32_t> expected = cpu::bfs_levels(g, gt, source, options);
      const common::TraversalStats stats = search.run(source, options, stream);
      const Vector<int32_t> got = search.levels(stream).to_host(stream);
      GPU_CHECK_MSG(gpu_test::same_vector(got, expected), at + ": levels differ from the OpenMP search's (" +
                                                              std::to_string(got.nvals()) + " reached against " +
                                                              std::to_string(expected.nvals()) + ")");
      if (direction == Direction::push) GPU_CHECK_MSG(stats.pull_steps == 0, at + ": a pull step");
      if (direction == Direction::pull) GPU_CHECK_MSG(stats.pull_steps == stats.levels, at + ": a push step");

      // The kernel op over Residents: the graph as generated code holds it.
      KernelContext ctx;
      gpu::Resident<Csr<TG>> G = gpu::Resident<Csr<TG>>::borrow(g);
      gpu::Resident<Vector<int32_t>> levels;
      common::TraversalStats op_stats;
      dist::bfs_levels(devices, levels, G, source, options, /*reads_transpose=*/true, &op_stats, gpu::BfsSchedule{},
                       ctx);
      GPU_CHECK_MSG(gpu_test::same_vector(levels.take_host(stream), expected), at + ": the op's levels differ");
    }
  }
}

void check_errors() {
  const Csr<bool> g = generate_graph<bool>("kron:6");
  const Stream stream;
  const auto rows = dist::detail::rows_of(g);
  dist::DeviceBfsRows search(gpu_test::the_devices(), rows, rows, g.nvals(), stream);
  bool thrown = false;
  try {
    search.run(g.n_rows(), {}, stream);
  } catch (const Error& e) {
    thrown = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK_MSG(thrown, "a source past the last vertex is a usage error on every rank");
}

}  // namespace

int main(int argc, char** argv) {
  return gpu_test::run_over_ranks(argc, argv, "gpu_test_dist_bfs", [] {
    const bool small = gpu_test::small_inputs();
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    check_errors();
    check_graph("no edges, 5 vertices", Csr<bool>(5, 5), {0, 4});
    check_graph("2 vertices", grid<bool>(1, 2), {1});
    check_graph("path 1x300 (deeper than a byte's levels)", grid<bool>(1, 300), {0, 150});
    const std::string kron = small ? "kron:8" : "kron:12";
    const Csr<bool> kron_symmetric = generate_graph<bool>(kron, symmetric);
    check_graph(kron + " symmetric", kron_symmetric, {0, 1, 77});
    check_graph(kron + " directed", generate_graph<bool>(kron), {0, 1, 77});
    check_graph(kron + " symmetric, f32 entries", generate_graph<float>(kron, symmetric), {1});
    const int64_t leaves = small ? 5000 : 20000;  // the hub's out-edges go over the whole grid in push steps
    check_graph("star of " + std::to_string(leaves), gpu_test::star(leaves), {0, 1, leaves + 9});
    if (!small) {
      const char* data = std::getenv("GQL_DATA_DIR");
      if (data == nullptr) {
        if (gpu_test::the_devices().world().rank() == 0)
          std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      } else {
        const std::string dir = std::string(data) + "/";
        check_graph("wiki-Vote", read_graph<bool>(dir + "wiki-Vote.txt.gz"), {0, 30});
        check_graph("luxembourg_osm", read_graph<bool>(dir + "luxembourg_osm.mtx.gz", symmetric), {0});
      }
    }
  });
}
