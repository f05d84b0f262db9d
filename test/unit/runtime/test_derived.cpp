// What is derived from a container's contents belongs to them (gql/derived.hpp): kept while they are
// unchanged, dropped when they are written, moved with them, never found again by an address.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

#include "gql/cpu/transpose.hpp"
#include "gql/derived.hpp"
#include "gql/generate.hpp"
#include "gql/graph.hpp"

namespace gql {
namespace {

Csr<double> path3() {  // 0 -> 1 -> 2, values 1 and 2
  return Csr<double>(3, 3, {0, 1, 2, 2}, {1, 2}, {1.0, 2.0});
}

TEST(Derived, KeptUntilTheContentsAreWritten) {
  Csr<double> g = path3();
  int made = 0;
  const auto make = [&] { return ++made; };
  EXPECT_EQ(g.derived().get<int>("n", make), 1);
  EXPECT_EQ(g.derived().get<int>("n", make), 1);  // kept
  std::as_const(g).values();                      // reading keeps it
  EXPECT_EQ(g.derived().get<int>("n", make), 1);
  g.values()[0] = 5.0;                            // writing drops it
  EXPECT_EQ(g.derived().get<int>("n", make), 2);
  EXPECT_EQ(made, 2);
}

TEST(Derived, AKeyNeverYieldsAnotherType) {
  const Csr<double> g = path3();
  EXPECT_EQ(g.derived().get<int>("slot", [] { return 7; }), 7);
  EXPECT_EQ(g.derived().get<double>("slot", [] { return 0.5; }), 0.5);
  EXPECT_EQ(g.derived().get<int>("slot", [] { return 9; }), 7);
}

TEST(Derived, MovesWithTheContentsAndIsNotCloned) {
  Csr<double> g = path3();
  g.derived().mark_symmetric();
  (void)g.derived().get<int>("n", [] { return 3; });
  Csr<double> moved = std::move(g);
  EXPECT_TRUE(moved.derived().symmetric());
  EXPECT_EQ(moved.derived().get<int>("n", [] { return 4; }), 3);
  const Csr<double> copy = moved.clone();
  EXPECT_FALSE(copy.derived().symmetric());
  EXPECT_EQ(copy.derived().get<int>("n", [] { return 4; }), 4);
  // A new value assigned to the same object brings its own (empty) derived state.
  moved = path3();
  EXPECT_FALSE(moved.derived().symmetric());
  EXPECT_EQ(moved.derived().get<int>("n", [] { return 5; }), 5);
}

TEST(Derived, TransposeFollowsTheGraphsContents) {
  Csr<double> g = path3();
  const Csr<double>& t = cpu::transpose_of(g);
  EXPECT_EQ(t.row_degree(1), 1);  // 0 -> 1 becomes 1 -> 0
  EXPECT_EQ(&cpu::transpose_of(g), &t);  // made once
  g = Csr<double>(3, 3, {0, 0, 0, 1}, {0}, {4.0});  // 2 -> 0, at the same address with the same count
  const Csr<double>& u = cpu::transpose_of(g);
  EXPECT_EQ(u.row_degree(0), 1);
  EXPECT_EQ(u.col_indices()[0], 2);
  EXPECT_EQ(u.values()[0], 4.0);
}

TEST(Derived, ASymmetricGraphIsItsOwnTranspose) {
  ReadOptions undirected;
  undirected.symmetrize = true;
  const Csr<bool> g = generate_graph<bool>("kron:8", undirected);
  EXPECT_TRUE(g.derived().symmetric());
  EXPECT_EQ(&cpu::transpose_of(g), &g);
  const Csr<bool> directed = generate_graph<bool>("kron:8");
  EXPECT_FALSE(directed.derived().symmetric());
  EXPECT_NE(&cpu::transpose_of(directed), &directed);
}

TEST(Derived, ThreadsAskingAtOnceGetOneValue) {
  const Csr<double> g = path3();
  std::atomic<int> made{0};
  std::vector<std::thread> threads;
  std::vector<const int*> seen(8);
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&, t] { seen[t] = &g.derived().get<int>("n", [&] { return ++made; }); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(made.load(), 1);
  for (const int* p : seen) EXPECT_EQ(p, seen[0]);
}

}  // namespace
}  // namespace gql
