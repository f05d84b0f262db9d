#include <gtest/gtest.h>

#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql::Format;
using gql_test::entries;
using gql_test::expect_io_error;

TEST(ReadDimacs, ArcsAreOneBasedAndWeighted) {
  auto g = gql::parse_graph<int>("c road\np sp 3 2\nc arcs\na 1 2 760\na 3 1 5\n", Format::dimacs, "r.gr");
  const std::map<std::pair<int64_t, int64_t>, double> want{{{0, 1}, 760}, {{2, 0}, 5}};
  EXPECT_EQ(entries(g), want);
  EXPECT_EQ(g.n_rows(), 3);
}

TEST(ReadDimacs, BadInput) {
  const auto gr = [](const std::string& text) { gql::parse_graph<int>(text, Format::dimacs, "r.gr"); };
  expect_io_error([&] { gr("c only\n"); }, {"r.gr", "problem line"});
  expect_io_error([&] { gr("a 1 2 3\n"); }, {"r.gr:1", "problem line"});
  expect_io_error([&] { gr("p sp 2 2\na 1 2 3\n"); }, {"r.gr:1", "promises 2", "has 1"});
  expect_io_error([&] { gr("p sp 2 1\na 1 3 3\n"); }, {"r.gr:2:5", "outside 1..2"});
  expect_io_error([&] { gr("p sp 2 1\na 1 2\n"); }, {"r.gr:2", "arc"});
  expect_io_error([&] { gr("p sp 2 1\nx 1 2 3\n"); }, {"r.gr:2", "arc"});
  expect_io_error([&] { gr("p sp 2 1\na 1 2 3\np sp 2 1\n"); }, {"r.gr:3", "second problem line"});
  expect_io_error([&] { gr("p max 2 1\na 1 2 3\n"); }, {"p sp N M"});
}

TEST(ReadLg, DirectedAndUndirected) {
  auto d = gql::parse_graph<bool>("3,2,d,graph,2,Int64,simplegraph\n1,2\n3,1\n", Format::lg, "g.jlg");
  EXPECT_EQ(d.nvals(), 2);
  EXPECT_EQ(entries(d).count({2, 0}), 1u);
  auto u = gql::parse_graph<bool>("3,2,u,graph\n1,2\n3,3\n", Format::lg, "g.jlg");
  const std::map<std::pair<int64_t, int64_t>, double> want{{{0, 1}, 1}, {{1, 0}, 1}, {{2, 2}, 1}};
  EXPECT_EQ(entries(u), want);
}

TEST(ReadLg, BadInput) {
  const auto lg = [](const std::string& text) { gql::parse_graph<bool>(text, Format::lg, "g.jlg"); };
  expect_io_error([&] { lg(""); }, {"g.jlg", "header"});
  expect_io_error([&] { lg("3,2,x,graph\n"); }, {"g.jlg:1", "header"});
  expect_io_error([&] { lg("3,2,d,graph\n1,2\n"); }, {"promises 2", "has 1"});
  expect_io_error([&] { lg("3,1,d,graph\n1,4\n"); }, {"g.jlg:2:3", "outside 1..3"});
  expect_io_error([&] { lg("3,1,d,graph\n1,2,3\n"); }, {"g.jlg:2", "src,dst"});
}

}  // namespace
