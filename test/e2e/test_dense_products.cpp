// Products with a dense matrix operand end to end (specs/dense_products.gql): every pairing the
// language allows against the plainest loops, integers exactly and floats to a relative 1e-9, and
// the stdlib's apsp on a graph file read with --fill.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <random>
#include <type_traits>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

constexpr int64_t kInf = std::numeric_limits<int64_t>::max();

// A random dense matrix; its values from `draw`.
template <class T, class Draw>
Matrix<T> random_matrix(int64_t rows, int64_t cols, uint32_t seed, Draw draw) {
  std::mt19937 rng(seed);
  Matrix<T> m(rows, cols);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j) m(i, j) = static_cast<storage_t<T>>(draw(rng));
  return m;
}

Matrix<int64_t> small_integers(int64_t rows, int64_t cols, uint32_t seed) {
  return random_matrix<int64_t>(rows, cols, seed, [](std::mt19937& r) { return std::uniform_int_distribution<int>(-20, 50)(r); });
}
Matrix<double> unit_reals(int64_t rows, int64_t cols, uint32_t seed) {
  return random_matrix<double>(rows, cols, seed, [](std::mt19937& r) { return std::uniform_real_distribution<double>(0, 1)(r); });
}

// A random sparse graph with a row left empty, values from `draw`.
template <class T, class Draw>
Csr<T> random_graph(int64_t rows, int64_t cols, double density, uint32_t seed, Draw draw) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> coin(0, 1);
  Csr<T> g(rows, cols);
  for (int64_t i = 1; i < rows; ++i)  // row 0 stays empty
    for (int64_t j = 0; j < cols; ++j)
      if (coin(rng) < density) g.set_entry(i, j, static_cast<storage_t<T>>(draw(rng)));
  return g;
}

// C(i, j) = agg over the k where both have an entry of con(a, b, i, k, j); `zero` where none does.
template <class V, class Left, class Right, class Con, class Agg>
Matrix<V> reference(int64_t m, int64_t p, int64_t q, Left left, Right right, Con con, Agg agg, V zero) {
  Matrix<V> C(m, q, zero);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < q; ++j) {
      std::optional<V> acc;
      for (int64_t k = 0; k < p; ++k) {
        const auto a = left(i, k);
        const auto b = right(k, j);
        if (!a || !b) continue;
        const V x = con(*a, *b, i, k, j);
        acc = acc ? agg(*acc, x) : x;
      }
      if (acc) C(i, j) = *acc;
    }
  return C;
}

// A dense matrix's entry (always there) and a graph's (there or not), as reference() reads them.
template <class T>
auto entries_of(const Matrix<T>& m) {
  return [&m](int64_t i, int64_t j) { return std::optional<T>(m(i, j)); };
}
template <class T>
auto entries_of(const Csr<T>& g) {
  return [&g](int64_t i, int64_t j) -> std::optional<T> {
    for (offset_t p = g.row_offsets()[i]; p < g.row_offsets()[i + 1]; ++p)
      if (g.col_indices()[p] == j) return g.value_at(p);
    return std::nullopt;
  };
}

template <class T>
void expect_near(const Matrix<T>& expected, const Matrix<T>& got) {
  ASSERT_EQ(expected.n_rows(), got.n_rows());
  ASSERT_EQ(expected.n_cols(), got.n_cols());
  int reported = 0;
  for (int64_t i = 0; i < expected.n_rows() && reported < 10; ++i)
    for (int64_t j = 0; j < expected.n_cols() && reported < 10; ++j) {
      const double e = static_cast<double>(expected(i, j)), g = static_cast<double>(got(i, j));
      const bool same = std::is_integral_v<T> || std::isinf(e) ? e == g : std::abs(e - g) <= 1e-9 * std::max(1.0, std::abs(e));
      if (!same) {
        ADD_FAILURE() << "(" << i << ", " << j << "): expected " << e << ", got " << g;
        ++reported;
      }
    }
}

// Writes each input to the test's folder as Matrix Market; returns the program's arguments.
class Inputs {
 public:
  template <class X>
  Inputs& add(const std::string& name, const X& x) {
    const std::string path = scratch_dir() + "/" + name + ".mtx";
    write_matrix_market(path, x);
    args_ += " --" + name + " " + path;
    return *this;
  }
  const std::string& args() const { return args_; }

 private:
  std::string args_;
};

const auto plus = [](auto x, auto y) { return x + y; };
const auto times = [](auto x, auto y) { return x * y; };
const auto minimum = [](auto x, auto y) { return std::min(x, y); };

