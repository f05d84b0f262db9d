#include <gtest/gtest.h>

#include <omp.h>

#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql::Duplicates;
using gql::Format;
using gql::ReadOptions;
using gql::SelfLoops;
using gql_test::entries;
using gql_test::expect_io_error;

// 0->1 three times (values 5, 2, 9), a loop 2->2, and 1->0 once (value 4).
const std::string text = "0 1 5\n2 2 1\n0 1 2\n1 0 4\n0 1 9\n";

gql::Csr<int> read(ReadOptions options) { return gql::parse_graph<int>(text, Format::edge_list, "p.el", options); }

TEST(ReadPolicies, DuplicatesCombine) {
  EXPECT_EQ(entries(read({})).at({0, 1}), 5);
  EXPECT_EQ(entries(read({.duplicates = Duplicates::sum})).at({0, 1}), 16);
  EXPECT_EQ(entries(read({.duplicates = Duplicates::min})).at({0, 1}), 2);
  EXPECT_EQ(entries(read({.duplicates = Duplicates::max})).at({0, 1}), 9);
  expect_io_error([] { read({.duplicates = Duplicates::error}); }, {"p.el:3", "duplicate entry (0, 1)", "line 1"});
}

TEST(ReadPolicies, SumOverflowIsAnError) {
  expect_io_error(
      [] { gql::parse_graph<int8_t>("0 1 100\n0 1 100\n", Format::edge_list, "o.el", {.duplicates = Duplicates::sum}); },
      {"o.el:2", "does not fit"});
}

TEST(ReadPolicies, SelfLoops) {
  EXPECT_EQ(entries(read({})).count({2, 2}), 1u);
  EXPECT_EQ(entries(read({.self_loops = SelfLoops::drop})).count({2, 2}), 0u);
}

TEST(ReadPolicies, SymmetrizeCombinesBothDirections) {
  auto first = entries(read({.symmetrize = true}));
  EXPECT_EQ(first.at({0, 1}), 5);  // the 0->1 entry comes first in the file
  EXPECT_EQ(first.at({1, 0}), 5);
  auto sum = entries(read({.duplicates = Duplicates::sum, .symmetrize = true}));
  EXPECT_EQ(sum.at({0, 1}), 20);
  EXPECT_EQ(sum.at({1, 0}), 20);
  EXPECT_EQ(sum.at({2, 2}), 1);  // a loop is not doubled
  auto one_way = entries(gql::parse_graph<int>("0 3 7\n", Format::edge_list, "s.el", {.symmetrize = true}));
  EXPECT_EQ(one_way.at({3, 0}), 7);
  expect_io_error([] { gql::parse_graph<int>("0 1 1\n1 0 2\n", Format::edge_list, "s.el",
                                             {.duplicates = Duplicates::error, .symmetrize = true}); },
                  {"different values"});
  EXPECT_NO_THROW(gql::parse_graph<int>("0 1 1\n1 0 1\n", Format::edge_list, "s.el",
                                        {.duplicates = Duplicates::error, .symmetrize = true}));
}

TEST(ReadPolicies, FloatSumDoesNotDependOnThreadCount) {
  std::string big;
  for (int i = 0; i < 100000; ++i)
    big += std::to_string(i % 7) + " " + std::to_string(i % 5) + " " + std::to_string(0.1 + i * 1e-7) + "\n";
  const ReadOptions sum{.duplicates = Duplicates::sum, .symmetrize = true};
  omp_set_num_threads(1);
  auto one = gql::parse_graph<float>(big, Format::edge_list, "f.el", sum);
  omp_set_num_threads(4);
  auto four = gql::parse_graph<float>(big, Format::edge_list, "f.el", sum);
  ASSERT_EQ(one.nvals(), four.nvals());
  for (int64_t p = 0; p < one.nvals(); ++p) EXPECT_EQ(one.values()[p], four.values()[p]);
  // Reference: sums in file order.
  std::map<std::pair<int, int>, float> want;
  for (int i = 0; i < 100000; ++i) want[{i % 7, i % 5}] += std::stof(std::to_string(0.1 + i * 1e-7));
  const auto got = entries(one);
  for (const auto& [rc, v] : want) {
    if (rc.first == rc.second) {
      EXPECT_EQ(static_cast<float>(got.at({rc.first, rc.second})), v);
    }
  }
}

TEST(ReadPolicies, MatchesAReferenceOnRandomInput) {
  std::string body;
  std::map<std::pair<int, int>, int64_t> want;
  uint64_t x = 12345;
  const int m = 50000;
  for (int i = 0; i < m; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const int r = static_cast<int>((x >> 33) % 300), c = static_cast<int>((x >> 13) % 300), v = static_cast<int>(x % 100);
    body += std::to_string(r + 1) + " " + std::to_string(c + 1) + " " + std::to_string(v) + "\n";
    if (r != c) want[{r, c}] = std::max(want.count({r, c}) ? want[{r, c}] : INT64_MIN, int64_t{v});
  }
  const std::string file =
      "%%MatrixMarket matrix coordinate integer general\n300 300 " + std::to_string(m) + "\n" + body;
  auto g = gql::parse_graph<int64_t>(file, Format::matrix_market, "r.mtx",
                                     {.self_loops = SelfLoops::drop, .duplicates = Duplicates::max});
  g.validate();
  std::map<std::pair<int64_t, int64_t>, double> want_d;
  for (const auto& [rc, v] : want) want_d[{rc.first, rc.second}] = static_cast<double>(v);
  EXPECT_EQ(entries(g), want_d);
}

}  // namespace
