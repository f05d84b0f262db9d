// BFS over the ranks' GPUs (gql/dist/device_bfs.hpp) against the one-GPU search (gql::gpu::DeviceBfs),
// graph on the device, levels left there, in one run: for each Kronecker scale (symmetrized, as
// Graph500 searches it), the same roots searched by the one-GPU search on rank 0 and by the row-block
// search on every rank, after one search each that is not timed (set-up). Every root's levels from
// the row-block search are checked equal to the one-GPU search's on rank 0 and by a checksum on the
// other ranks. GTEPS are Graph500's (the searched component's input edges over the time), harmonic
// means over the roots. On one rank this is the row-block search's own cost (its simpler kernels, the
// exchanges on one rank); on one rank per GPU, the speedup the scale-out targets name.
//
//   mpiexec -n R bench_dist_bfs_gpu [SCALE...]   (default 22 24; GQL_BENCH_ROOTS roots, default 16)
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gql/device/traversal/bfs.hpp"
#include "gql/dist/device_bfs.hpp"
#include "gql/dist/device_world.hpp"
#include "gql/dist/world.hpp"
#include "gql/generate.hpp"

namespace {

using namespace gql;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// An order-dependent checksum of a levels vector (indices and depths).
int64_t checksum(const Vector<int32_t>& levels) {
  uint64_t h = static_cast<uint64_t>(levels.nvals());
  for (int64_t k = 0; k < levels.nvals(); ++k)
    h = h * 1000003u + static_cast<uint64_t>(levels.indices()[static_cast<size_t>(k)]) * 131u +
        static_cast<uint64_t>(levels.values()[static_cast<size_t>(k)]);
  return static_cast<int64_t>(h);
}

struct Rates {
  double inverse_sum = 0;
  int count = 0;
  void add(double gteps) {
    inverse_sum += 1.0 / gteps;
    ++count;
  }
  double harmonic_mean() const { return count / inverse_sum; }
};

}  // namespace

int main(int argc, char** argv) {
  dist::World world(&argc, &argv);
  try {
    const dist::DeviceWorld devices(world);
    std::vector<int> scales;
    for (int i = 1; i < argc; ++i) scales.push_back(std::atoi(argv[i]));
    if (scales.empty()) scales = {22, 24};
    const char* roots_env = std::getenv("GQL_BENCH_ROOTS");
    const int roots = roots_env != nullptr ? std::max(1, std::atoi(roots_env)) : 16;
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    const Stream stream;
    for (const int scale : scales) {
      const Csr<bool> g = generate_graph<bool>("kron:" + std::to_string(scale), symmetric);
      // Roots with edges, the same on every rank (Graph500 draws non-isolated roots).
      std::vector<int64_t> sources;
      std::mt19937_64 draw(static_cast<uint64_t>(scale));
      while (static_cast<int>(sources.size()) < roots + 1) {
        const auto v = static_cast<int64_t>(draw() % static_cast<uint64_t>(g.n_rows()));
        if (g.row_offsets()[static_cast<size_t>(v) + 1] > g.row_offsets()[static_cast<size_t>(v)]) sources.push_back(v);
      }
      std::optional<DeviceCsr<bool>> dg;
      std::optional<gpu::DeviceBfs> one;
      if (world.rank() == 0) {
        dg.emplace(to_device(g, stream));
        one.emplace(*dg, *dg);
      }
      const auto rows = dist::detail::rows_of(g);
      dist::DeviceBfsRows split(devices, rows, rows, g.nvals(), stream);
      Rates one_rates, split_rates;
      int64_t differ = 0;
      for (size_t k = 0; k < sources.size(); ++k) {
        const bool timed = k > 0;  // the first root sets up
        int64_t expected = 0;
        if (world.rank() == 0) {
          const auto t0 = std::chrono::steady_clock::now();
          const common::TraversalStats stats = one->run(sources[k]);
          one->stream().synchronize();
          const double t = seconds_since(t0);
          if (timed) one_rates.add(static_cast<double>(stats.searched_edges) / 2 / t * 1e-9);
          expected = checksum(one->levels());
        }
        world.on_every_rank([] {});  // the ranks start together
        const auto t0 = std::chrono::steady_clock::now();
        const common::TraversalStats stats = split.run(sources[k], {}, stream);
        stream.synchronize();
        world.on_every_rank([] {});
        const double t = seconds_since(t0);
        if (timed) split_rates.add(static_cast<double>(stats.searched_edges) / 2 / t * 1e-9);
        int64_t root_checksum[] = {expected};
        world.broadcast(std::as_writable_bytes(std::span<int64_t>(root_checksum)), 0);
        differ += world.sum(static_cast<int64_t>(checksum(split.levels(stream).to_host(stream)) != root_checksum[0]));
      }
      if (world.rank() == 0)
        std::printf("kron:%d (%lld vertices, %lld entries), %d roots: one GPU %.2f GTEPS; "
                    "%d rank(s) (%s) %.2f GTEPS%s\n",
                    scale, static_cast<long long>(g.n_rows()), static_cast<long long>(g.nvals()), roots,
                    one_rates.harmonic_mean(), world.size(), devices.describe().c_str(), split_rates.harmonic_mean(),
                    differ == 0 ? "; every root's levels equal" : "; LEVELS DIFFER from the one-GPU search");
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_dist_bfs_gpu: rank %d: %s\n", world.rank(), e.what());
    return 1;
  }
  return 0;
}
