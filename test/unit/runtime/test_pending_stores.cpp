// Element stores into host graphs and sparse vectors: a new entry waits with the others
// (gql/pending_stores.hpp) until the container is next read, then all are merged at once; a stored
// entry is overwritten in place. Every read must see exactly the stores made before it, which the
// tests check against a std::map after random sequences of stores and reads.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "gql/cpu/transpose.hpp"
#include "gql/graph.hpp"
#include "gql/pending_stores.hpp"

namespace {

using Position = std::pair<int64_t, int64_t>;

template <class T>
std::map<Position, T> entries_of(const gql::Csr<T>& g) {
  std::map<Position, T> out;
  for (int64_t i = 0; i < g.n_rows(); ++i)
    for (gql::offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      out[{i, g.col_indices()[static_cast<size_t>(p)]}] = g.value_at(p);
  return out;
}

template <class T>
std::map<int64_t, T> entries_of(const gql::Vector<T>& v) {
  std::map<int64_t, T> out;
  for (size_t p = 0; p < v.indices().size(); ++p) out[v.indices()[p]] = T(v.values()[p]);
  return out;
}

// A rows x cols graph with about `density` of its positions stored, values 1000 + position.
template <class T>
gql::Csr<T> random_graph(int64_t rows, int64_t cols, double density, uint32_t seed) {
  std::mt19937 rng(seed);
  std::bernoulli_distribution stored(density);
  gql::Array<gql::offset_t> offsets(1, 0);
  gql::Array<gql::index_t> columns;
  gql::Array<gql::storage_t<T>> values;
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      if (!stored(rng)) continue;
      columns.push_back(static_cast<gql::index_t>(j));
      if constexpr (gql::stores_values<T>) values.push_back(static_cast<T>(1000 + i * cols + j));
    }
    offsets.push_back(static_cast<gql::offset_t>(columns.size()));
  }
  return gql::Csr<T>(rows, cols, std::move(offsets), std::move(columns), std::move(values));
}

TEST(PendingStores, ResolvedKeepsTheLastStoreOfEachPositionInOrder) {
  gql::PendingStores<int> stores;
  for (auto [position, value] : {std::pair{9, 1}, {3, 2}, {9, 3}, {0, 4}, {3, 5}, {7, 6}, {9, 7}}) stores.add(position, value);
  const auto resolved = stores.resolved();
  EXPECT_EQ(resolved.positions, (std::vector<int64_t>{0, 3, 7, 9}));
  EXPECT_EQ(resolved.values, (std::vector<int>{4, 5, 6, 7}));
  // Stores already in order (a diagonal) resolve the same way, repeats included.
  gql::PendingStores<int> sorted;
  for (auto [position, value] : {std::pair{1, 1}, {1, 2}, {4, 3}, {8, 4}, {8, 5}}) sorted.add(position, value);
  EXPECT_EQ(sorted.resolved().positions, (std::vector<int64_t>{1, 4, 8}));
  EXPECT_EQ(sorted.resolved().values, (std::vector<int>{2, 3, 5}));
}

// Random stores (new entries, overwrites, repeats, any order) with a read now and then: every read
// sees the map's contents, the graph stays valid, and only new entries wait.
template <class T>
void check_random_stores(int64_t rows, int64_t cols, double density, uint32_t seed) {
  auto g = random_graph<T>(rows, cols, density, seed);
  auto want = entries_of(g);
  std::mt19937 rng(seed + 1);
  for (int k = 0; k < 4000; ++k) {
    const int64_t i = static_cast<int64_t>(rng() % static_cast<uint32_t>(k < 1000 ? std::min<int64_t>(rows, 5) : rows));
    const int64_t j = static_cast<int64_t>(rng() % static_cast<uint32_t>(cols));
    const auto x = static_cast<T>(rng() % 1000);
    const bool stored = want.count({i, j}) > 0, was_settled = g.settled();
    g.set_entry(i, j, static_cast<gql::storage_t<T>>(x));
    want[{i, j}] = gql::stores_values<T> ? x : T(true);
    if (stored) {
      EXPECT_EQ(g.settled(), was_settled) << "an overwrite waits or merges";
    } else {
      EXPECT_FALSE(g.settled()) << "a new entry is merged at once";
    }
    if (rng() % 97 == 0) {  // a read between stores
      ASSERT_EQ(g.nvals(), static_cast<int64_t>(want.size()));
      EXPECT_TRUE(g.settled());
      ASSERT_EQ(entries_of(g), want);
    }
  }
  ASSERT_NO_THROW(g.validate());
  EXPECT_EQ(entries_of(g), want);
}

