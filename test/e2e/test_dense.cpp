// Closures and LU end to end: the stdlib's apsp, apsp_paths, transitive_closure and lu_factor, and
// every closure schedule of specs/dense.gql, against the plain triple loop.
#include <cmath>
#include <fstream>
#include <limits>
#include <random>
#include <utility>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

// Tuple results are written as FILE.0, FILE.1, ...: names without a format extension.
ReadOptions matrix_market() {
  ReadOptions o;
  o.format = Format::matrix_market;
  return o;
}

// A random weighted digraph as a dense distance matrix: 0 on the diagonal, "no edge" elsewhere:
// inf for floats, and for integers half the largest value, so that a sum of two cannot wrap (the
// convention for integer shortest paths: the language's integer inf is the largest value).
template <class T>
Matrix<T> random_distances(int64_t n, double density, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  std::uniform_int_distribution<int> weight(1, 100);
  const T inf = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                     : std::numeric_limits<T>::max() / 2;
  Matrix<T> D(n, n, inf);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) D(i, j) = i == j ? T(0) : coin(rng) < density ? T(weight(rng)) : inf;
  return D;
}

// Floyd-Warshall, the straightforward way.
template <class T, class Con, class Agg>
Matrix<T> reference_closure(const Matrix<T>& D, Con con, Agg agg) {
  Matrix<T> R = D.clone();
  const int64_t n = D.n_rows();
  for (int64_t k = 0; k < n; ++k)
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) R(i, j) = agg(R(i, j), con(R(i, k), R(k, j)));
  return R;
}

template <class T>
Matrix<T> min_plus_closure(const Matrix<T>& D) {
  return reference_closure(
      D,
      [](T a, T b) { return T(a + b); },
      [](T a, T b) { return std::min(a, b); });
}

template <class T>
void expect_same_matrix(const Matrix<T>& expected, const Matrix<T>& got) {
  ASSERT_EQ(expected.n_rows(), got.n_rows());
  ASSERT_EQ(expected.n_cols(), got.n_cols());
  int reported = 0;
  for (int64_t i = 0; i < expected.n_rows() && reported < 10; ++i)
    for (int64_t j = 0; j < expected.n_cols() && reported < 10; ++j)
      if (!(expected(i, j) == got(i, j))) {
        ADD_FAILURE() << "(" << i << ", " << j << "): expected " << +expected(i, j) << ", got " << +got(i, j);
        ++reported;
      }
}

TEST(Dense, ShortestPathsInEverySchedule) {
  // 150 is not a multiple of any tile: the edge tiles are exercised.
  const auto D = random_distances<float>(150, 0.05, 7);
  const std::string in = scratch_dir() + "/d.mtx";
  write_matrix_market(in, D);
  const auto expected = min_plus_closure(D);
  expect_same_matrix(expected, read_matrix<float>(run_ok("std_apsp", "apsp", "--D " + in)));
  for (const char* kernel : {"apsp", "apsp_tasks", "apsp_parallel_for", "apsp_recursive"}) {
    SCOPED_TRACE(kernel);
    expect_same_matrix(expected, read_matrix<float>(run_ok("specs_dense", kernel, "--D " + in)));
  }
}

TEST(Dense, IntegerShortestPaths) {
  const auto D = random_distances<int32_t>(70, 0.08, 3);
  const std::string in = scratch_dir() + "/d.mtx";
  write_matrix_market(in, D);
  expect_same_matrix(min_plus_closure(D), read_matrix<int32_t>(run_ok("specs_dense", "apsp_i32", "--D " + in)));
}

TEST(Dense, ShortestPathsOnARoadGraph) {
  GQL_REQUIRE_SHARED_DATA();
  // rome99 densified: absent arcs are inf, the diagonal 0.
  const auto G = read_graph<float>(data_graph("rome99.gr"));
  const int64_t n = 600;  // the first 600 junctions keep the reference loop quick
  Matrix<float> D(n, n, std::numeric_limits<float>::infinity());
  for (int64_t i = 0; i < n; ++i) {
    D(i, i) = 0;
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p)
      if (G.col_indices()[p] < n) D(i, G.col_indices()[p]) = std::min(D(i, G.col_indices()[p]), G.value_at(p));
  }
  const std::string in = scratch_dir() + "/rome.mtx";
  write_matrix_market(in, D);
  expect_same_matrix(min_plus_closure(D), read_matrix<float>(run_ok("std_apsp", "apsp", "--D " + in)));
}

