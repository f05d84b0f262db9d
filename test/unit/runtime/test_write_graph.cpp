// write_graph: a graph in the format its file name says, reading back to the same graph (shape,
// vertices without edges and values included); names without a writer are refused.
#include <gtest/gtest.h>

#include <string>

#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql_test::entries;

// 5 vertices, the last two without edges; values exact.
gql::Csr<int64_t> valued() { return gql::Csr<int64_t>(5, 5, {0, 2, 3, 3, 3, 3}, {1, 2, 0}, {-7, 9007199254740993, 4}); }

TEST(WriteGraph, EveryWrittenFormatReadsBackTheSameGraph) {
  const gql::Csr<int64_t> g = valued();
  for (const char* name : {"g.mtx", "g.mm", "g.txt", "g.el", "g.csv", "g.edges", "g.gr", "g.gqlb", "g.txt.gz", "g.gr.gz",
                           "g.mtx.gz"}) {
    gql_test::TempFile f(name);
    gql::write_graph(f.path(), g);
    const gql::Csr<int64_t> back = gql::read_graph<int64_t>(f.path());
    EXPECT_EQ(back.n_rows(), 5) << name;
    EXPECT_EQ(back.n_cols(), 5) << name;
    EXPECT_EQ(entries(back), entries(g)) << name;
  }
  // A pattern: DIMACS arcs weigh 1, edge lists carry no weight.
  const gql::Csr<bool> p(4, 4, {0, 1, 1, 2, 2}, {3, 0});
  for (const char* name : {"p.txt", "p.gr", "p.mtx", "p.gqlb"}) {
    gql_test::TempFile f(name);
    gql::write_graph(f.path(), p);
    const gql::Csr<bool> back = gql::read_graph<bool>(f.path());
    EXPECT_EQ(back.n_rows(), 4) << name;
    EXPECT_EQ(entries(back), entries(p)) << name;
  }
  EXPECT_EQ(gql::format_edge_list(p), "# Nodes: 4 Edges: 2\n0 3\n2 0\n");
  EXPECT_EQ(gql::format_dimacs(p), "p sp 4 2\na 1 4 1\na 3 1 1\n");
}

TEST(WriteGraph, AnEdgeListOfNoEdgesKeepsItsVertices) {
  const gql::Csr<bool> empty(3, 3, {0, 0, 0, 0}, {});
  gql_test::TempFile f("empty.txt");
  gql::write_graph(f.path(), empty);
  EXPECT_EQ(gql::read_graph<bool>(f.path()).n_rows(), 3);
}

TEST(WriteGraph, NamesWithoutAWriterAreRefused) {
  const gql::Csr<int64_t> g = valued();
  for (const char* name : {"g.lg", "g.jlg", "g.gqlb.gz", "g.xyz", "g"}) {
    gql_test::TempFile f(name);
    try {
      gql::write_graph(f.path(), g);
      ADD_FAILURE() << name << " was written";
    } catch (const gql::Error& e) {
      EXPECT_NE(std::string(e.what()).find("cannot write"), std::string::npos) << e.what();
    }
  }
  // Edge lists and DIMACS files hold square graphs.
  const gql::Csr<int64_t> wide(1, 3, {0, 1}, {2}, {5});
  gql_test::TempFile f("wide.txt");
  try {
    gql::write_graph(f.path(), wide);
    ADD_FAILURE() << "a 1 x 3 graph was written as an edge list";
  } catch (const gql::Error& e) {
    EXPECT_NE(std::string(e.what()).find("holds a square graph"), std::string::npos) << e.what();
  }
}

}  // namespace