TEST(GraphStores, RandomStoresAndReadsMatchAMap) {
  check_random_stores<double>(60, 45, 0.1, 3);
  check_random_stores<int32_t>(200, 7, 0.5, 4);
  check_random_stores<int8_t>(1, 300, 0.2, 5);  // one row
}

TEST(GraphStores, PatternGraphsStoreNoValues) {
  check_random_stores<bool>(50, 50, 0.1, 6);
  auto g = gql::Csr<bool>(4, 4);
  g.set_entry(2, 1, 0);  // a pattern's entries are all true, whatever was stored
  g.set_entry(0, 3, 1);
  EXPECT_TRUE(g.values().empty());
  EXPECT_EQ(entries_of(g), (std::map<Position, bool>{{{0, 3}, true}, {{2, 1}, true}}));
}

TEST(GraphStores, IntoEmptyGraphs) {
  gql::Csr<float> none(0, 0);
  EXPECT_EQ(none.nvals(), 0);
  EXPECT_NO_THROW(none.validate());
  check_random_stores<float>(30, 30, 0.0, 7);
  // Every store into the last row, then into the first: all rows after them move.
  gql::Csr<float> g(5, 3);
  for (int64_t j = 2; j >= 0; --j) g.set_entry(4, j, static_cast<float>(j));
  g.set_entry(0, 1, 9.0f);
  EXPECT_EQ(std::vector<gql::offset_t>(g.row_offsets().begin(), g.row_offsets().end()),
            (std::vector<gql::offset_t>{0, 1, 1, 1, 1, 4}));
  EXPECT_EQ(std::vector<gql::index_t>(g.col_indices().begin(), g.col_indices().end()),
            (std::vector<gql::index_t>{1, 0, 1, 2}));
  EXPECT_EQ(std::vector<float>(g.values().begin(), g.values().end()), (std::vector<float>{9, 0, 1, 2}));
}

// An overwrite is a binary search and a write; it never waits.
TEST(GraphStores, OverwritesAreWrittenInPlace) {
  auto g = random_graph<double>(20, 20, 0.3, 8);
  const auto* values = g.values().data();
  for (int64_t i = 0; i < 20; ++i)
    for (gql::offset_t p = g.row_offsets()[static_cast<size_t>(i)]; p < g.row_offsets()[static_cast<size_t>(i) + 1]; ++p)
      g.set_entry(i, g.col_indices()[static_cast<size_t>(p)], -1.0);
  EXPECT_TRUE(g.settled());
  EXPECT_EQ(g.values().data(), values);
  for (double x : g.values()) EXPECT_EQ(x, -1.0);
}

// What was derived from the graph (its transpose, its symmetry) is dropped by a store, so a read
// after it derives from the graph with the new entry.
TEST(GraphStores, DerivedDataIsDroppedByAStore) {
  gql::Csr<int32_t> g(3, 3, {0, 1, 2, 2}, {1, 0}, {5, 5});
  g.derived().mark_symmetric();
  EXPECT_EQ(gql::cpu::transpose_of(g).nvals(), 2);
  g.set_entry(2, 0, 7);
  EXPECT_FALSE(g.derived().symmetric());
  const auto& t = gql::cpu::transpose_of(g);
  EXPECT_EQ(t.nvals(), 3);
  EXPECT_EQ(entries_of(t), (std::map<Position, int32_t>{{{0, 1}, 5}, {{0, 2}, 7}, {{1, 0}, 5}}));
  // Overwriting in place drops it too.
  g.set_entry(2, 0, 8);
  EXPECT_EQ(entries_of(gql::cpu::transpose_of(g))[Position(0, 2)], 8);
}