TEST(Dense, PredecessorsLeadAlongShortestPaths) {
  const auto D = random_distances<float>(90, 0.06, 11);
  const std::string in = scratch_dir() + "/d.mtx";
  write_matrix_market(in, D);
  run_ok("std_apsp", "apsp_paths", "--D " + in, "out.mtx");
  const auto dist = read_matrix<float>(scratch_dir() + "/out.mtx.0", matrix_market());
  const auto pred = read_matrix<int32_t>(scratch_dir() + "/out.mtx.1", matrix_market());
  expect_same_matrix(min_plus_closure(D), dist);
  for (int64_t i = 0; i < D.n_rows(); ++i)
    for (int64_t j = 0; j < D.n_cols(); ++j) {
      if (i == j || std::isinf(dist(i, j))) continue;
      const int32_t p = pred(i, j);
      ASSERT_GE(p, 0) << "(" << i << ", " << j << ")";
      // The last arc p -> j closes a shortest path to p.
      EXPECT_EQ(dist(i, p) + D(p, j), dist(i, j)) << "(" << i << ", " << j << ") via " << p;
    }
}

TEST(Dense, TransitiveClosureAndWidestPaths) {
  std::mt19937 rng(5);
  const int64_t n = 80;
  Matrix<bool> R(n, n, 0);
  Matrix<double> W(n, n, 0.0);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      R(i, j) = rng() % 40 == 0;
      W(i, j) = rng() % 10 == 0 ? double(rng() % 1000) / 7 : 0.0;
    }
  const std::string r_in = scratch_dir() + "/r.mtx", w_in = scratch_dir() + "/w.mtx";
  write_matrix_market(r_in, R);
  write_matrix_market(w_in, W);
  const auto reach = reference_closure(R, [](uint8_t a, uint8_t b) { return uint8_t(a && b); },
                                       [](uint8_t a, uint8_t b) { return uint8_t(a || b); });
  expect_same_matrix(reach, read_matrix<bool>(run_ok("std_transitive_closure", "transitive_closure", "--R " + r_in)));
  expect_same_matrix(reach, read_matrix<bool>(run_ok("specs_dense", "reach", "--D " + r_in)));
  const auto widest = reference_closure(W, [](double a, double b) { return std::min(a, b); },
                                        [](double a, double b) { return std::max(a, b); });
  expect_same_matrix(widest, read_matrix<double>(run_ok("specs_dense", "widest", "--D " + w_in)));
}

TEST(Dense, LuReproducesTheMatrix) {
  const int64_t n = 120;
  std::mt19937 rng(9);
  std::uniform_real_distribution<double> u(-1, 1);
  Matrix<double> A(n, n, 0.0);
  for (auto& x : A.data()) x = u(rng);
  const std::string in = scratch_dir() + "/a.mtx";
  write_matrix_market(in, A);
  for (auto [program, kernel] : {std::pair{"std_lu", "lu_factor"}, std::pair{"specs_dense", "factor"}}) {
    SCOPED_TRACE(kernel);
    run_ok(program, kernel, "--A " + in, "lu.mtx");
    const auto LU = read_matrix<double>(scratch_dir() + "/lu.mtx.0", matrix_market());
    const auto piv = read_vector<int32_t>(scratch_dir() + "/lu.mtx.1", matrix_market());
    ASSERT_EQ(piv.nvals(), n);  // every row has its pivot: entry i is row i's, however the vector is stored
    // P A: apply the row swaps in order.
    Matrix<double> PA = A.clone();
    for (int64_t i = 0; i < n; ++i) {
      const int64_t r = piv.values()[static_cast<size_t>(i)];
      ASSERT_GE(r, i);
      for (int64_t j = 0; j < n; ++j) std::swap(PA(i, j), PA(r, j));
    }
    double err = 0, norm = 0;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double lu = 0;
        for (int64_t k = 0; k <= std::min(i, j); ++k) lu += (k == i ? 1.0 : LU(i, k)) * (k <= j ? LU(k, j) : 0.0);
        err += (PA(i, j) - lu) * (PA(i, j) - lu);
        norm += PA(i, j) * PA(i, j);
      }
    EXPECT_LT(std::sqrt(err / norm), 1e-12);
  }
}

TEST(Dense, SingularMatrixIsReported) {
  Matrix<double> A(3, 3, 1.0);  // rank one
  const std::string in = scratch_dir() + "/a.mtx";
  write_matrix_market(in, A);
  const RunResult r = run(program("std_lu") + " lu_factor --A " + in);
  EXPECT_EQ(r.status, 1) << r.output;  // a runtime error, not a usage error (2)
  EXPECT_NE(r.output.find("singular"), std::string::npos) << r.output;
}

