#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>

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
