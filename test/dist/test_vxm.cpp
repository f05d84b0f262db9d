// vxm, mxv and a union with a fused vxm over the ranks (gql/dist/vxm.hpp) against the one-process
// ops: the same entries and the same bits (floating-point sums folded in the same order), pushing and
// pulling, dense and sparse frontiers, through a mask and its complement with and without replace, on
// generated graphs of more columns than a pull's block and fewer than the ranks, and on a real graph.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "dist_test.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/dist/vxm.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "gql/kernel_context.hpp"
#include "reference_semirings.hpp"

namespace gql::dist_test {
namespace {

using common::Direction;
using reference_semirings::MinPlus;
using reference_semirings::PlusTimes;

// PageRank's spread: each in-link's share, summed in f64 (order-sensitive: the bits tell the order).
struct Spread : reference_semirings::PolicyShape<double, bool, double, Monoid::sum> {
  static double con(double a, bool, long long, long long, long long) { return a; }
  static double agg(double x, double y) { return x + y; }
  static double zero() { return 0; }
  static double terminal() { return 0; }
};
// The same from the other side, for mxv: G(i, k) con v(k) = v(k).
struct Gathered : reference_semirings::PolicyShape<bool, double, double, Monoid::sum> {
  static double con(bool, double b, long long, long long, long long) { return b; }
  static double agg(double x, double y) { return x + y; }
  static double zero() { return 0; }
  static double terminal() { return 0; }
};

ReadOptions symmetric() {
  ReadOptions o;
  o.symmetrize = true;
  return o;
}

// Values that make a sum's order visible in its last bits.
Vector<double> dense_values(int64_t n) {
  Array<double> values(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) values[static_cast<size_t>(k)] = 1.0 / static_cast<double>(3 + k % 97) + 1e-3 * k;
  return Vector<double>::dense(n, std::move(values));
}

// Every `stride`-th index, from `first`.
Vector<double> sparse_values(int64_t n, int64_t stride, int64_t first) {
  Array<index_t> idx;
  Array<double> val;
  for (int64_t k = first; k < n; k += stride) {
    idx.push_back(static_cast<index_t>(k));
    val.push_back(0.5 + static_cast<double>(k % 11));
  }
  return Vector<double>::sparse(n, std::move(idx), std::move(val));
}

Vector<bool> every_third(int64_t n) {
  Array<index_t> idx;
  for (int64_t k = 0; k < n; k += 3) idx.push_back(static_cast<index_t>(k));
  return Vector<bool>::sparse(n, idx, Array<uint8_t>(idx.size(), 1));
}

const char* direction_name(Direction d) {
  return d == Direction::push ? "push" : d == Direction::pull ? "pull" : "automatic";
}

// w<mask, replace> = v * G over S and G * v over SM (and the union with a fused vxm) over the ranks
// and in one process, from the same old w, under every direction and mask form.
template <class S, class SM, class TG>
void expect_ops_match(const Csr<TG>& G, const Vector<typename S::a_type>& v, const std::string& what) {
  using V = typename S::value_type;
  const int64_t n = G.n_rows();
  const auto mask = every_third(n);
  const auto old = sparse_values(n, 5, 1);
  const dist::PullOverRanks over_ranks(world());
  const auto plus = [](V a, V b) { return a + b; };
  const auto read = [](V x) { return x; };
  for (const Direction direction : {Direction::push, Direction::pull, Direction::automatic})
    for (int form = 0; form < 3; ++form)
      for (bool replace : {false, true}) {
        const cpu::VectorMask m = form == 0   ? cpu::VectorMask{}
                                  : form == 1 ? cpu::VectorMask(mask)
                                              : cpu::VectorMask(mask, /*complement=*/true);
        const std::string how = what + ", " + direction_name(direction) + ", mask form " + std::to_string(form) +
                                (replace ? ", replace" : "");
        const cpu::TraversalOptions options{direction, 15, 18, 0, "op"};
        KernelContext ours(false), theirs(false);
        Vector<V> got = old.clone(), want = old.clone();
        cpu::vxm<S>(got, m, replace, v, G, options, ours, over_ranks);
        cpu::vxm<S>(want, m, replace, v, G, options, theirs);
        expect_same(got, want, how + ", vxm");
        got = old.clone();
        want = old.clone();
        cpu::mxv<SM>(got, m, replace, G, v, options, ours, over_ranks);
        cpu::mxv<SM>(want, m, replace, G, v, options, theirs);
        expect_same(got, want, how + ", mxv");
        if (form != 0) continue;  // a fused product has no mask of its own
        const auto d = dense_values(n);
        cpu::union_vxm<S, true>(got, cpu::VectorMask{}, false, d, v, G, options, ours, plus, read, read, over_ranks);
        cpu::union_vxm<S, true>(want, cpu::VectorMask{}, false, d, v, G, options, theirs, plus, read, read);
        expect_same(got, want, how + ", union with a fused vxm");
      }
}

TEST(DistVxm, PullColumnsCoverEveryColumnInRankOrder) {
  const auto G = generate_graph<bool>("kron:10", symmetric());
  const int64_t n = G.n_rows(), total = G.nvals() + n;
  const auto offsets = G.row_offsets();
  for (int ranks = 1; ranks <= 7; ++ranks) {
    int64_t next = 0, largest_column = 0;
    for (int64_t j = 0; j < n; ++j)
      largest_column = std::max<int64_t>(largest_column, offsets[static_cast<size_t>(j) + 1] - offsets[static_cast<size_t>(j)] + 1);
    for (int r = 0; r < ranks; ++r) {
      const auto range = dist::pull_columns(G, ranks, r);
      EXPECT_EQ(range.begin, next) << ranks << " ranks, rank " << r;
      EXPECT_LE(range.begin, range.end);
      const int64_t cost = offsets[static_cast<size_t>(range.end)] + range.end - offsets[static_cast<size_t>(range.begin)] - range.begin;
      EXPECT_LE(cost, total / ranks + largest_column + 1) << ranks << " ranks, rank " << r;
      next = range.end;
    }
    EXPECT_EQ(next, n);
  }
}

TEST(DistVxm, DirectedGraphBitForBit) {
  // More columns than a pull's block (4096): ranges start inside blocks.
  const auto G = generate_graph<bool>("kron:13");
  expect_ops_match<Spread, Gathered>(G, dense_values(G.n_rows()), "kron:13, dense frontier");
  expect_ops_match<Spread, Gathered>(G, sparse_values(G.n_rows(), 7, 2), "kron:13, sparse frontier");
}

TEST(DistVxm, WeightedGraphs) {
  const auto G = generate_graph<double>("urand:12:6");
  expect_ops_match<PlusTimes<double>, PlusTimes<double>>(G, dense_values(G.n_rows()), "urand:12:6 plus_times");
  expect_ops_match<MinPlus<double>, MinPlus<double>>(G, sparse_values(G.n_rows(), 3, 0), "urand:12:6 min_plus");
}

TEST(DistVxm, FewerColumnsThanRanks) {
  // Two vertices and an edge each way: with three ranks, one pulls no column.
  const auto G = Csr<double>(2, 2, Array<offset_t>{0, 1, 2}, Array<index_t>{1, 0}, Array<double>{2.0, 3.0});
  expect_ops_match<PlusTimes<double>, PlusTimes<double>>(G, dense_values(2), "2 vertices");
}

TEST(DistVxm, RealGraph) {
  if (!have_shared_data()) GTEST_SKIP() << "no shared data at " GQL_SHARED_DATA_DIR;
  const auto G = read_graph<bool>(data_graph("ca-GrQc.csv"), symmetric());
  expect_ops_match<Spread, Gathered>(G, dense_values(G.n_rows()), "ca-GrQc");
}

}  // namespace
}  // namespace gql::dist_test
