// The pull product against the straightforward loop (for every j, fold con over the in-edges from
// present sources in order of k) on graphs large enough for the parallel paths, with rows and
// columns without edges: frontiers that cover their edges (no presence test), that miss one source,
// sparse ones and dense ones; with and without a mask; vxm and mxv. Semirings whose first term
// decides an entry (std/components.gql's start) against those that fold every term, on blocks of
// columns with no in-edges at all, and through the op's mask and replace.
#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "cpu_test_support.hpp"
#include "gql/cpu/ops.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/vxm.hpp"
#include "gql/swapped_operands.hpp"
#include "skewed_graph.hpp"

namespace {

using gql::Csr;
using gql::Vector;
using gql::cpu::Direction;
using gql::index_t;
using gql::offset_t;

using gql::test::entries;

// w(j) over the rows of GT (the in-edges of j), folding in order of k; settles as the semiring says.
template <class S, class TV, class TG>
std::vector<std::optional<typename S::value_type>> straightforward_pull(const Vector<TV>& v, const Csr<TG>& GT,
                                                                       const std::vector<bool>* allowed) {
  const auto present = entries(v);
  std::vector<std::optional<typename S::value_type>> out(static_cast<size_t>(GT.n_rows()));
  for (int64_t j = 0; j < GT.n_rows(); ++j) {
    if (allowed && !(*allowed)[static_cast<size_t>(j)]) continue;
    auto& acc = out[static_cast<size_t>(j)];
    for (offset_t p = GT.row_offsets()[static_cast<size_t>(j)]; p < GT.row_offsets()[static_cast<size_t>(j) + 1]; ++p) {
      const index_t k = GT.col_indices()[static_cast<size_t>(p)];
      if (!present[static_cast<size_t>(k)]) continue;
      const auto x = S::con(static_cast<typename S::a_type>(*present[static_cast<size_t>(k)]),
                            static_cast<typename S::b_type>(GT.value_at(p)), 0, k, j);
      acc = acc ? S::agg(*acc, x) : x;
    }
  }
  return out;
}

// A sparse vector with an entry at every k that `keep(k)` says, valued 1 + k / 7 (not exact in
// binary: sums depend on their order).
template <class Keep>
Vector<double> frontier_where(int64_t n, Keep&& keep) {
  gql::Array<index_t> idx;
  gql::Array<double> val;
  for (int64_t k = 0; k < n; ++k)
    if (keep(k)) {
      idx.push_back(static_cast<index_t>(k));
      val.push_back(1.0 + static_cast<double>(k) / 7.0);
    }
  return Vector<double>::sparse(n, std::move(idx), std::move(val));
}

struct PullCase {
  const char* name;
  Vector<double> v;
};

class PullProduct : public ::testing::Test {
 protected:
  static constexpr int64_t n = 100000;  // above the parallel grain
  PullProduct()
      : G(gql::test_support::skewed_graph<double>(n, 7, {5000, 100, 12})), GT(gql::cpu::transpose(G)) {}

  std::vector<PullCase> cases() const {
    const auto has_edges = [&](int64_t k) { return G.row_degree(k) > 0; };
    int64_t first_source = 0;
    while (!has_edges(first_source)) ++first_source;
    std::vector<PullCase> out;
    out.push_back({"covering (every row with edges)", frontier_where(n, has_edges)});
    out.push_back({"covering and more (every third row besides)",
                   frontier_where(n, [&](int64_t k) { return has_edges(k) || k % 3 == 0; })});
    out.push_back({"missing one source", frontier_where(n, [&](int64_t k) { return has_edges(k) && k != first_source; })});
    out.push_back({"sparse", frontier_where(n, [](int64_t k) { return k % 97 == 5; })});
    out.push_back({"empty", frontier_where(n, [](int64_t) { return false; })});
    out.push_back({"dense", Vector<double>::dense(n, 0.25)});
    return out;
  }