// v[i] and A[i, j] read the stored entry; where none is stored, the run fails naming the read's place.
TEST(Dense, ElementReadsGiveTheStoredEntryOrFail) {
  const std::string graph = scratch_dir() + "/g.mtx", matrix = scratch_dir() + "/m.mtx";
  std::ofstream(graph) << "%%MatrixMarket matrix coordinate real general\n3 3 2\n2 3 5.5\n3 1 1.0\n";
  Matrix<double> M(3, 3, 0.0);
  M(1, 2) = 0.25;
  write_matrix_market(matrix, M);
  const std::string args = "--G " + graph + " --M " + matrix;
  EXPECT_EQ(read_text(run_ok("specs_dense", "read_entries", args + " --i 1 --j 2", "one.txt")), "5.75\n");
  const RunResult absent = run(program("specs_dense") + " read_entries " + args + " --i 0 --j 2");
  EXPECT_EQ(absent.status, 1) << absent.output;
  EXPECT_NE(absent.output.find("no entry at (0, 2)"), std::string::npos) << absent.output;
  EXPECT_NE(absent.output.find("dense.gql:"), std::string::npos) << absent.output;
  const RunResult outside = run(program("specs_dense") + " read_entries " + args + " --i 3 --j 0");
  EXPECT_EQ(outside.status, 2) << outside.output;
  EXPECT_NE(outside.output.find("is outside a 3 x 3 graph"), std::string::npos) << outside.output;

  EXPECT_EQ(read_text(run_ok("specs_dense", "read_vector", "--n 4 --i 1", "one.txt")), "6\n");  // 3 + 3 rounds
  const RunResult missing = run(program("specs_dense") + " read_vector --n 4 --i 2");
  EXPECT_EQ(missing.status, 1) << missing.output;
  EXPECT_NE(missing.output.find("the vector has no entry at 2"), std::string::npos) << missing.output;
}

// 2^32 x 2^32 once wrapped to 0 elements in int64 and the store wrote where the arguments chose.
TEST(Dense, DimensionsOutsideTheIndexTypesAreRefused) {
  for (const char* kernel : {"sized", "sized_graph"}) {
    SCOPED_TRACE(kernel);
    for (const char* args : {"--rows 4294967296 --cols 4294967296", "--rows 1 --cols 4294967296", "--rows -1 --cols 2"}) {
      const RunResult r = run(program("specs_dense") + " " + kernel + " " + args);
      EXPECT_EQ(r.status, 2) << args << ": " << r.output;
      EXPECT_NE(r.output.find("is outside 0 .. 2^31"), std::string::npos) << args << ": " << r.output;
    }
    EXPECT_EQ(read_text(run_ok("specs_dense", kernel, "--rows 3 --cols 2", "one.txt")), "1\n");
  }
}

// Dimensions within the index types may still ask for more memory than there is: 2^31 x 2^31 values
// were an internal error (std::length_error), 2^31 rows of a graph 16 GiB of row offsets allocated
// whatever the memory. Each is refused before it is allocated, saying what asked (under a 1 GiB cap,
// so that the test asks the same of any machine).
TEST(Dense, ContainersLargerThanMemoryAreRefused) {
  const std::string capped = "GQL_HOST_MEMORY_LIMIT=1G " + program("specs_dense");
  const std::pair<const char*, const char*> cases[] = {
      {"sized --rows 2147483648 --cols 2147483648",
       "a 2147483648 x 2147483648 matrix of 8-byte values needs more than 2^64 bytes"},
      {"sized --rows 65536 --cols 65536", "a 65536 x 65536 matrix of 8-byte values needs 32768 MiB"},
      {"sized_graph --rows 2147483648 --cols 1", "a graph of 2147483648 rows needs 16384 MiB"},
      {"sized_vector --n 2147483648", "a dense vector of 2147483648 values needs 16384 MiB"}};
  for (const auto& [args, says] : cases) {
    const RunResult r = run(capped + " " + args);
    EXPECT_EQ(r.status, 1) << args << ": " << r.output;
    EXPECT_NE(r.output.find(std::string("out of memory: ") + says), std::string::npos) << args << ": " << r.output;
  }
  EXPECT_EQ(read_text(run_ok("specs_dense", "sized_vector", "--n 3", "one.txt")), "1\n");
}

}  // namespace
}  // namespace gql::e2e
