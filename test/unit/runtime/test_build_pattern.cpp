// The pattern build (graphs without values: bucketed by row block in 32- or 64-bit entries, rows
// sorted and deduplicated in cache) against a plain reference: every entry pushed to its row, each row std::sort-ed and
// std::unique-d. Sizes reach past the runtime's parallel grain so that several threads partition.
#include <gtest/gtest.h>

#include <omp.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gql/edge_list.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "sort_unique_columns.hpp"

namespace {

using gql::index_t;
using gql::offset_t;

struct Reference {
  std::vector<offset_t> row_offsets{0};
  std::vector<index_t> col_indices;
};

Reference reference_pattern(const gql::EdgeList<bool>& edges, bool drop_loops, bool symmetrize) {
  std::vector<std::vector<index_t>> rows(static_cast<size_t>(edges.n_rows));
  for (size_t e = 0; e < edges.rows.size(); ++e) {
    const index_t r = edges.rows[e], c = edges.cols[e];
    if (r == c && drop_loops) continue;
    rows[r].push_back(c);
    if (symmetrize) rows[c].push_back(r);
  }
  Reference want;
  for (auto& row : rows) {
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    want.col_indices.insert(want.col_indices.end(), row.begin(), row.end());
    want.row_offsets.push_back(static_cast<offset_t>(want.col_indices.size()));
  }
  return want;
}

// Builds `edges` under every combination of self-loops and symmetrize (symmetrize only when square)
// and several thread counts, each against the reference.
void expect_as_reference(const gql::EdgeList<bool>& edges, const std::string& name) {
  for (bool symmetrize : {false, true}) {
    if (symmetrize && edges.n_rows != edges.n_cols) continue;
    for (bool drop_loops : {false, true}) {
      const Reference want = reference_pattern(edges, drop_loops, symmetrize);
      for (int threads : {1, 2, 3, 8}) {
        omp_set_num_threads(threads);
        auto copy = edges;
        const gql::ReadOptions read{.self_loops = drop_loops ? gql::SelfLoops::drop : gql::SelfLoops::keep,
                                    .symmetrize = symmetrize};
        const auto got = gql::build_csr<bool>(std::move(copy), read, name);
        const std::string what = name + ", symmetrize " + std::to_string(symmetrize) + ", drop loops " +
                                 std::to_string(drop_loops) + ", " + std::to_string(threads) + " threads";
        ASSERT_EQ(got.n_rows(), edges.n_rows) << what;
        EXPECT_TRUE(std::equal(got.row_offsets().begin(), got.row_offsets().end(), want.row_offsets.begin(),
                               want.row_offsets.end()))
            << what;
        EXPECT_TRUE(std::equal(got.col_indices().begin(), got.col_indices().end(), want.col_indices.begin(),
                               want.col_indices.end()))
            << what;
      }
    }
  }
  omp_set_num_threads(2);
}

gql::EdgeList<bool> random_edges(int64_t n_rows, int64_t n_cols, int64_t m, uint64_t seed) {
  std::mt19937_64 rng(seed);
  gql::EdgeList<bool> edges;
  edges.n_rows = n_rows;
  edges.n_cols = n_cols;
  for (int64_t k = 0; k < m; ++k) {
    const auto r = static_cast<index_t>(rng() % static_cast<uint64_t>(n_rows));
    // A self-loop now and then (square only); repeats come from the small ranges below.
    const auto c = static_cast<index_t>(k % 13 == 0 && n_rows == n_cols ? r : rng() % static_cast<uint64_t>(n_cols));
    edges.rows.push_back(r);
    edges.cols.push_back(c);
  }
  return edges;
}

TEST(BuildPattern, KroneckerAndUrandAsTheReference) {
  expect_as_reference(gql::kronecker_edges<bool>({.scale = 13, .edge_factor = 16, .seed = 3}), "kron:13");
  expect_as_reference(gql::kronecker_edges<bool>({.scale = 5, .edge_factor = 4}), "kron:5:4");
  expect_as_reference(gql::urand_edges<bool>({.scale = 12, .edge_factor = 24, .seed = 8}), "urand:12:24");
}

TEST(BuildPattern, RowsFarApartAndEmptyRows) {
  // Few entries over many rows: most rows and most row blocks are empty.
  expect_as_reference(random_edges(1 << 20, 1 << 20, 5000, 1), "sparse");
  // Entries only in the first and the last row of many.
  gql::EdgeList<bool> ends;
  ends.n_rows = ends.n_cols = 300000;
  for (index_t k = 0; k < 100000; ++k) {
    ends.rows.push_back(k % 2 == 0 ? 0 : 299999);
    ends.cols.push_back(k % 1000);
  }
  expect_as_reference(ends, "first and last rows");
}

TEST(BuildPattern, OneHugeHubRow) {
  // Half the entries in one row, with repeats: the block holding it is far larger than the others,
  // and its row is radix sorted.
  gql::EdgeList<bool> hub = random_edges(50000, 50000, 200000, 2);
  for (size_t e = 0; e < hub.rows.size(); e += 2) hub.rows[e] = 777;
  expect_as_reference(hub, "hub");
}

TEST(BuildPattern, FewerRowsThanThreads) {
  expect_as_reference(random_edges(1, 1, 100000, 3), "one row");
  expect_as_reference(random_edges(3, 3, 100000, 4), "three rows");
  expect_as_reference(random_edges(5, 70000, 100000, 5), "five rows, many columns");
}

TEST(BuildPattern, WideColumnsAndNoEntries) {
  // Columns up to the largest vertex id: every byte digit of the radix sort counts.
  expect_as_reference(random_edges(4, gql::max_vertex_count, 100000, 6), "31-bit columns");
  // Too many rows for a block's row and a 31-bit column to share 32 bits: entries of 64 bits.
  expect_as_reference(random_edges(1 << 20, gql::max_vertex_count, 100000, 8), "64-bit entries");
  expect_as_reference(random_edges(1000, 1000, 0, 7), "no entries");
  expect_as_reference(random_edges(0, 0, 0, 7), "no rows");
}

TEST(BuildPattern, RealGraphsAsTheGeneralBuild) {
  // The general build (graphs with values, file order) is a second, independent reference.
  const std::string graphs = std::string(GQL_SHARED_DATA_DIR) + "/graphs/";
  if (!std::filesystem::exists(graphs)) GTEST_SKIP() << "no shared data at " << graphs;
  for (const char* file : {"wiki-Vote.txt.gz", "p2p-Gnutella31.txt.gz"}) {
    for (bool symmetrize : {false, true}) {
      const gql::ReadOptions read{.self_loops = gql::SelfLoops::drop, .symmetrize = symmetrize};
      const auto got = gql::read_graph<bool>(graphs + file, read);
      const auto want = gql::read_graph<int>(graphs + file, read);
      EXPECT_TRUE(std::equal(got.row_offsets().begin(), got.row_offsets().end(), want.row_offsets().begin(),
                             want.row_offsets().end()))
          << file;
      EXPECT_TRUE(std::equal(got.col_indices().begin(), got.col_indices().end(), want.col_indices().begin(),
                             want.col_indices().end()))
          << file << ", symmetrize " << symmetrize;
    }
  }
}

TEST(SortUniqueColumns, AsSortAndUnique) {
  std::mt19937_64 rng(9);
  for (int column_bits : {0, 1, 7, 8, 9, 16, 22, 31}) {
    for (int64_t size : {0, 1, 5, 63, 64, 65, 300, 5000}) {
      const uint64_t range = uint64_t{1} << column_bits;
      // Narrow values repeat; values below 256 leave the higher digits' passes out.
      for (uint64_t spread : {range, std::min<uint64_t>(range, 200), std::min<uint64_t>(range, 3)}) {
        std::vector<index_t> row(static_cast<size_t>(size)), scratch(static_cast<size_t>(size));
        for (auto& c : row) c = static_cast<index_t>(rng() % spread);
        auto want = row;
        std::sort(want.begin(), want.end());
        want.erase(std::unique(want.begin(), want.end()), want.end());
        index_t* end = gql::detail::sort_unique_columns(row.data(), row.data() + size, scratch.data(), column_bits);
        EXPECT_TRUE(std::equal(row.data(), end, want.begin(), want.end()))
            << column_bits << " bits, " << size << " entries below " << spread;
      }
    }
  }
}

}  // namespace
