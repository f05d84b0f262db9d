#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <random>
#include <utility>

#include "counter_rng.hpp"
#include "gql/edge_list.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql_test::entries;

template <class T>
bool same_edges(const gql::EdgeList<T>& a, const gql::EdgeList<T>& b) {
  return a.rows == b.rows && a.cols == b.cols && a.values == b.values && a.n_rows == b.n_rows;
}

TEST(Kronecker, EdgeCountRangeAndWeights) {
  auto e = gql::kronecker_edges<int>({.scale = 10, .edge_factor = 16, .seed = 7, .weighted = true});
  ASSERT_EQ(e.rows.size(), 16u << 10);
  EXPECT_EQ(e.n_rows, 1024);
  for (size_t k = 0; k < e.rows.size(); ++k) {
    ASSERT_TRUE(e.rows[k] >= 0 && e.rows[k] < 1024 && e.cols[k] >= 0 && e.cols[k] < 1024);
    ASSERT_TRUE(e.values[k] >= 1 && e.values[k] <= 255);
  }
  EXPECT_EQ(*std::max_element(e.values.begin(), e.values.end()), 255);
  EXPECT_EQ(*std::min_element(e.values.begin(), e.values.end()), 1);
}

TEST(Kronecker, DeterministicAcrossRunsAndThreadCounts) {
  const gql::KroneckerOptions o{.scale = 12, .edge_factor = 8, .seed = 42, .weighted = true};
  omp_set_num_threads(1);
  auto one = gql::kronecker_edges<int>(o);
  omp_set_num_threads(3);
  auto three = gql::kronecker_edges<int>(o);
  omp_set_num_threads(2);
  EXPECT_TRUE(same_edges(one, three));
  EXPECT_TRUE(same_edges(one, gql::kronecker_edges<int>(o)));
  auto other = gql::kronecker_edges<int>({.scale = 12, .edge_factor = 8, .seed = 43, .weighted = true});
  EXPECT_FALSE(same_edges(one, other));
}

// The generator as Graph500 states it, one edge at a time: a Fisher-Yates shuffle of the labels, then
// per edge and level a draw in [0, 1) compared with the initiator's cumulative probabilities.
gql::EdgeList<int> reference_kronecker(int scale, int64_t edge_factor, uint64_t seed) {
  const int64_t n = int64_t{1} << scale, m = edge_factor << scale;
  std::vector<gql::index_t> label(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) label[v] = static_cast<gql::index_t>(v);
  const gql::detail::CounterRng shuffle(seed, 2), draws(seed, 1), weights(seed, 3);
  for (int64_t v = n - 1; v > 0; --v)
    std::swap(label[v], label[shuffle.bits(static_cast<uint64_t>(v)) % static_cast<uint64_t>(v + 1)]);
  gql::EdgeList<int> e;
  e.n_rows = e.n_cols = n;
  const double a = 0.57, b = 0.19, c = 0.19;
  for (int64_t k = 0; k < m; ++k) {
    uint64_t row = 0, col = 0;
    for (int level = 0; level < scale; ++level) {
      const double r = draws.uniform(static_cast<uint64_t>(k) * 32 + static_cast<uint64_t>(level));
      row |= uint64_t{r >= a + b} << level;
      col |= uint64_t{(r >= a && r < a + b) || r >= a + b + c} << level;
    }
    e.rows.push_back(label[row]);
    e.cols.push_back(label[col]);
    e.values.push_back(static_cast<int>(weights.weight(static_cast<uint64_t>(k))));
  }
  return e;
}

TEST(Kronecker, SameEdgesAsTheDefinitionAtEveryThreadCount) {
  // Edge counts that are and are not a multiple of the generator's block of edges.
  for (const auto& [scale, edge_factor, seed] : {std::tuple{11, int64_t{16}, gql::default_generator_seed},
                                                 std::tuple{5, int64_t{3}, uint64_t{9}}, std::tuple{0, int64_t{5}, uint64_t{1}},
                                                 std::tuple{14, int64_t{2}, uint64_t{77}}}) {
    const auto want = reference_kronecker(scale, edge_factor, seed);
    for (int threads : {1, 3}) {
      omp_set_num_threads(threads);
      const auto got = gql::kronecker_edges<int>({.scale = scale, .edge_factor = edge_factor, .seed = seed, .weighted = true});
      EXPECT_TRUE(same_edges(got, want)) << "kron:" << scale << ":" << edge_factor << ":" << seed << ", " << threads << " threads";
    }
  }
  omp_set_num_threads(2);
}