  Csr<double> G, GT;
};

TEST_F(PullProduct, MatchesTheStraightforwardLoop) {
  const auto covering = frontier_where(n, [&](int64_t k) { return G.row_degree(k) > 0; });
  ASSERT_LT(covering.nvals(), n) << "the graph should have rows without edges";
  std::vector<bool> allowed(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) allowed[static_cast<size_t>(j)] = j % 5 != 1;
  gql::Array<index_t> mask_idx;
  for (int64_t j = 0; j < n; ++j)
    if (allowed[static_cast<size_t>(j)]) mask_idx.push_back(static_cast<index_t>(j));
  const auto mask = Vector<bool>::sparse(n, mask_idx, gql::Array<uint8_t>(mask_idx.size(), 1));
  for (const auto& c : cases())
    for (bool masked : {false, true}) {
      const gql::cpu::VectorMask m = masked ? gql::cpu::VectorMask(mask) : gql::cpu::VectorMask{};
      const std::vector<bool>* a = masked ? &allowed : nullptr;
      gql::test::with_threads(2, [&] {
        const gql::cpu::DirectionOptions pull{Direction::pull, 15, 18};
        using Sum = gql::test::PlusTimes<double>;
        using Min = gql::test::MinPlus<double>;
        EXPECT_EQ(entries(gql::cpu::vxm<Sum>(c.v, G, &GT, m, pull)), (straightforward_pull<Sum>(c.v, GT, a)))
            << c.name << (masked ? ", masked" : "");
        EXPECT_EQ(entries(gql::cpu::vxm<Min>(c.v, G, &GT, m, pull)), (straightforward_pull<Min>(c.v, GT, a)))
            << c.name << (masked ? ", masked" : "");
        // G * v pulls over the rows of G: with the transpose (whose rows say which sources have
        // edges) and without it (only a dense v is known to cover).
        gql::cpu::DirectionChooser chooser(pull);
        EXPECT_EQ(entries(gql::cpu::mxv<Sum>(GT, &G, c.v, m, chooser)), (straightforward_pull<Sum>(c.v, GT, a)))
            << c.name << (masked ? ", masked" : "") << ", mxv";
        EXPECT_EQ(entries(gql::cpu::mxv<Sum>(GT, c.v, static_cast<const Csr<double>*>(nullptr), m)), (straightforward_pull<Sum>(c.v, GT, a)))
            << c.name << (masked ? ", masked" : "") << ", mxv without the transpose";
      });
    }
}

TEST_F(PullProduct, AnyPairSettlesOnEveryFrontier) {
  for (const auto& c : cases()) {
    const auto v = gql::cpu::vxm<gql::test::AnyPair>(c.v, G, &GT, {}, gql::cpu::DirectionOptions{Direction::pull, 15, 18});
    EXPECT_EQ(entries(v), (straightforward_pull<gql::test::AnyPair>(c.v, GT, nullptr))) << c.name;
  }
}

// std/components.gql's start (`G * every over own_id`), with j besides i so that vxm's entries differ
// too: con reads neither an operand nor k and agg is min, so the first term decides each entry.
struct OwnPosition : gql::test::PolicyShape<bool, bool, int64_t, gql::Monoid::min, false, true, true> {
  static constexpr bool con_reads_k = false;
  static int64_t con(bool, bool, long long i, long long, long long j) { return i * 1000003 + j; }
  static int64_t agg(int64_t x, int64_t y) { return y < x ? y : x; }
  static int64_t zero() { return std::numeric_limits<int64_t>::max(); }
  static int64_t terminal() { return std::numeric_limits<int64_t>::lowest(); }
};
static_assert(gql::cpu::first_term_decides<OwnPosition> && gql::cpu::first_term_decides<gql::cpu::SwappedOperands<OwnPosition>>);

// The same con under sum: every term counts (the in-degree, scaled).
struct SumPosition : gql::test::PolicyShape<bool, bool, int64_t, gql::Monoid::sum, false, true> {
  static constexpr bool con_reads_k = false;
  static int64_t con(bool, bool, long long i, long long, long long j) { return i * 1000003 + j; }
  static int64_t agg(int64_t x, int64_t y) { return x + y; }
  static int64_t zero() { return 0; }
  static int64_t terminal() { return 0; }
};

using MinPlus = gql::test::MinPlus<double>;  // con reads the vector's value (and the graph's)
static_assert(!gql::cpu::first_term_decides<MinPlus> && !gql::cpu::first_term_decides<SumPosition> &&
              !gql::cpu::first_term_decides<gql::test::MinPosition>);

// A symmetric graph over three blocks of columns and a few vertices more: isolated vertices in the
// first block, none with an edge in the second, pairs in the third, none in the last 100.
Csr<double> blocks_with_isolated_vertices() {
  constexpr int64_t block = gql::cpu::detail::column_block, n = 3 * block + 100;
  std::set<std::pair<index_t, index_t>> edges;
  const auto link = [&](int64_t u, int64_t v) {
    edges.insert({static_cast<index_t>(u), static_cast<index_t>(v)});
    edges.insert({static_cast<index_t>(v), static_cast<index_t>(u)});
  };
  for (int64_t u = 0; u < block; ++u)
    if (u % 3 != 0 && (u * 7 + 3) % block % 3 != 0) link(u, (u * 7 + 3) % block);
  for (int64_t u = 2 * block; u < 3 * block; u += 2)
    if (u % 5 != 0) link(u, u + 1);
  gql::Array<offset_t> offsets(static_cast<size_t>(n) + 1, 0);
  gql::Array<index_t> cols;
  gql::Array<double> vals;
  for (const auto& [u, v] : edges) {
    ++offsets[static_cast<size_t>(u) + 1];
    cols.push_back(v);
    vals.push_back(1.0 + static_cast<double>(v % 4));
  }
  for (int64_t u = 0; u < n; ++u) offsets[static_cast<size_t>(u) + 1] += offsets[static_cast<size_t>(u)];
  Csr<double> g(n, n, std::move(offsets), std::move(cols), std::move(vals));
  g.validate();
  return g;
}

// v * G and G * v over S, pulled, against the straightforward loop: G * v is v * G' with con's
// operands swapped (gql/swapped_operands.hpp), folded over the rows of G.
template <class S, class TV>
void expect_pulls_match(const Vector<TV>& v, const Csr<double>& G, const Csr<double>& GT,
                        const gql::cpu::VectorMask& m, const std::vector<bool>* allowed, const std::string& what) {
  const gql::cpu::DirectionOptions pull{Direction::pull, 15, 18};
  EXPECT_EQ(entries(gql::cpu::vxm<S>(v, G, &GT, m, pull)), (straightforward_pull<S>(v, GT, allowed))) << what << ", vxm";
  gql::cpu::DirectionChooser chooser(pull);
  const auto by_rows = straightforward_pull<gql::cpu::SwappedOperands<S>>(v, G, allowed);
  EXPECT_EQ(entries(gql::cpu::mxv<S>(G, &GT, v, m, chooser)), by_rows) << what << ", mxv";
  EXPECT_EQ(entries(gql::cpu::mxv<S>(G, v, static_cast<const Csr<double>*>(nullptr), m)), by_rows)
      << what << ", mxv without the transpose";
}

TEST(PullFirstTerm, EveryColumnWithInEdgesAsTheLoopFoldsIt) {
  const auto skewed = gql::test_support::skewed_graph<double>(100000, 7, {5000, 100, 12});  // directed
  const auto isolated = blocks_with_isolated_vertices();
  for (const Csr<double>* G : {&skewed, &isolated}) {
    const Csr<double> GT = gql::cpu::transpose(*G);
    const int64_t n = G->n_rows();
    int64_t empty_rows = 0, empty_columns = 0;
    for (int64_t j = 0; j < n; ++j) {
      empty_rows += G->row_degree(j) == 0;
      empty_columns += GT.row_degree(j) == 0;
    }
    ASSERT_GT(empty_rows, 0);
    ASSERT_GT(empty_columns, 0);
    std::vector<bool> allowed(static_cast<size_t>(n));
    gql::Array<index_t> mask_idx;
    for (int64_t j = 0; j < n; ++j)
      if ((allowed[static_cast<size_t>(j)] = j % 5 != 1)) mask_idx.push_back(static_cast<index_t>(j));
    const auto mask = Vector<bool>::sparse(n, mask_idx, gql::Array<uint8_t>(mask_idx.size(), 1));
    const auto every = Vector<bool>::dense(n, true);  // std/components.gql's `every`
    const auto labels = frontier_where(n, [&](int64_t k) { return G->row_degree(k) > 0 || GT.row_degree(k) > 0; });
    for (int threads : {1, 2})
      for (bool masked : {false, true}) {
        const gql::cpu::VectorMask m = masked ? gql::cpu::VectorMask(mask) : gql::cpu::VectorMask{};
        const std::vector<bool>* a = masked ? &allowed : nullptr;
        const std::string what = std::string(G == &skewed ? "directed" : "isolated vertices") + ", " +
                                 std::to_string(threads) + " threads" + (masked ? ", masked" : "");
        gql::test::with_threads(threads, [&] {
          expect_pulls_match<OwnPosition>(every, *G, GT, m, a, what + ", own position");
          expect_pulls_match<SumPosition>(every, *G, GT, m, a, what + ", summed positions");
          expect_pulls_match<gql::test::MinPosition>(every, *G, GT, m, a, what + ", con reads k");
          expect_pulls_match<MinPlus>(labels, *G, GT, m, a, what + ", con reads the vector");
          expect_pulls_match<OwnPosition>(labels, *G, GT, m, a, what + ", own position from a sparse vector");
        });
      }
  }
}

// The op as generated code calls it: label<mask, replace> = G * every over own_position, written over
// an old vector as GraphBLAS's assignment says.
TEST(PullFirstTerm, TheOpThroughMaskAndReplace) {
  const auto G = blocks_with_isolated_vertices();
  const int64_t n = G.n_rows();
  const auto every = Vector<bool>::dense(n, true);
  const auto product = straightforward_pull<gql::cpu::SwappedOperands<OwnPosition>>(every, G, nullptr);
  gql::Array<index_t> old_idx, mask_idx;
  gql::Array<int64_t> old_val;
  for (int64_t j = 0; j < n; ++j) {
    if (j % 3 == 0) {
      old_idx.push_back(static_cast<index_t>(j));
      old_val.push_back(-j);
    }
    if (j % 4 != 1) mask_idx.push_back(static_cast<index_t>(j));
  }
  const auto old = Vector<int64_t>::sparse(n, std::move(old_idx), std::move(old_val));
  const auto mask = Vector<bool>::sparse(n, mask_idx, gql::Array<uint8_t>(mask_idx.size(), 1));
  for (bool masked : {false, true})
    for (bool replace : {false, true}) {
      const auto before = entries(old);
      std::vector<std::optional<int64_t>> want(static_cast<size_t>(n));
      for (size_t j = 0; j < want.size(); ++j)
        want[j] = !masked || j % 4 != 1 ? product[j] : replace ? std::nullopt : before[j];
      const gql::cpu::VectorMask m = masked ? gql::cpu::VectorMask(mask) : gql::cpu::VectorMask{};
      for (const Direction direction : {Direction::automatic, Direction::pull}) {
        Vector<int64_t> w = old.clone();
        gql::KernelContext ctx(false);
        gql::cpu::mxv<OwnPosition>(w, m, replace, G, every, gql::cpu::TraversalOptions{direction, 15, 18, 0, "label"}, ctx);
        EXPECT_EQ(entries(w), want) << (masked ? "masked" : "no mask") << (replace ? ", replace" : "")
                                    << (direction == Direction::pull ? ", pull" : ", automatic");
      }
    }
}

}  // namespace
