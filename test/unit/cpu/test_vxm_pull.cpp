// The pull product against the straightforward loop (for every j, fold con over the in-edges from
// present sources in order of k) on graphs large enough for the parallel paths, with rows and
// columns without edges: frontiers that cover their edges (no presence test), that miss one source,
// sparse ones and dense ones; with and without a mask; vxm and mxv.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "cpu_test_support.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/vxm.hpp"
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

}  // namespace