TEST(DenseProducts, MatrixTimesMatrix) {
  // 70 x 45 x 37: no dimension a multiple of the register tile or the cache block.
  const auto A = small_integers(70, 45, 1), B = small_integers(45, 37, 2);
  const std::string args = Inputs().add("A", A).add("B", B).args();
  const auto read = [&](const char* kernel) { return read_matrix<int64_t>(run_ok("specs_dense_products", kernel, args)); };
  const auto product = [](auto x, auto y, int64_t, int64_t, int64_t) { return x * y; };
  const auto sum = [](auto x, auto y, int64_t, int64_t, int64_t) { return x + y; };
  const auto via_k = [](auto x, auto y, int64_t, int64_t k, int64_t) { return x + y + k; };
  expect_near(reference<int64_t>(70, 45, 37, entries_of(A), entries_of(B), product, plus, int64_t{0}),
              read("mm_plus_times_i64"));
  expect_near(reference<int64_t>(70, 45, 37, entries_of(A), entries_of(B), sum, minimum, kInf), read("mm_min_plus"));
  expect_near(reference<int64_t>(70, 45, 37, entries_of(A), entries_of(B), via_k, minimum, kInf), read("mm_via_k"));
}

TEST(DenseProducts, FloatMatrixTimesMatrixByBlasAndAUserAgg) {
  const auto A = unit_reals(33, 50, 3), B = unit_reals(50, 21, 4);
  const std::string args = Inputs().add("A", A).add("B", B).args();
  const auto product = [](double x, double y, int64_t, int64_t, int64_t) { return x * y; };
  expect_near(reference<double>(33, 50, 21, entries_of(A), entries_of(B), product, plus, 0.0),
              read_matrix<double>(run_ok("specs_dense_products", "mm_plus_times", args)));
  const auto noisy_or = [](double x, double y) { return x + y - x * y; };
  expect_near(reference<double>(33, 50, 21, entries_of(A), entries_of(B), product, noisy_or, 0.0),
              read_matrix<double>(run_ok("specs_dense_products", "mm_noisy_or", args)));
}

TEST(DenseProducts, BoolMatricesCountedIntoAnotherType) {
  const auto coin = [](std::mt19937& r) { return std::uniform_int_distribution<int>(0, 3)(r) == 0; };
  const auto A = random_matrix<bool>(20, 30, 5, coin), B = random_matrix<bool>(30, 25, 6, coin);
  const std::string args = Inputs().add("A", A).add("B", B).args();
  // A dense bool matrix has an entry everywhere: count counts every k, whatever the values.
  const auto one = [](bool, bool, int64_t, int64_t, int64_t) { return uint64_t{1}; };
  expect_near(reference<uint64_t>(20, 30, 25, entries_of(A), entries_of(B), one, plus, uint64_t{0}),
              read_matrix<uint64_t>(run_ok("specs_dense_products", "mm_count", args)));
}

TEST(DenseProducts, GraphAndMatrixEitherWay) {
  const auto weight = [](std::mt19937& r) { return std::uniform_int_distribution<int>(1, 9)(r); };
  const auto G = random_graph<int64_t>(40, 40, 0.1, 7, weight);
  const auto M = small_integers(40, 40, 8);
  const auto sum = [](auto x, auto y, int64_t, int64_t, int64_t) { return x + y; };
  const auto via_k = [](auto x, auto y, int64_t, int64_t k, int64_t) { return x + y + k; };
  // Row 0 of G is empty: row 0 of G * M holds min_plus's zero (the largest i64).
  expect_near(reference<int64_t>(40, 40, 40, entries_of(G), entries_of(M), sum, minimum, kInf),
              read_matrix<int64_t>(run_ok("specs_dense_products", "gm_min_plus", Inputs().add("G", G).add("B", M).args())));
  expect_near(reference<int64_t>(40, 40, 40, entries_of(M), entries_of(G), via_k, minimum, kInf),
              read_matrix<int64_t>(run_ok("specs_dense_products", "mg_via_k", Inputs().add("A", M).add("G", G).args())));
  const auto Gf = random_graph<double>(30, 30, 0.2, 9, [](std::mt19937& r) { return std::uniform_real_distribution<double>(0, 1)(r); });
  const auto Mf = unit_reals(30, 30, 10);
  const auto product = [](double x, double y, int64_t, int64_t, int64_t) { return x * y; };
  expect_near(reference<double>(30, 30, 30, entries_of(Mf), entries_of(Gf), product, plus, 0.0),
              read_matrix<double>(run_ok("specs_dense_products", "mg_plus_times", Inputs().add("A", Mf).add("G", Gf).args())));
}

