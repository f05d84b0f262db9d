#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "io_test_util.hpp"

namespace {

using gql_test::entries;

TEST(WriteMatrixMarket, CoordinateIsSortedOneBasedAndExact) {
  gql::Csr<int64_t> g(2, 3, {0, 2, 3}, {0, 2, 1}, {-1, 9007199254740993, 4});
  EXPECT_EQ(gql::format_matrix_market(g),
            "%%MatrixMarket matrix coordinate integer general\n2 3 3\n1 1 -1\n1 3 9007199254740993\n2 2 4\n");
  gql::Csr<bool> p(2, 2, {0, 1, 1}, {1});
  EXPECT_EQ(gql::format_matrix_market(p), "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 2\n");
}

TEST(WriteMatrixMarket, FloatsRoundTripBitForBit) {
  const double tricky[] = {0.1, 1.0 / 3.0, 1e-300, 5e-324, std::numeric_limits<double>::max(), -0.0, 123456789.125};
  gql::Array<double> values(std::begin(tricky), std::end(tricky));
  gql::Array<gql::index_t> cols(values.size());
  for (size_t k = 0; k < cols.size(); ++k) cols[k] = static_cast<gql::index_t>(k);
  gql::Csr<double> g(1, static_cast<int64_t>(cols.size()), {0, static_cast<gql::offset_t>(cols.size())}, cols, values);
  gql_test::TempFile f("w.mtx");
  gql::write_matrix_market(f.path(), g);
  auto back = gql::read_graph<double>(f.path());
  for (size_t k = 0; k < values.size(); ++k)
    EXPECT_EQ(std::signbit(back.values()[k]), std::signbit(values[k])) << k;
  for (size_t k = 0; k < values.size(); ++k) EXPECT_EQ(back.values()[k], values[k]) << k;
  const float f32[] = {0.1f, 16777217.0f, 3.4e38f};
  gql::Csr<float> h(1, 3, {0, 3}, {0, 1, 2}, {f32[0], f32[1], f32[2]});
  gql::write_matrix_market(f.path(), h);
  auto hb = gql::read_graph<float>(f.path());
  for (int k = 0; k < 3; ++k) EXPECT_EQ(hb.values()[k], f32[k]);
}

TEST(WriteMatrixMarket, GraphRoundTripAndReproducibleGzip) {
  auto g = gql::kronecker<float>({.scale = 9, .edge_factor = 8, .weighted = true}, {.symmetrize = true});
  gql_test::TempFile a("a.mtx.gz"), b("b.mtx.gz");
  gql::write_matrix_market(a.path(), g);
  gql::write_matrix_market(b.path(), g);
  EXPECT_EQ(entries(gql::read_graph<float>(a.path())), entries(g));
  EXPECT_EQ(gql::format_matrix_market(gql::read_graph<float>(a.path())), gql::format_matrix_market(g));
}

TEST(WriteMatrixMarket, DenseIsColumnMajorArray) {
  gql::Matrix<int> m(2, 2, gql::Array<int>{1, 2, 3, 4});  // row-major [[1, 2], [3, 4]]
  EXPECT_EQ(gql::format_matrix_market(m), "%%MatrixMarket matrix array integer general\n2 2\n1\n3\n2\n4\n");
  gql_test::TempFile f("m.mtx");
  gql::write_matrix_market(f.path(), m);
  auto back = gql::read_matrix<int>(f.path());
  EXPECT_EQ(back(0, 1), 2);
  EXPECT_EQ(back(1, 0), 3);
}

TEST(WriteMatrixMarket, VectorsAreNByOneCoordinates) {
  auto d = gql::Vector<double>::dense(3, 0.5);
  EXPECT_EQ(gql::format_matrix_market(d),
            "%%MatrixMarket matrix coordinate real general\n3 1 3\n1 1 0.5\n2 1 0.5\n3 1 0.5\n");
  auto s = gql::Vector<int>::sparse(4, {0, 3}, {7, -2});
  EXPECT_EQ(gql::format_matrix_market(s), "%%MatrixMarket matrix coordinate integer general\n4 1 2\n1 1 7\n4 1 -2\n");
  gql_test::TempFile f("v.mtx");
  gql::write_matrix_market(f.path(), s);
  auto back = gql::read_vector<int>(f.path());
  EXPECT_EQ(back.indices()[1], 3);
  EXPECT_EQ(back.values()[1], -2);
}

// The file is a rule of the type, whatever the storage: a full sparse vector and a dense one of the same
// value give the same file, a coordinate one.
TEST(WriteMatrixMarket, StorageDoesNotChangeTheFile) {
  auto dense = gql::Vector<int>::dense(3, 0);
  dense.values()[1] = 5;
  auto sparse = gql::Vector<int>::sparse(3, {0, 1, 2}, {0, 5, 0});
  EXPECT_EQ(gql::format_matrix_market(sparse), gql::format_matrix_market(dense));
  EXPECT_EQ(gql::format_matrix_market(sparse),
            "%%MatrixMarket matrix coordinate integer general\n3 1 3\n1 1 0\n2 1 5\n3 1 0\n");
}

// A bool vector's entries carry their values (a false entry is not an absent one) and read back to them.
TEST(WriteMatrixMarket, BoolVectorsKeepFalseEntries) {
  auto b = gql::Vector<bool>::sparse(4, {0, 2}, {0, 1});
  EXPECT_EQ(gql::format_matrix_market(b), "%%MatrixMarket matrix coordinate integer general\n4 1 2\n1 1 0\n3 1 1\n");
  gql_test::TempFile f("b.mtx");
  gql::write_matrix_market(f.path(), b);
  auto back = gql::read_vector<bool>(f.path());
  ASSERT_EQ(back.nvals(), 2);
  EXPECT_EQ(back.indices()[0], 0);
  EXPECT_EQ(back.values()[0], 0);
  EXPECT_EQ(back.values()[1], 1);
}

}  // namespace