// Copies and moves: a clone holds the stores made before it; a move carries the waiting ones along.
TEST(GraphStores, ClonesAndMovesKeepTheStores) {
  gql::Csr<double> g(4, 4);
  g.set_entry(3, 3, 1.5);
  const gql::Csr<double> copy = g.clone();
  EXPECT_EQ(entries_of(copy), (std::map<Position, double>{{{3, 3}, 1.5}}));
  g.set_entry(1, 2, 2.5);
  gql::Csr<double> moved = std::move(g);
  EXPECT_FALSE(moved.settled());
  EXPECT_EQ(entries_of(moved), (std::map<Position, double>{{{1, 2}, 2.5}, {{3, 3}, 1.5}}));
  gql::Csr<double> assigned(2, 2);
  assigned.set_entry(0, 0, 9.0);  // replaced with what it waited for
  assigned = std::move(moved);
  EXPECT_EQ(entries_of(assigned), (std::map<Position, double>{{{1, 2}, 2.5}, {{3, 3}, 1.5}}));
}

// Many threads reading a const graph whose stores wait (as OpenMP threads or kernel calls sharing a
// graph do): one merges them, every thread sees the merged graph.
TEST(GraphStores, ConcurrentReadersSeeOneMergedGraph) {
  for (int round = 0; round < 20; ++round) {
    auto g = random_graph<int64_t>(300, 300, 0.05, 9 + static_cast<uint32_t>(round));
    std::map<Position, int64_t> want = entries_of(g);
    for (int64_t i = 0; i < 300; ++i) {
      g.set_entry(299 - i, i, -i);
      want[{299 - i, i}] = -i;
    }
    const gql::Csr<int64_t>& shared = g;
    std::vector<int64_t> seen(8, -1);
    std::vector<std::thread> readers;
    for (size_t t = 0; t < seen.size(); ++t)
      readers.emplace_back([&, t] {
        int64_t sum = 0;
        for (size_t p = 0; p < shared.col_indices().size(); ++p) sum += shared.col_indices()[p];
        seen[t] = shared.nvals() + sum;
      });
    for (auto& r : readers) r.join();
    int64_t sum = 0;
    for (const auto& [position, value] : want) sum += position.second;
    for (int64_t s : seen) EXPECT_EQ(s, static_cast<int64_t>(want.size()) + sum);
    EXPECT_EQ(entries_of(g), want);
  }
}

// The waiting list is bounded: at its limit the stores are merged at once.
TEST(GraphStores, TheWaitingListIsMergedAtItsLimit) {
  const auto limit = static_cast<int64_t>(gql::PendingStores<uint8_t>::limit);
  const int64_t n = 4096;
  gql::Csr<bool> g(n, n);
  for (int64_t k = 0; k < limit - 1; ++k) g.set_entry(k / n, k % n, 1);
  EXPECT_FALSE(g.settled());
  g.set_entry((limit - 1) / n, (limit - 1) % n, 1);
  EXPECT_TRUE(g.settled());
  EXPECT_EQ(g.nvals(), limit);
  EXPECT_NO_THROW(g.validate());
}

// A sparse vector's new entries wait as a graph's do; a dense vector's stores are written in place.
TEST(VectorStores, RandomStoresAndReadsMatchAMap) {
  std::mt19937 rng(10);
  const int64_t n = 500;
  gql::Vector<int32_t> v(n);
  std::map<int64_t, int32_t> want;
  for (int k = 0; k < 3000; ++k) {
    const int64_t i = static_cast<int64_t>(rng() % (k < 1000 ? 20 : n));
    const auto x = static_cast<int32_t>(rng() % 1000);
    const bool stored = want.count(i) > 0;
    v.set_entry(i, x);
    want[i] = x;
    if (!stored) {
      EXPECT_FALSE(v.settled());
    }
    if (rng() % 89 == 0) {
      ASSERT_EQ(v.nvals(), static_cast<int64_t>(want.size()));
      ASSERT_EQ(entries_of(v), want);
    }
  }
  ASSERT_NO_THROW(v.validate());
  EXPECT_EQ(entries_of(v), want);
  const gql::Vector<int32_t> copy = v.clone();
  EXPECT_EQ(entries_of(copy), want);

  auto dense = gql::Vector<double>::dense(4, 0.0);
  dense.set_entry(2, 1.5);
  EXPECT_TRUE(dense.settled());
  EXPECT_EQ(dense.values()[2], 1.5);
}

TEST(VectorStores, StoresFromTheLastIndexDown) {
  gql::Vector<bool> v(1000);
  for (int64_t i = 999; i >= 0; i -= 3) v.set_entry(i, 1);
  EXPECT_EQ(v.nvals(), 334);
  ASSERT_NO_THROW(v.validate());
  EXPECT_EQ(v.indices().front(), 0);
  EXPECT_EQ(v.indices().back(), 999);
}

}  // namespace
