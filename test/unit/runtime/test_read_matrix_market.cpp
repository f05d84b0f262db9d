#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql::Format;
using gql_test::entries;
using gql_test::expect_io_error;

template <class T>
gql::Csr<T> mm(const std::string& text, gql::ReadOptions options = {}) {
  return gql::parse_graph<T>(text, Format::matrix_market, "t.mtx", options);
}

TEST(ReadMatrixMarket, CoordinateRealGeneral) {
  auto g = mm<double>(
      "%%MatrixMarket matrix coordinate real general\n% comment\n3 4 3\n1 2 0.5\n3 4 -2e3\n1 1 7\n");
  g.validate();
  EXPECT_EQ(g.n_rows(), 3);
  EXPECT_EQ(g.n_cols(), 4);
  const std::map<std::pair<int64_t, int64_t>, double> want{{{0, 1}, 0.5}, {{2, 3}, -2000.0}, {{0, 0}, 7.0}};
  EXPECT_EQ(entries(g), want);
}

TEST(ReadMatrixMarket, SymmetricIsExpandedAndPatternGivesOnes) {
  auto g = mm<int>("%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n2 1\n3 3\n3 1\n");
  g.validate();
  const std::map<std::pair<int64_t, int64_t>, double> want{
      {{1, 0}, 1}, {{0, 1}, 1}, {{2, 2}, 1}, {{2, 0}, 1}, {{0, 2}, 1}};
  EXPECT_EQ(entries(g), want);
}

TEST(ReadMatrixMarket, SkewSymmetricNegatesTheMirror) {
  auto g = mm<int>("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n");
  const std::map<std::pair<int64_t, int64_t>, double> want{{{1, 0}, 5}, {{0, 1}, -5}};
  EXPECT_EQ(entries(g), want);
  expect_io_error([] { mm<unsigned>("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 5\n"); },
                  {"signed"});
}

TEST(ReadMatrixMarket, BannerIsCaseInsensitiveAndCrlfIsTolerated) {
  auto g = mm<float>("%%matrixmarket MATRIX Coordinate Real General\r\n2 2 1\r\n2 2 1.5\r\n");
  EXPECT_EQ(entries(g).at({1, 1}), 1.5);
}

TEST(ReadMatrixMarket, HeaderlessBodyIsOneBasedWithNFromTheLargestId) {
  auto g = mm<bool>("3 1\n5 2\n");
  EXPECT_EQ(g.n_rows(), 5);
  EXPECT_EQ(g.nvals(), 2);
  EXPECT_EQ(entries(g).count({4, 1}), 1u);
  expect_io_error([] { mm<bool>("3 1 4\n5 2\n"); }, {"t.mtx:2:", "columns"});
  expect_io_error([] { mm<bool>(""); }, {"t.mtx:1", "empty"});
}

TEST(ReadMatrixMarket, BadInputNamesFileLineAndReason) {
  const std::string banner = "%%MatrixMarket matrix coordinate integer general\n";
  expect_io_error([&] { mm<int>(banner); }, {"t.mtx:1", "size line"});
  expect_io_error([&] { mm<int>(banner + "2 2 2\n1 1 3\n"); }, {"t.mtx:2", "promises 2", "has 1"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 1 3\n2 2 4\n"); }, {"promises 1", "has 2"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n3 1 3\n"); }, {"t.mtx:3", "outside"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n0 1 3\n"); }, {"t.mtx:3:1", "index 0"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n-1 1 3\n"); }, {"t.mtx:3", "negative"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 x 3\n"); }, {"t.mtx:3:3", "integer index"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 1 abc\n"); }, {"t.mtx:3:5", "expected a number"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 1 2.5\n"); }, {"not an integer"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 1 3 9\n"); }, {"unexpected token"});
  expect_io_error([&] { mm<int>(banner + "2 2 1\n1 1\n"); }, {"value is missing"});
  expect_io_error([&] { mm<int8_t>(banner + "2 2 1\n1 1 300\n"); }, {"does not fit i8"});
  expect_io_error([&] { mm<uint32_t>(banner + "2 2 1\n1 1 -1\n"); }, {"does not fit u32"});
  expect_io_error([&] { mm<float>(banner + "2 2 1\n1 1 1e39\n"); }, {"does not fit f32"});
  expect_io_error([&] { mm<int>(banner + "2147483648 2 0\n"); }, {"2^31-1"});
  expect_io_error([&] { mm<int>("%%MatrixMarket matrix coordinate complex general\n1 1 0\n"); }, {"complex"});
  expect_io_error([&] { mm<int>("%%MatrixMarket matrix coordinate real sideways\n1 1 0\n"); }, {"symmetry"});
  expect_io_error([&] { mm<int>("%%MatrixMarket matrix coordinate pattern symmetric\n2 2 1\n1 2\n"); },
                  {"below the diagonal"});
  expect_io_error([&] { mm<int>("%%MatrixMarket matrix array real general\n1 1\n1\n"); }, {"read_matrix"});
}

