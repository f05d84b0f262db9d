// Graphs split across the ranks: each rank holds its rows only, made from a graph every rank holds or
// sent out by one rank, gathered back whole, transposed across the ranks, and searched by BFS with the
// one-process search's levels.
#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "dist_test.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/dist/bfs.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace gql::dist_test {
namespace {

// Blocks of equal work: each rank starts at the first row whose cost before it reaches its share
// (total * r / ranks), the last block ends at n, and a cost given as a function splits alike.
TEST(RowBlocks, RowsByWorkStartAtEachShare) {
  const std::vector<int64_t> prefix{0, 5, 5, 6, 10, 20};  // rows cost 5, 0, 1, 4, 10
  const auto ranges = [&](int ranks) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (int r = 0; r < ranks; ++r) {
      const dist::RowRange by_work = dist::rows_by_work(prefix, ranks, r);
      const dist::RowRange by_cost = dist::rows_by_cost(5, [&](int64_t i) { return prefix[static_cast<size_t>(i)]; },
                                                        ranks, r);
      EXPECT_EQ(by_work.begin, by_cost.begin);
      EXPECT_EQ(by_work.end, by_cost.end);
      out.emplace_back(by_work.begin, by_work.end);
    }
    return out;
  };
  using Ranges = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(ranges(1), (Ranges{{0, 5}}));
  EXPECT_EQ(ranges(2), (Ranges{{0, 4}, {4, 5}}));
  EXPECT_EQ(ranges(4), (Ranges{{0, 1}, {1, 4}, {4, 5}, {5, 5}}));
  const std::vector<int64_t> none{0, 0, 0};  // no work: the last rank takes the rows
  EXPECT_EQ(dist::rows_by_work(none, 3, 0).end, 0);
  EXPECT_EQ(dist::rows_by_work(none, 3, 2).begin, 0);
  EXPECT_EQ(dist::rows_by_work(none, 3, 2).end, 2);
}

template <class T>
void expect_same_graph(const Csr<T>& got, const Csr<T>& want) {
  EXPECT_EQ(got.n_rows(), want.n_rows());
  EXPECT_EQ(got.n_cols(), want.n_cols());
  const auto same = [](auto a, auto b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); };
  EXPECT_TRUE(same(got.row_offsets(), want.row_offsets()));
  EXPECT_TRUE(same(got.col_indices(), want.col_indices()));
  EXPECT_TRUE(same(got.values(), want.values()));
}

// Each rank holds its rows only, the blocks cover the graph in rank order, and they join back into it.
template <class T>
void expect_split_of(const dist::SplitGraph<T>& S, const Csr<T>& G) {
  const dist::RowRange mine = S.mine();
  EXPECT_EQ(S.block().n_rows(), mine.size());
  EXPECT_EQ(S.nvals(), G.nvals());
  EXPECT_EQ(S.starts().front(), 0);
  EXPECT_EQ(S.starts().back(), G.n_rows());
  EXPECT_EQ(world().sum(S.block().nvals()), G.nvals());
  expect_same_graph(S.block(), dist::rows_of(G, mine));
  for (int64_t row : {int64_t{0}, mine.begin, G.n_rows() - 1}) {
    if (row < 0 || row >= G.n_rows()) continue;
    const dist::RowRange holder = S.rows_of_rank(S.owner(row));
    EXPECT_TRUE(holder.begin <= row && row < holder.end) << "row " << row;
  }
  expect_same_graph(dist::gathered(world(), S), G);
}

TEST(SplitGraph, SplitAndScatteredAlike) {
  const auto G = generate_graph<int32_t>("urand:10:5");
  expect_split_of(dist::split_rows(world(), G), G);
  for (int root : {0, world().size() - 1}) {
    const dist::SplitGraph<int32_t> S = dist::scatter_rows(world(), world().rank() == root ? &G : nullptr, root);
    expect_split_of(S, G);
    EXPECT_EQ(S.starts(), dist::split_rows(world(), G).starts());
  }
}

