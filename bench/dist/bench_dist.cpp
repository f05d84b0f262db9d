// The distributed ops on the ranks of one MPI run: fof (mxm of a graph by itself, 2-paths counted)
// and BFS levels from several sources, each over the graph on every rank and over the graph split
// across the ranks (the split product left split), the min-plus closure of a dense matrix, on
// every rank and split (sent out by rank 0, each rank's rows closed and kept there), and the LU of a
// dense matrix (panels dealt to the ranks in turn). Rank 0 writes a JSON
// line per kernel (bench/common/bench_record.hpp) with the ranks and threads of the run; the times
// are those of the whole collective call, from a point where every rank has arrived.
//
//   mpiexec -n R bench_dist [--graph kron:16] [--sources 8] [--closure-n 1024] [--lu-n 2048] [--repeats 3]
//                           [--json FILE]
#include <cstdint>
#include <cstdio>
#include <optional>
#include <random>
#include <string>

#include "bench_args.hpp"
#include "bench_record.hpp"
#include "checksum.hpp"
#include "gql/dist/bfs.hpp"
#include "gql/dist/closure.hpp"
#include "gql/dist/lu.hpp"
#include "gql/dist/mxm.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/dist/split_matrix.hpp"
#include "gql/dist/world.hpp"
#include "gql/generate.hpp"
#include "host_context.hpp"
#include "measure.hpp"
#include "reference_semirings.hpp"

namespace {

using namespace gql;
using Paths = reference_semirings::Paths<uint64_t>;
using MinPlus = reference_semirings::MinPlus<int32_t>;

constexpr int32_t no_path = 100'000'000;  // two add up without overflow

Matrix<int32_t> random_distances(int64_t n) {
  std::mt19937_64 random(1);
  Matrix<int32_t> D(n, n, no_path);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) D(i, j) = i == j ? 0 : random() % 8 == 0 ? static_cast<int32_t>(1 + random() % 100) : no_path;
  return D;
}

}  // namespace

int main(int argc, char** argv) {
  dist::World world(&argc, &argv);
  try {
    bench::Args args(argc, argv,
                     "usage: mpiexec -n R bench_dist [--graph kron:16] [--sources 8] [--closure-n 1024] "
                     "[--lu-n 2048] [--repeats 3] [--json FILE]");
    const std::string graph = args.text("graph", "kron:16");
    const int64_t sources = args.integer("sources", 8);
    const int64_t closure_n = args.integer("closure-n", 1024);
    const int64_t lu_n = args.integer("lu-n", 2048);
    const bench::Repeat repeat{1, static_cast<int>(args.integer("repeats", 3))};
    const std::string json = args.text("json", "");
    args.check_all_used();
    bench::JsonLines out(world.rank() == 0 ? json : "");
    const bench::RunContext context = bench::host_context();
    const auto report = [&](const std::string& kernel, const std::string& input, const bench::Measurement& m,
                            const std::string& checksum) {
      if (world.rank() != 0) return;
      bench::Record record;
      record.text("bench", "dist").text("kernel", kernel).text("graph", input).integer("ranks", world.size());
      bench::stamp_host(record, context);
      bench::measured(record, m).text("checksum", checksum);
      out.write(record);
    };
    // Every rank starts the call together: a sum is a collective no rank leaves before all came.
    const auto timed = [&](auto&& call) {
      return bench::measure(repeat, [&] {
        world.sum(0);
        call();
      });
    };

    ReadOptions symmetric;
    symmetric.symmetrize = true;
    const auto G = generate_graph<bool>(graph, symmetric);
    Csr<uint64_t> C;
    const auto fof = timed([&] { C = dist::mxm<Paths>(world, G, G); });
    bench::Checksum fof_sum;
    const auto offsets = C.row_offsets();
    const auto cols = C.col_indices();
    const auto vals = C.values();
    for (int64_t i = 0; i < C.n_rows(); ++i)
      for (offset_t p = offsets[static_cast<size_t>(i)]; p < offsets[static_cast<size_t>(i) + 1]; ++p)
        fof_sum.add(static_cast<uint64_t>(i), static_cast<uint64_t>(cols[static_cast<size_t>(p)]), vals[static_cast<size_t>(p)]);
    report("fof", graph, fof, fof_sum.hex());

    // The graph split across the ranks (each holds its rows only), sent out by rank 0.
    const dist::SplitGraph<bool> split = dist::scatter_rows(world, world.rank() == 0 ? &G : nullptr);
    // fof with the rows of A split and the product left split: no rows joined.
    std::optional<dist::SplitGraph<uint64_t>> split_c;
    const auto split_fof = timed([&] { split_c.emplace(dist::mxm<Paths>(world, split, G)); });
    report("fof split", graph, split_fof, std::to_string(split_c->nvals()) + " entries");
    split_c.reset();

    uint64_t reached = 0;
    const auto bfs = timed([&] {
      reached = 0;
      for (int64_t s = 0; s < sources; ++s)
        reached += static_cast<uint64_t>(dist::bfs_levels(world, G, s * (G.n_rows() / sources)).nvals());
    });
    report("bfs x" + std::to_string(sources), graph, bfs, std::to_string(reached) + " reached");

    // The same searches over the split graph: the count must be the replicated search's.
    const auto split_bfs = timed([&] {
      reached = 0;
      for (int64_t s = 0; s < sources; ++s)
        reached += static_cast<uint64_t>(dist::bfs_levels(world, split, s * (G.n_rows() / sources)).nvals());
    });
    report("bfs split x" + std::to_string(sources), graph, split_bfs, std::to_string(reached) + " reached");

    const Matrix<int32_t> D = random_distances(closure_n);
    Matrix<int32_t> paths;
    const auto apsp = timed([&] {
      paths = D.clone();
      dist::closure<MinPlus>(world, paths);
    });
    uint64_t sum = 0;
    for (int32_t x : paths.data()) sum += static_cast<uint64_t>(x);
    report("closure min_plus", "dense " + std::to_string(closure_n), apsp, "sum " + std::to_string(sum));

    // The same closure over the matrix split across the ranks (each keeps its rows): the same sum.
    std::optional<dist::SplitMatrix<int32_t>> split_paths;
    const auto split_apsp = timed([&] {
      split_paths.emplace(dist::scatter_rows(world, world.rank() == 0 ? &D : nullptr));
      dist::closure<MinPlus>(world, *split_paths);
    });
    int64_t split_sum = 0;
    for (int32_t x : split_paths->block().data()) split_sum += x;
    report("closure split", "dense " + std::to_string(closure_n), split_apsp, "sum " + std::to_string(world.sum(split_sum)));

    // LU of a random matrix (entries in [-1, 1)): the pivots' sum, the same on any number of ranks.
    Matrix<double> A(lu_n, lu_n, 0.0);
    std::mt19937_64 random(11);
    std::uniform_real_distribution<double> entry(-1.0, 1.0);
    for (double& x : A.data()) x = entry(random);
    cpu::LuFactors<double> factors;
    const auto lu = timed([&] { factors = dist::lu(world, A); });
    int64_t pivot_sum = 0;
    for (int32_t p : factors.pivots) pivot_sum += p;
    report("lu f64", "dense " + std::to_string(lu_n), lu, "pivots " + std::to_string(pivot_sum));
  } catch (const std::exception& e) {
    if (world.rank() == 0) std::fprintf(stderr, "bench_dist: %s\n", e.what());
    return 1;
  }
  return 0;
}
