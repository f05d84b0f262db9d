// The distributed BFS against the one-process search: the same levels pushing, pulling and choosing,
// on symmetric and directed graphs, from sources with and without edges, the edges it examined and
// the searched edges its TEPS count.
#include <cstdint>

#include "dist_test.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/dist/bfs.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace gql::dist_test {
namespace {

void expect_same_levels(const Csr<bool>& G, int64_t source) {
  common::TraversalStats want_stats;
  const Vector<int32_t> want = cpu::bfs_levels(G, cpu::transpose_of(G), source, {}, &want_stats);
  const auto wi = want.indices();
  const auto wv = want.values();
  for (common::Direction direction : {common::Direction::push, common::Direction::pull, common::Direction::automatic}) {
    common::TraversalStats stats;
    common::DirectionOptions options;
    options.direction = direction;
    const Vector<int32_t> got = dist::bfs_levels(world(), G, source, &stats, options);
    const auto gi = got.indices();
    const auto gv = got.values();
    EXPECT_TRUE(std::equal(gi.begin(), gi.end(), wi.begin(), wi.end())) << "source " << source;
    EXPECT_TRUE(std::equal(gv.begin(), gv.end(), wv.begin(), wv.end())) << "source " << source;
    // Graph500's input edges of the searched component (TEPS): halved when G is symmetric, as there.
    EXPECT_EQ(stats.searched_edges, want_stats.searched_edges) << "source " << source;
    if (direction != common::Direction::push) continue;
    // Pushing, every reached vertex's out-edges are read once, when it is in the frontier.
    int64_t reached_edges = 0;
    for (index_t v : wi) reached_edges += G.row_degree(v);
    EXPECT_EQ(stats.edges_examined, reached_edges);
    EXPECT_EQ(stats.pull_steps, 0);
  }
}

TEST(DistBfs, KroneckerSymmetric) {
  ReadOptions o;
  o.symmetrize = true;
  const auto G = generate_graph<bool>("kron:12", o);
  for (int64_t source : {0, 1, 17, 4095}) expect_same_levels(G, source);
}

TEST(DistBfs, Directed) {
  const auto G = generate_graph<bool>("urand:11:3");
  for (int64_t source : {0, 5, 2047}) expect_same_levels(G, source);
}

TEST(DistBfs, LongPathAndLoneVertex) {
  const auto path = generate_graph<bool>("grid:1x300");
  expect_same_levels(path, 0);
  expect_same_levels(path, 150);
  const Csr<bool> lone(7, 7);
  expect_same_levels(lone, 3);
}

TEST(DistBfs, RealGraph) {
  if (!have_shared_data()) GTEST_SKIP() << "no shared data at " GQL_SHARED_DATA_DIR;
  const auto G = read_graph<bool>(data_graph("wiki-Vote.txt.gz"));
  for (int64_t source : {0, 30, 1000}) expect_same_levels(G, source);
}

TEST(DistBfs, SourceOutsideRefusedOnEveryRank) {
  const Csr<bool> G(5, 5);
  EXPECT_THROW(dist::bfs_levels(world(), G, 5), Error);
}

}  // namespace
}  // namespace gql::dist_test