TEST(DenseProducts, MatrixAndVectorEitherWayWithAMask) {
  const auto A = small_integers(30, 20, 11);
  auto v = Vector<int64_t>(20);
  for (int64_t k : {1, 4, 9, 19}) v.set_entry(k, k * 3 - 20);
  // w(i) = min over the entries v(k) of A(i, k) + v(k).
  const auto expected_mxv = [&](int64_t i) {
    int64_t best = kInf;
    for (size_t e = 0; e < v.indices().size(); ++e) best = std::min(best, A(i, v.indices()[e]) + v.values()[e]);
    return best;
  };
  auto mask = Vector<bool>(30);
  for (int64_t i : {0, 7, 29}) mask.set_entry(i, true);
  const Vector<int64_t> masked =
      read_vector<int64_t>(run_ok("specs_dense_products", "mv_masked", Inputs().add("A", A).add("v", v).add("m", mask).args()));
  ASSERT_EQ(masked.size(), 30);
  ASSERT_EQ(masked.nvals(), 30) << "every position holds the product or the kept -1";
  for (int64_t i = 0; i < 30; ++i)
    EXPECT_EQ(masked.values()[i], i == 0 || i == 7 || i == 29 ? -1 : expected_mxv(i)) << "w(" << i << ")";

  const auto B = small_integers(20, 15, 12);
  const Vector<int64_t> w = read_vector<int64_t>(run_ok("specs_dense_products", "vm_min_plus", Inputs().add("v", v).add("A", B).args()));
  ASSERT_EQ(w.size(), 15);
  ASSERT_EQ(w.nvals(), 15);
  for (int64_t j = 0; j < 15; ++j) {
    int64_t best = kInf;
    for (size_t e = 0; e < v.indices().size(); ++e) best = std::min(best, v.values()[e] + B(v.indices()[e], j));
    EXPECT_EQ(w.values()[j], best) << "w(" << j << ")";
  }

  // An empty vector gives an empty product, as GraphBLAS defines it.
  const Vector<double> none = read_vector<double>(
      run_ok("specs_dense_products", "mv_plus_times", Inputs().add("A", unit_reals(5, 4, 13)).add("v", Vector<double>(4)).args()));
  EXPECT_EQ(none.size(), 5);
  EXPECT_EQ(none.nvals(), 0);
}

TEST(DenseProducts, DenseOfAGraphHoldsItsFillWhereThereIsNoEdge) {
  const auto G = random_graph<double>(25, 25, 0.15, 14, [](std::mt19937& r) { return std::uniform_real_distribution<double>(1, 5)(r); });
  const std::string args = Inputs().add("G", G).args();
  const auto inf = std::numeric_limits<double>::infinity();
  Matrix<double> D(25, 25, inf);
  for (int64_t i = 0; i < 25; ++i)
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p) D(i, G.col_indices()[p]) = G.value_at(p);
  expect_near(D, read_matrix<double>(run_ok("specs_dense_products", "densified", args)));
  const auto sum = [](double x, double y, int64_t, int64_t, int64_t) { return x + y; };
  expect_near(reference<double>(25, 25, 25, entries_of(D), entries_of(D), sum, minimum, inf),
              read_matrix<double>(run_ok("specs_dense_products", "two_hops", args)));
}

// The stdlib's apsp on a graph file: --fill inf makes the missing edges infinitely long, and a path
// of no edges costs 0, so the result is the shortest distances.
TEST(DenseProducts, ApspOfAGraphFileGivesShortestDistances) {
  const auto G = random_graph<float>(40, 40, 0.08, 15, [](std::mt19937& r) { return std::uniform_int_distribution<int>(1, 20)(r); });
  const std::string in = scratch_dir() + "/g.mtx";
  write_matrix_market(in, G);
  const float inf = std::numeric_limits<float>::infinity();
  Matrix<float> expected(40, 40, inf);
  for (int64_t i = 0; i < 40; ++i) {
    expected(i, i) = 0;
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p)
      expected(i, G.col_indices()[p]) = std::min(expected(i, G.col_indices()[p]), G.value_at(p));
  }
  for (int64_t k = 0; k < 40; ++k)
    for (int64_t i = 0; i < 40; ++i)
      for (int64_t j = 0; j < 40; ++j) expected(i, j) = std::min(expected(i, j), expected(i, k) + expected(k, j));
  expect_near(expected, read_matrix<float>(run_ok("std_apsp", "apsp", "--D " + in + " --fill inf")));

  // Without a stated fill a sparse file is refused: no value is right for every kernel.
  const RunResult refused = run(program("std_apsp") + " apsp --D " + in);
  EXPECT_EQ(refused.status, 2) << refused.output;
  EXPECT_NE(refused.output.find("--fill"), std::string::npos) << refused.output;
}

}  // namespace
}  // namespace gql::e2e