// A graph without values is built by one pass of its own (its entries are a set); it must hold the
// entries, in the same order, that the general build gives the same pairs with values.
TEST(BuildCsr, PatternGraphsAsTheGeneralBuild) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t n = trial < 3 ? 40 : 3000, m = trial < 3 ? 300 : 60000;
    gql::EdgeList<bool> pattern;
    gql::EdgeList<int> valued;
    pattern.n_rows = pattern.n_cols = valued.n_rows = valued.n_cols = n;
    for (int64_t k = 0; k < m; ++k) {
      // Skewed rows (a hub), repeated pairs, self-loops.
      const auto r = static_cast<gql::index_t>(k % 7 == 0 ? 0 : rng() % static_cast<uint64_t>(n));
      const auto c = static_cast<gql::index_t>(k % 11 == 0 ? r : rng() % static_cast<uint64_t>(n));
      pattern.rows.push_back(r);
      pattern.cols.push_back(c);
      valued.rows.push_back(r);
      valued.cols.push_back(c);
      valued.values.push_back(1);
    }
    for (bool symmetrize : {false, true})
      for (auto loops : {gql::SelfLoops::keep, gql::SelfLoops::drop})
        for (auto duplicates : {gql::Duplicates::first, gql::Duplicates::max})
          for (int threads : {1, 3}) {
            omp_set_num_threads(threads);
            const gql::ReadOptions read{.self_loops = loops, .duplicates = duplicates, .symmetrize = symmetrize};
            auto p = pattern;
            auto v = valued;
            const auto got = gql::build_csr<bool>(std::move(p), read, "pattern");
            const auto want = gql::build_csr<int>(std::move(v), read, "valued");
            ASSERT_NO_THROW(got.validate());
            EXPECT_TRUE(std::equal(got.row_offsets().begin(), got.row_offsets().end(), want.row_offsets().begin(),
                                   want.row_offsets().end()));
            EXPECT_TRUE(std::equal(got.col_indices().begin(), got.col_indices().end(), want.col_indices().begin(),
                                   want.col_indices().end()))
                << "trial " << trial << ", symmetrize " << symmetrize << ", " << threads << " threads";
            EXPECT_EQ(got.derived().symmetric(), symmetrize);
          }
  }
  omp_set_num_threads(2);
}

TEST(Kronecker, DegreesAreSkewedAndLabelsPermuted) {
  auto g = gql::kronecker<bool>({.scale = 14, .edge_factor = 16}, {.symmetrize = true});
  const int64_t n = g.n_rows();
  std::vector<int64_t> degree(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) degree[v] = g.row_degree(v);
  const int64_t max_degree = *std::max_element(degree.begin(), degree.end());
  const double mean = static_cast<double>(g.nvals()) / static_cast<double>(n);
  const auto isolated = std::count(degree.begin(), degree.end(), 0);
  // A power-law-like graph: a hub far above the mean, and many vertices with no edge at all.
  EXPECT_GT(static_cast<double>(max_degree), 50 * mean);
  EXPECT_GT(isolated, n / 10);
  // Without the permutation vertex 0 would be the hub; with it the hubs are spread out.
  const auto hub = std::max_element(degree.begin(), degree.end()) - degree.begin();
  EXPECT_NE(hub, 0);
  auto plain = gql::urand<bool>({.scale = 14, .edge_factor = 16}, {.symmetrize = true});
  int64_t urand_max = 0;
  for (int64_t v = 0; v < n; ++v) urand_max = std::max(urand_max, plain.row_degree(v));
  EXPECT_LT(static_cast<double>(urand_max), 3 * mean);
}

TEST(Urand, CountsAndDeterminism) {
  auto e = gql::urand_edges<bool>({.scale = 11, .edge_factor = 4, .seed = 3});
  EXPECT_EQ(e.rows.size(), 4u << 11);
  omp_set_num_threads(1);
  auto again = gql::urand_edges<bool>({.scale = 11, .edge_factor = 4, .seed = 3});
  omp_set_num_threads(2);
  EXPECT_TRUE(same_edges(e, again));
}

TEST(Grid, EdgesAreTheFourNeighbours) {
  auto g = gql::grid<int>(3, 4);
  g.validate();
  EXPECT_EQ(g.n_rows(), 12);
  EXPECT_EQ(g.nvals(), 2 * (3 * 3 + 2 * 4));
  const auto e = entries(g);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      for (auto [dr, dc] : {std::pair{0, 1}, {1, 0}, {0, -1}, {-1, 0}}) {
        const bool inside = r + dr >= 0 && r + dr < 3 && c + dc >= 0 && c + dc < 4;
        EXPECT_EQ(e.count({r * 4 + c, (r + dr) * 4 + (c + dc)}), inside ? 1u : 0u);
      }
}

TEST(GeneratorSpec, SpecsWorkWhereverAPathDoes) {
  auto k = gql::read_graph<bool>("kron:8:4:5");
  EXPECT_EQ(entries(k), entries(gql::kronecker<bool>({.scale = 8, .edge_factor = 4, .seed = 5})));
  EXPECT_EQ(gql::read_graph<bool>("kron:8").nvals(), gql::kronecker<bool>({.scale = 8}).nvals());
  EXPECT_EQ(gql::read_graph<int>("urand:6:2").n_rows(), 64);
  EXPECT_EQ(gql::read_graph<int>("grid:2x5").nvals(), 2 * (2 * 4 + 1 * 5));
  EXPECT_EQ(gql::read_matrix<int>("grid:2x2", {}, -1)(0, 1), 1);
  EXPECT_EQ(gql::read_matrix<int>("grid:2x2", {}, -1)(0, 3), -1);
  for (const char* bad : {"kron:", "kron:x", "kron:31", "kron:4:2:1:9", "grid:3", "grid:0x4", "urand:-1"}) {
    try {
      gql::read_graph<bool>(bad);
      ADD_FAILURE() << bad;
    } catch (const gql::Error& e) {
      EXPECT_EQ(e.kind(), gql::ErrorKind::usage) << bad;
    }
  }
  EXPECT_THROW(gql::kronecker<int8_t>({.scale = 4, .weighted = true}), gql::Error);
}

}  // namespace