TEST(ReadMatrixMarket, IntegerFromExactRealAndHugeIntegers) {
  auto g = mm<int64_t>("%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 3.0\n1 2 9007199254740993\n");
  EXPECT_EQ(g.values()[0], 3);
  EXPECT_EQ(g.values()[1], 9007199254740993);  // exact, not through double
}

TEST(ReadMatrixMarket, DenseArrayIsColumnMajorAndSymmetricArrayIsMirrored) {
  gql_test::TempFile f("a.mtx", "%%MatrixMarket matrix array integer general\n2 3\n1\n2\n3\n4\n5\n6\n");
  auto m = gql::read_matrix<int>(f.path());
  EXPECT_EQ(m(0, 0), 1);
  EXPECT_EQ(m(1, 0), 2);
  EXPECT_EQ(m(0, 1), 3);
  EXPECT_EQ(m(1, 2), 6);
  gql_test::TempFile s("s.mtx", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n");
  auto sm = gql::read_matrix<double>(s.path());
  EXPECT_EQ(sm(0, 1), 2.0);
  EXPECT_EQ(sm(1, 0), 2.0);
  EXPECT_EQ(sm(1, 1), 3.0);
  gql_test::TempFile short_file("b.mtx", "%%MatrixMarket matrix array integer general\n2 2\n1\n2\n3\n");
  expect_io_error([&] { gql::read_matrix<int>(short_file.path()); }, {"needs 4 values", "has 3"});
}

TEST(ReadMatrixMarket, SparseFileDensifiedWithTheStatedFill) {
  gql_test::TempFile f("c.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 1\n2 1 4.5\n");
  auto m = gql::read_matrix<float>(f.path(), {}, std::numeric_limits<float>::infinity());
  EXPECT_EQ(m(1, 0), 4.5f);
  EXPECT_EQ(m(0, 0), std::numeric_limits<float>::infinity());
  EXPECT_EQ(gql::read_matrix<float>(f.path(), {}, 0.f)(0, 1), 0.f);
  // Without a fill a sparse file is refused: no value is right for every use (0 for sums, inf for distances).
  try {
    gql::read_matrix<float>(f.path());
    ADD_FAILURE() << "a sparse file was densified without a stated fill";
  } catch (const gql::Error& e) {
    EXPECT_EQ(e.kind(), gql::ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("absent entries"), std::string::npos) << e.what();
  }
}

TEST(ReadVector, ArrayIsDenseAndCoordinateIsSparse) {
  gql_test::TempFile d("d.mtx", "%%MatrixMarket matrix array real general\n3 1\n1\n0\n2.5\n");
  auto v = gql::read_vector<double>(d.path());
  ASSERT_TRUE(v.is_dense());
  EXPECT_EQ(v.values()[2], 2.5);
  gql_test::TempFile s("s.mtx", "%%MatrixMarket matrix coordinate integer general\n5 1 2\n4 1 7\n2 1 3\n");
  auto w = gql::read_vector<int>(s.path());
  w.validate();
  ASSERT_EQ(w.nvals(), 2);
  EXPECT_EQ(w.indices()[0], 1);
  EXPECT_EQ(w.values()[1], 7);
  gql_test::TempFile bad("m.mtx", "%%MatrixMarket matrix coordinate integer general\n5 2 0\n");
  expect_io_error([&] { gql::read_vector<int>(bad.path()); }, {"one column"});
}

}  // namespace