TEST(SplitGraph, SymmetryTravels) {
  ReadOptions o;
  o.symmetrize = true;
  const auto G = generate_graph<bool>("kron:10", o);
  ASSERT_TRUE(G.derived().symmetric());
  const auto S = dist::scatter_rows(world(), world().rank() == 0 ? &G : nullptr);
  EXPECT_TRUE(S.symmetric());
  EXPECT_TRUE(dist::gathered(world(), S).derived().symmetric());
  expect_split_of(S, G);
}

TEST(SplitGraph, TransposeAcrossRanks) {
  for (const char* spec : {"urand:9:6", "kron:9"}) {
    const auto G = generate_graph<int64_t>(spec);
    const auto T = dist::transpose(world(), dist::split_rows(world(), G));
    expect_same_graph(dist::gathered(world(), T), cpu::transpose(G));
  }
  const auto P = generate_graph<bool>("urand:9:4");
  expect_same_graph(dist::gathered(world(), dist::transpose(world(), dist::split_rows(world(), P))), cpu::transpose(P));
}

TEST(SplitGraph, MoreRanksThanRows) {
  const auto G = generate_graph<bool>("grid:1x2");
  const auto S = dist::split_rows(world(), G);
  expect_split_of(S, G);
  expect_same_graph(dist::gathered(world(), dist::transpose(world(), S)), cpu::transpose(G));
}

void expect_same_levels(const Csr<bool>& G, int64_t source) {
  const Vector<int32_t> want = cpu::bfs_levels(G, cpu::transpose_of(G), source);
  const auto S = dist::scatter_rows(world(), world().rank() == 0 ? &G : nullptr);
  for (common::Direction direction : {common::Direction::push, common::Direction::pull, common::Direction::automatic}) {
    common::DirectionOptions options;
    options.direction = direction;
    common::TraversalStats split_stats, whole_stats;
    const Vector<int32_t> got = dist::bfs_levels(world(), S, source, &split_stats, options);
    const auto same = [](auto a, auto b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); };
    EXPECT_TRUE(same(got.indices(), want.indices())) << "source " << source;
    EXPECT_TRUE(same(got.values(), want.values())) << "source " << source;
    // The same steps and edges as the search over the whole graph on every rank.
    dist::bfs_levels(world(), G, source, &whole_stats, options);
    EXPECT_EQ(split_stats.edges_examined, whole_stats.edges_examined);
    EXPECT_EQ(split_stats.pull_steps, whole_stats.pull_steps);
    EXPECT_EQ(split_stats.levels, whole_stats.levels);
  }
}

TEST(SplitGraph, BfsSymmetricAndDirected) {
  ReadOptions o;
  o.symmetrize = true;
  const auto K = generate_graph<bool>("kron:12", o);
  for (int64_t source : {0, 17, 4095}) expect_same_levels(K, source);
  const auto D = generate_graph<bool>("urand:11:3");
  for (int64_t source : {0, 2047}) expect_same_levels(D, source);
  expect_same_levels(generate_graph<bool>("grid:1x300"), 150);
}

TEST(SplitGraph, BfsRealGraph) {
  if (!have_shared_data()) GTEST_SKIP() << "no shared data at " GQL_SHARED_DATA_DIR;
  const auto G = read_graph<bool>(data_graph("wiki-Vote.txt.gz"));
  for (int64_t source : {0, 30}) expect_same_levels(G, source);
}

TEST(SplitGraph, BadRootAndSourceRefusedOnEveryRank) {
  const Csr<bool> G(5, 5);
  EXPECT_THROW(dist::scatter_rows(world(), &G, world().size()), Error);
  EXPECT_THROW(dist::scatter_rows<bool>(world(), nullptr, 0), Error);
  EXPECT_THROW(dist::bfs_levels(world(), dist::split_rows(world(), G), 5), Error);
}

}  // namespace
}  // namespace gql::dist_test
