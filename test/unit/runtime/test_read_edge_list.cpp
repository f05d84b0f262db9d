#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql::Format;
using gql_test::entries;
using gql_test::expect_io_error;

template <class T>
gql::Csr<T> el(const std::string& text, gql::ReadOptions options = {}) {
  return gql::parse_graph<T>(text, Format::edge_list, "g.txt", options);
}

TEST(ReadEdgeList, CommentsSeparatorsCrlfAndIdsAsGiven) {
  auto g = el<bool>("# SNAP\n% also a comment\n0\t3\r\n3,1\r\n\n2 0\r\n");
  g.validate();
  EXPECT_EQ(g.n_rows(), 4);  // largest id + 1
  const std::map<std::pair<int64_t, int64_t>, double> want{{{0, 3}, 1}, {{3, 1}, 1}, {{2, 0}, 1}};
  EXPECT_EQ(entries(g), want);
}

TEST(ReadEdgeList, WeightColumn) {
  auto g = el<float>("0 1 2.5\n1 0 -1\n");
  EXPECT_EQ(entries(g).at({0, 1}), 2.5);
  EXPECT_EQ(entries(g).at({1, 0}), -1.0);
  auto p = el<int>("0 1\n");
  EXPECT_EQ(p.values()[0], 1);
}

TEST(ReadEdgeList, OneHeaderLineOfWordsIsSkipped) {
  auto g = el<bool>("start end\n1 2\n8 2\n");
  EXPECT_EQ(g.nvals(), 2);
  EXPECT_EQ(g.n_rows(), 9);
  expect_io_error([] { el<bool>("start end\n1 2\nfoo bar\n"); }, {"g.txt:3:1", "integer index"});
}

TEST(ReadEdgeList, BadInput) {
  expect_io_error([] { el<int>("0 1\n1\n"); }, {"g.txt:2", "source target"});
  expect_io_error([] { el<int>("0 1\n1 2 3 4\n"); }, {"g.txt:2:7", "unexpected token"});
  expect_io_error([] { el<int>("0 1\n1 2 3\n"); }, {"g.txt:2", "3 columns, earlier lines 2"});
  expect_io_error([] { el<int>("0 -1\n"); }, {"g.txt:1:3", "negative"});
  expect_io_error([] { el<int>("0 2147483647\n"); }, {"2^31-1"});
  expect_io_error([] { el<int>("0 99999999999999999999\n"); }, {"out of range"});
  expect_io_error([] { el<uint8_t>("0 1 256\n"); }, {"does not fit u8"});
  expect_io_error([] { el<int>("0 1 x\n"); }, {"g.txt:1:5", "expected a number"});
  expect_io_error([] { el<int>(""); }, {"g.txt", "no edges"});
  expect_io_error([] { el<int>("# only a comment\n"); }, {"no edges"});
}

TEST(ReadEdgeList, ErrorLineIsRightInALargeParallelParse) {
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i % 1000) + " " + std::to_string((i * 7) % 1000) + "\n";
  text += "5 oops\n";
  expect_io_error([&] { el<bool>(text); }, {"g.txt:200001:3"});
}

// Lines without an entry (comments, blank lines) inside the chunks of a parallel parse leave slots
// that the entries are packed over, in file order.
TEST(ReadEdgeList, CommentsAndBlankLinesAmongManyChunks) {
  std::string text;
  std::map<std::pair<int64_t, int64_t>, double> want;
  for (int i = 0; i < 300000; ++i) {
    if (i % 997 == 0) text += "# a comment among the edges\n";
    if (i % 1499 == 0) text += i % 2 ? "\n" : "  \r\n";
    const int64_t row = i / 8, col = (int64_t{i} * 7919) % 1000003;
    text += std::to_string(row) + " " + std::to_string(col) + " " + std::to_string(i % 100 + 1) + "\n";
    want[{row, col}] = i % 100 + 1;
  }
  text += "# the last line is a comment\n\n";
  const auto g = el<int>(text);
  g.validate();
  EXPECT_EQ(entries(g), want);
}

// A file larger than the slices its threads read at a time reads as its text parses.
TEST(ReadEdgeList, ALargeFileReadsAsItsText) {
  std::string text;
  for (int64_t i = 0; text.size() < (size_t{40} << 20); ++i)
    text += std::to_string(i % 1000003) + "\t" + std::to_string((i * 31) % 999983) + "\n";
  gql_test::TempFile file("large.txt", text);
  const auto from_file = gql::read_graph<bool>(file.path(), {.format = Format::edge_list});
  const auto from_text = gql::parse_graph<bool>(text, Format::edge_list, "large.txt", {});
  EXPECT_TRUE(std::ranges::equal(from_file.row_offsets(), from_text.row_offsets()));
  EXPECT_TRUE(std::ranges::equal(from_file.col_indices(), from_text.col_indices()));
  EXPECT_GT(from_file.nvals(), 0);
}

TEST(ReadEdgeList, GzipByMagicBytesAndByName) {
  gql_test::TempFile plain("e.txt", "0 1\n1 2\n");
  gql_test::TempFile gz("e.txt.gz");
  ASSERT_EQ(std::system(("gzip -c " + plain.path() + " > " + gz.path()).c_str()), 0);
  EXPECT_EQ(entries(gql::read_graph<int>(gz.path())), entries(gql::read_graph<int>(plain.path())));
  gql_test::TempFile gz_no_suffix("e2.txt");
  ASSERT_EQ(std::system(("gzip -c " + plain.path() + " > " + gz_no_suffix.path()).c_str()), 0);
  EXPECT_EQ(gql::read_graph<int>(gz_no_suffix.path()).nvals(), 2);
  gql_test::TempFile truncated("t.txt.gz");
  ASSERT_EQ(std::system(("head -c 20 " + gz.path() + " > " + truncated.path()).c_str()), 0);
  expect_io_error([&] { gql::read_graph<int>(truncated.path()); }, {"gzip"});
}

TEST(ReadGraph, MissingFileAndUnknownExtension) {
  expect_io_error([] { gql::read_graph<int>("/nonexistent/g.mtx"); },
                  {"/nonexistent/g.mtx", "cannot open", "No such file or directory"});
  // The message names what a user can do (rename the file), not a C++-only option.
  try {
    gql::read_graph<int>("graph.xyz");
    ADD_FAILURE() << "expected an io error";
  } catch (const gql::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("graph.xyz"), std::string::npos) << what;
    EXPECT_NE(what.find("name the file"), std::string::npos) << what;
    EXPECT_EQ(what.find("ReadOptions"), std::string::npos) << what;
  }
}

}  // namespace
