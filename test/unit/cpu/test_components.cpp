// cpu::component_labels against the loop it stands for, run literally (min-label propagation until
// nothing changes), and its refusals: a graph whose structure is not symmetric, labels that do not sit
// exactly at the rows with edges.
#include <gtest/gtest.h>

#include <random>

#include "cpu_test_support.hpp"
#include "gql/cpu/components.hpp"
#include "gql/generate.hpp"

namespace {

using gql::Csr;
using gql::Vector;

// The loop as std/components.gql writes it, over slots (present flag, value).
template <class TG, class L>
std::vector<std::pair<bool, L>> propagate(const Csr<TG>& G, std::vector<std::pair<bool, L>> label) {
  for (bool changed = true; changed;) {
    changed = false;
    auto next = label;
    for (int64_t i = 0; i < G.n_rows(); ++i)
      for (gql::offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p) {
        const auto& [present, value] = label[static_cast<size_t>(G.col_indices()[p])];
        auto& mine = next[static_cast<size_t>(i)];
        if (present && (!mine.first || value < mine.second)) mine = {true, value};
      }
    for (size_t v = 0; v < label.size(); ++v) changed = changed || (label[v].first && label[v].second != next[v].second);
    label = std::move(next);
  }
  return label;
}

template <class L>
std::vector<std::pair<bool, L>> slots(const Vector<L>& v) {
  std::vector<std::pair<bool, L>> out(static_cast<size_t>(v.size()), {false, L{}});
  for (int64_t p = 0; p < v.nvals(); ++p) {
    const int64_t i = v.is_dense() ? p : v.indices()[static_cast<size_t>(p)];
    out[static_cast<size_t>(i)] = {true, v.values()[static_cast<size_t>(p)]};
  }
  return out;
}

// Random labels at exactly the rows with edges (every vertex: a dense vector when all have edges).
template <class L, class TG>
Vector<L> labels_at_rows(const Csr<TG>& G, uint32_t seed, bool dense_when_full = true) {
  std::mt19937 draw(seed);
  std::uniform_int_distribution<int64_t> value(std::is_signed_v<L> ? -100 : 0, 100);
  gql::Array<gql::index_t> idx;
  gql::Array<L> val;
  for (int64_t i = 0; i < G.n_rows(); ++i)
    if (G.row_degree(i) > 0) {
      idx.push_back(static_cast<gql::index_t>(i));
      val.push_back(static_cast<L>(value(draw)));
    }
  if (dense_when_full && static_cast<int64_t>(idx.size()) == G.n_rows()) return Vector<L>::dense(G.n_rows(), std::move(val));
  return Vector<L>::sparse(G.n_rows(), std::move(idx), std::move(val));
}

// Each vertex's own id at exactly the rows with edges, as std/components.gql starts (a dense vector
// when all have edges); with `changed`, the first label one more than its id.
template <class L, class TG>
Vector<L> own_ids_at_rows(const Csr<TG>& G, bool changed = false) {
  Vector<L> labels = labels_at_rows<L>(G, 0);
  const auto values = labels.values();
  for (size_t p = 0; p < values.size(); ++p)
    values[p] = static_cast<L>(labels.is_dense() ? static_cast<int64_t>(p) : labels.indices()[p]);
  if (changed && !values.empty()) values[0] = static_cast<L>(values[0] + 1);
  return labels;
}

template <class L, class TG>
void expect_the_loops_labels(const Csr<TG>& G, const Vector<L>& start) {
  for (int threads : {1, 3})
    gql::test::with_threads(threads, [&] {
      Vector<L> labels = start.clone();
      const auto expected = propagate(G, slots(labels));
      gql::cpu::TraversalStats stats;
      ASSERT_TRUE(gql::cpu::component_labels(G, labels, &stats));
      EXPECT_EQ(slots(labels), expected);
      EXPECT_GT(stats.edges_examined, 0);
    });
}

template <class L, class TG>
void expect_the_loops_labels(const Csr<TG>& G, uint32_t seed) {
  expect_the_loops_labels(G, labels_at_rows<L>(G, seed));
}

gql::ReadOptions undirected() {
  gql::ReadOptions r;
  r.symmetrize = true;
  return r;
}

TEST(ComponentLabels, EqualTheLoopOnSymmetricGraphs) {
  const auto kron = gql::kronecker<bool>({.scale = 11, .edge_factor = 4}, undirected());  // isolated vertices, hubs
  const auto sparse = gql::urand<bool>({.scale = 12, .edge_factor = 1}, undirected());     // many components
  const auto grid = gql::grid<bool>(13, 17);                                               // every vertex, one component
  expect_the_loops_labels<int64_t>(kron, 1);
  expect_the_loops_labels<int32_t>(sparse, 2);
  expect_the_loops_labels<uint16_t>(sparse, 3);
  expect_the_loops_labels<int8_t>(grid, 4);
  expect_the_loops_labels<uint64_t>(kron, 5);
}

// Labels that start at their own ids take their roots' ids; one label off its id takes the general way.
TEST(ComponentLabels, OwnIdsEqualTheLoop) {
  const auto kron = gql::kronecker<bool>({.scale = 11, .edge_factor = 4}, undirected());  // sparse labels
  const auto sparse = gql::urand<bool>({.scale = 12, .edge_factor = 1}, undirected());
  const auto grid = gql::grid<bool>(13, 17);  // dense labels
  for (bool changed : {false, true}) {
    expect_the_loops_labels(kron, own_ids_at_rows<int64_t>(kron, changed));
    expect_the_loops_labels(sparse, own_ids_at_rows<int32_t>(sparse, changed));
    expect_the_loops_labels(grid, own_ids_at_rows<int64_t>(grid, changed));
  }
}

TEST(ComponentLabels, CheckASymmetricStructureThatIsNotMarked) {
  // Self-loops and a pair of mirrored entries, read without --symmetrize.
  gql::Array<gql::offset_t> off = {0, 2, 3, 3, 4};
  gql::Array<gql::index_t> col = {0, 1, 0, 3};
  const Csr<bool> G(4, 4, std::move(off), std::move(col));
  ASSERT_FALSE(G.derived().symmetric());
  expect_the_loops_labels<int64_t>(G, 6);
}

TEST(ComponentLabels, RefuseWhatTheLoopWouldNotComputeLikeThem) {
  const auto directed = gql::kronecker<bool>({.scale = 9, .edge_factor = 4});
  Vector<int64_t> labels = labels_at_rows<int64_t>(directed, 7);
  const auto before = slots(labels);
  EXPECT_FALSE(gql::cpu::component_labels(directed, labels));
  EXPECT_EQ(slots(labels), before);

  const auto G = gql::kronecker<bool>({.scale = 9, .edge_factor = 4}, undirected());
  Vector<int64_t> missing = labels_at_rows<int64_t>(G, 8);  // one vertex with edges without a label
  gql::Array<gql::index_t> idx(missing.indices().begin() + 1, missing.indices().end());
  gql::Array<int64_t> val(missing.values().begin() + 1, missing.values().end());
  Vector<int64_t> partial = Vector<int64_t>::sparse(G.n_rows(), std::move(idx), std::move(val));
  EXPECT_FALSE(gql::cpu::component_labels(G, partial));

  Vector<int64_t> everywhere = Vector<int64_t>::dense(G.n_rows(), 3);  // isolated vertices labelled too
  ASSERT_LT(labels_at_rows<int64_t>(G, 9).nvals(), G.n_rows());
  EXPECT_FALSE(gql::cpu::component_labels(G, everywhere));
}

}  // namespace
