#include <gtest/gtest.h>

#include "gql/graph.hpp"

namespace {

TEST(Csr, ValidateAcceptsSortedRows) {
  gql::Csr<float> g(2, 3, {0, 2, 3}, {0, 2, 1}, {1.f, 2.f, 3.f});
  EXPECT_NO_THROW(g.validate());
  EXPECT_EQ(g.nvals(), 3);
  EXPECT_EQ(g.row_degree(0), 2);
}

TEST(Csr, ValidateRejectsUnsortedColumns) {
  gql::Csr<bool> g(1, 3, {0, 2}, {2, 1});
  EXPECT_THROW(g.validate(), gql::Error);
}

TEST(Csr, ValidateRejectsColumnOutOfRange) {
  gql::Csr<bool> g(1, 2, {0, 1}, {2});
  EXPECT_THROW(g.validate(), gql::Error);
}

TEST(Csr, ConvertPatternToNumbersGivesOnes) {
  gql::Csr<bool> g(2, 2, {0, 1, 2}, {1, 0});
  auto w = gql::convert<uint64_t>(g);
  ASSERT_EQ(w.values().size(), 2u);
  EXPECT_EQ(w.values()[0], 1u);
  EXPECT_EQ(w.values()[1], 1u);
}

TEST(Csr, ConvertToPatternKeepsStructure) {
  gql::Csr<int32_t> g(1, 3, {0, 2}, {0, 2}, {0, 5});
  auto p = gql::convert<bool>(g);
  EXPECT_EQ(p.nvals(), 2);
  EXPECT_TRUE(p.values().empty());
}

TEST(Vector, DenseAndSparse) {
  auto d = gql::Vector<int32_t>::dense(4, 7);
  EXPECT_TRUE(d.is_dense());
  EXPECT_EQ(d.nvals(), 4);
  auto s = gql::Vector<bool>::sparse(5, {1, 3}, {1, 1});
  EXPECT_NO_THROW(s.validate());
  EXPECT_EQ(s.nvals(), 2);
  auto bad = gql::Vector<float>::sparse(5, {3, 1}, {1.f, 2.f});
  EXPECT_THROW(bad.validate(), gql::Error);
}

TEST(Matrix, RowMajor) {
  gql::Matrix<double> m(2, 3, 0.0);
  m(1, 2) = 4.0;
  EXPECT_EQ(m.data()[5], 4.0);
  EXPECT_NO_THROW(m.validate());
}

TEST(Error, MessageNamesFileAndLine) {
  gql::Error e(gql::ErrorKind::io, "bad token", {"g.mtx", 12, 3});
  EXPECT_STREQ(e.what(), "g.mtx:12:3: io error: bad token");
  gql::Error b(gql::ErrorKind::io, "bad checksum", {"g.gqlb", 0, 0, 4096});
  EXPECT_STREQ(b.what(), "g.gqlb: byte 4096: io error: bad checksum");
}

TEST(Error, GeneratedCodeThatDoesNotBuildIsABuildError) {
  // gqlc -o and the JIT both report generated code that does not build or load under this label.
  EXPECT_STREQ(gql::Error(gql::ErrorKind::jit, "nvcc failed").what(), "build error: nvcc failed");
}

}  // namespace
