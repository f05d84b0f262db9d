#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cpu_test_support.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/cpu/vxm.hpp"

namespace {

using gql::Csr;
using gql::Vector;
using gql::cpu::Direction;
using gql::cpu::DirectionOptions;

template <class T>
std::map<int64_t, T> vector_map(const Vector<T>& v) {
  std::map<int64_t, T> out;
  if (v.is_dense()) {
    for (int64_t k = 0; k < v.size(); ++k) out[k] = v.values()[static_cast<size_t>(k)];
  } else {
    for (size_t p = 0; p < v.indices().size(); ++p) out[v.indices()[p]] = v.values()[p];
  }
  return out;
}

// w(j) = agg over k of con(v(k), G(k, j)), then the mask: the definition, entry by entry.
template <class S, class TV, class TG>
std::map<int64_t, typename S::value_type> reference_vxm(const Vector<TV>& v, const Csr<TG>& G,
                                                        const Vector<bool>* mask, bool complement) {
  std::map<int64_t, typename S::value_type> out;
  const auto g = gql::test::to_map(G);
  const auto vm = vector_map(v);
  for (const auto& [kj, gv] : g) {
    const auto it = vm.find(kj.first);
    if (it == vm.end()) continue;
    const auto x = S::con(static_cast<typename S::a_type>(it->second), static_cast<typename S::b_type>(gv), 0,
                          kj.first, kj.second);
    auto [pos, fresh] = out.try_emplace(kj.second, x);
    if (!fresh) pos->second = S::agg(pos->second, x);
  }
  if (mask) {
    const auto m = vector_map(*mask);
    std::erase_if(out, [&](const auto& e) { return m.contains(e.first) == complement; });
  }
  return out;
}

TEST(Vxm, PushPullAndAutoMatchTheDefinition) {
  const auto G = gql::test::random_csr<int32_t>(300, 300, 0.03, 1);
  const auto GT = gql::cpu::transpose(G);
  const auto frontier = Vector<int32_t>::sparse(300, {3, 17, 40, 41, 200, 299}, {5, 1, 7, 2, 9, 4});
  const auto dense = Vector<int32_t>::dense(300, 3);
  const auto mask = Vector<bool>::sparse(300, {0, 5, 17, 60, 61, 62, 100, 150, 250}, {1, 0, 1, 1, 1, 1, 1, 1, 1});
  for (const Vector<int32_t>* v : {&frontier, &dense})
    for (Direction d : {Direction::push, Direction::pull, Direction::automatic})
      for (int complement = -1; complement <= 1; ++complement) {
        const gql::cpu::VectorMask m = complement < 0 ? gql::cpu::VectorMask{} : gql::cpu::VectorMask(mask, complement == 1);
        gql::test::with_threads(3, [&] {
          const auto w = gql::cpu::vxm<gql::test::MinPlus<int32_t>>(*v, G, &GT, m, DirectionOptions{d, 15, 18});
          ASSERT_NO_THROW(w.validate());
          EXPECT_EQ(vector_map(w), (reference_vxm<gql::test::MinPlus<int32_t>>(*v, G, complement < 0 ? nullptr : &mask,
                                                                               complement == 1)))
              << "direction " << static_cast<int>(d) << ", mask " << complement;
        });
      }
}

TEST(Vxm, AnyPairPullStopsEarlyButFindsEveryEntry) {
  const auto G = gql::test::random_csr<bool>(200, 200, 0.05, 2);
  const auto GT = gql::cpu::transpose(G);
  const auto v = Vector<bool>::sparse(200, {1, 2, 3, 50, 120}, {1, 1, 1, 1, 1});
  const auto w = gql::cpu::vxm<gql::test::AnyPair>(v, G, &GT, {}, DirectionOptions{Direction::pull, 15, 18});
  EXPECT_EQ(vector_map(w), (reference_vxm<gql::test::AnyPair>(v, G, nullptr, false)));
}

TEST(Mxv, EqualsVxmOverTheTranspose) {
  const auto G = gql::test::random_csr<int32_t>(150, 120, 0.05, 3);
  const auto GT = gql::cpu::transpose(G);
  const auto v = Vector<int32_t>::sparse(120, {0, 7, 30, 119}, {1, 2, 3, 4});
  // Row i of G * v: min over k of G(i, k) + v(k); also positional ids must arrive as (i, k, 0).
  std::map<int64_t, int32_t> want;
  const auto vm = vector_map(v);
  for (const auto& [ik, g] : gql::test::to_map(G))
    if (const auto it = vm.find(ik.second); it != vm.end()) {
      const int32_t x = g + it->second;
      auto [pos, fresh] = want.try_emplace(ik.first, x);
      if (!fresh) pos->second = std::min(pos->second, x);
    }
  for (Direction d : {Direction::push, Direction::pull}) {
    gql::cpu::DirectionChooser chooser({d, 15, 18});
    EXPECT_EQ(vector_map(gql::cpu::mxv<gql::test::MinPlus<int32_t>>(G, &GT, v, {}, chooser)), want);
  }
  EXPECT_EQ(vector_map(gql::cpu::mxv<gql::test::MinPlus<int32_t>>(G, v)), want);
}

// Plain queue BFS.
std::map<int64_t, int32_t> reference_bfs(const Csr<bool>& G, int64_t source) {
  std::vector<int32_t> level(static_cast<size_t>(G.n_rows()), -1);
  std::deque<int64_t> queue{source};
  level[static_cast<size_t>(source)] = 0;
  while (!queue.empty()) {
    const int64_t u = queue.front();
    queue.pop_front();
    for (auto p = G.row_offsets()[static_cast<size_t>(u)]; p < G.row_offsets()[static_cast<size_t>(u) + 1]; ++p) {
      const auto v = static_cast<size_t>(G.col_indices()[static_cast<size_t>(p)]);
      if (level[v] < 0) {
        level[v] = level[static_cast<size_t>(u)] + 1;
        queue.push_back(static_cast<int64_t>(v));
      }
    }
  }
  std::map<int64_t, int32_t> out;
  for (size_t v = 0; v < level.size(); ++v)
    if (level[v] >= 0) out[static_cast<int64_t>(v)] = level[v];
  return out;
}

TEST(Bfs, LevelsInEveryDirection) {
  const auto G = gql::test::random_csr<bool>(500, 500, 0.006, 4);
  const auto GT = gql::cpu::transpose(G);
  for (Direction d : {Direction::push, Direction::pull, Direction::automatic})
    for (int threads : {1, 3})
      gql::test::with_threads(threads, [&] {
        gql::cpu::TraversalStats stats;
        const auto levels = gql::cpu::bfs_levels(G, GT, 7, DirectionOptions{d, 2, 50}, &stats);
        EXPECT_EQ(vector_map(levels), reference_bfs(G, 7)) << "direction " << static_cast<int>(d);
        if (d == Direction::pull) {
          EXPECT_EQ(stats.pull_steps, stats.levels);
        }
      });
}

TEST(Bfs, DeepPathNeedsWideLevels) {
  // A directed path of 600 vertices: depth beyond a byte.
  const int64_t n = 600;
  gql::Array<gql::offset_t> off(n + 1, 0);
  gql::Array<gql::index_t> col;
  for (int64_t i = 0; i < n; ++i) {
    if (i + 1 < n) col.push_back(static_cast<gql::index_t>(i + 1));
    off[static_cast<size_t>(i) + 1] = static_cast<gql::offset_t>(col.size());
  }
  const Csr<bool> G(n, n, std::move(off), std::move(col));
  const auto GT = gql::cpu::transpose(G);
  const auto levels = gql::cpu::bfs_levels(G, GT, 0);
  EXPECT_EQ(vector_map(levels), reference_bfs(G, 0));
  EXPECT_EQ(levels.values()[599], 599);
}

TEST(SingleSourcePaths, MatchesBellmanFordRounds) {
  const auto G = gql::test::random_csr<int32_t>(400, 400, 0.01, 5);
  for (int threads : {1, 3})
    gql::test::with_threads(threads, [&] {
      const auto got = vector_map(gql::cpu::single_source_paths<gql::test::MinPlus<int32_t>>(G, 3, 0));
      // Reference: Bellman-Ford by rounds over every edge.
      std::vector<int64_t> dist(400, -1);
      dist[3] = 0;
      for (bool changed = true; changed;) {
        changed = false;
        for (const auto& [uv, w] : gql::test::to_map(G))
          if (dist[static_cast<size_t>(uv.first)] >= 0) {
            const int64_t c = dist[static_cast<size_t>(uv.first)] + w;
            auto& d = dist[static_cast<size_t>(uv.second)];
            if (d < 0 || c < d) {
              d = c;
              changed = true;
            }
          }
      }
      std::map<int64_t, int32_t> want;
      for (size_t v = 0; v < dist.size(); ++v)
        if (dist[v] >= 0) want[static_cast<int64_t>(v)] = static_cast<int32_t>(dist[v]);
      EXPECT_EQ(got, want);
    });
}

// The same semiring with agg not declared as min: single_source_paths then runs Bellman-Ford rounds.
template <class T>
struct MinPlusRounds : gql::test::MinPlus<T> {
  static constexpr gql::Monoid monoid = gql::Monoid::user;
};

// A graph of `n` vertices from (row, column, weight) triples.
Csr<float> weighted_graph(int64_t n, std::vector<std::tuple<int64_t, int64_t, float>> entries) {
  std::sort(entries.begin(), entries.end());
  entries.erase(std::unique(entries.begin(), entries.end(),
                            [](const auto& a, const auto& b) { return std::get<0>(a) == std::get<0>(b) && std::get<1>(a) == std::get<1>(b); }),
                entries.end());
  gql::Array<gql::offset_t> off(static_cast<size_t>(n) + 1, 0);
  gql::Array<gql::index_t> col;
  gql::Array<float> val;
  for (const auto& [r, c, w] : entries) {
    ++off[static_cast<size_t>(r) + 1];
    col.push_back(static_cast<gql::index_t>(c));
    val.push_back(w);
  }
  for (int64_t i = 0; i < n; ++i) off[static_cast<size_t>(i) + 1] += off[static_cast<size_t>(i)];
  return Csr<float>(n, n, std::move(off), std::move(col), std::move(val));
}

// Delta-stepping (agg min, weights >= 0) reaches the same fixed point as Bellman-Ford rounds, value
// for value, on shapes that exercise its buckets: skewed degrees, long paths (many buckets), weights
// far apart (buckets beyond its look-ahead), zero weights, fractions, and several sources and threads.
TEST(SingleSourcePaths, DeltaSteppingMatchesRounds) {
  std::mt19937 rng(11);
  std::vector<std::pair<std::string, Csr<float>>> graphs;
  {
    std::vector<std::tuple<int64_t, int64_t, float>> e;
    for (int k = 0; k < 12000; ++k) {
      const int64_t r = k % 5 == 0 ? 1 : static_cast<int64_t>(rng() % 1500), c = static_cast<int64_t>(rng() % 1500);
      const auto w = static_cast<float>(1 + rng() % 255);
      e.emplace_back(r, c, w);
      e.emplace_back(c, r, w);
    }
    graphs.emplace_back("kron-like integers", weighted_graph(1500, e));
  }
  {
    std::vector<std::tuple<int64_t, int64_t, float>> e;
    for (int64_t v = 0; v + 1 < 3000; ++v) {
      e.emplace_back(v, v + 1, v % 3 == 0 ? 0.0f : 1000.0f);
      if (v % 97 == 0) e.emplace_back(v, (v * 7) % 3000, 0.001f);
    }
    e.emplace_back(2999, 0, 1e6f);
    graphs.emplace_back("long path, far apart weights", weighted_graph(3000, e));
  }
  {
    std::vector<std::tuple<int64_t, int64_t, float>> e;
    std::uniform_real_distribution<float> w(0.0f, 3.0f);
    for (int k = 0; k < 8000; ++k) e.emplace_back(rng() % 800, rng() % 800, w(rng));
    graphs.emplace_back("directed fractions", weighted_graph(800, e));
  }
  for (const auto& [name, G] : graphs)
    for (int64_t source : {int64_t{0}, int64_t{1}, int64_t{17}})
      for (int threads : {1, 2, 3})
        gql::test::with_threads(threads, [&] {
          gql::cpu::TraversalStats stats;
          const auto want = vector_map(gql::cpu::single_source_paths<MinPlusRounds<float>>(G, source, 0.0f));
          const auto got = vector_map(gql::cpu::single_source_paths<gql::test::MinPlus<float>>(G, source, 0.0f, &stats));
          EXPECT_EQ(got, want) << name << ", source " << source << ", " << threads << " threads";
          EXPECT_GT(stats.edges_examined, 0) << name;
        });
}

// A negative weight leaves delta-stepping aside: the rounds still find a negative cycle.
TEST(SingleSourcePaths, NegativeCycleStillFails) {
  const auto G = weighted_graph(3, {{0, 1, 1.0f}, {1, 2, -3.0f}, {2, 0, 1.0f}});
  EXPECT_THROW(gql::cpu::single_source_paths<gql::test::MinPlus<float>>(G, 0, 0.0f), gql::Error);
  const auto no_cycle = weighted_graph(3, {{0, 1, 1.0f}, {1, 2, -3.0f}});
  EXPECT_EQ(vector_map(gql::cpu::single_source_paths<gql::test::MinPlus<float>>(no_cycle, 0, 0.0f)),
            (std::map<int64_t, float>{{0, 0.0f}, {1, 1.0f}, {2, -2.0f}}));
}

TEST(Transpose, SwapsEveryEntry) {
  const auto G = gql::test::random_csr<float>(30, 50, 0.1, 6);
  const auto T = gql::cpu::transpose(G);
  ASSERT_NO_THROW(T.validate());
  std::map<std::pair<int64_t, int64_t>, float> swapped;
  for (const auto& [ij, v] : gql::test::to_map(G)) swapped[{ij.second, ij.first}] = v;
  EXPECT_EQ(gql::test::to_map(T), swapped);
}

}  // namespace

namespace {

// A recognized Bellman-Ford loop keeps the traversal's paths only where they are the loop's: no
// weight negative or NaN, every out-neighbour of a reached vertex reached.
TEST(PathsAreExact, RefuseNegativeWeightsAndOpenNeighbours) {
  const Csr<float> G = weighted_graph(4, {{0, 1, 1.0f}, {1, 2, 2.0f}, {2, 3, 0.0f}});
  for (int threads : {1, 3})
    gql::test::with_threads(threads, [&] {
      const auto all = gql::cpu::single_source_paths<gql::test::MinPlus<float>>(G, 0, 0.0f);
      EXPECT_TRUE(gql::cpu::paths_are_exact(G, all));
      const auto first_two = Vector<float>::sparse(4, gql::Array<gql::index_t>{0, 1}, gql::Array<float>{0.0f, 1.0f});
      EXPECT_FALSE(gql::cpu::paths_are_exact(G, first_two));  // 1 reaches 2, which is missing
      const Csr<float> negative = weighted_graph(4, {{0, 1, 1.0f}, {1, 2, -2.0f}});
      EXPECT_FALSE(gql::cpu::paths_are_exact(negative, gql::cpu::single_source_paths<gql::test::MinPlus<float>>(negative, 3, 0.0f)));
      const Csr<float> not_a_number = weighted_graph(2, {{0, 1, std::nanf("")}});
      EXPECT_FALSE(gql::cpu::paths_are_exact(not_a_number, Vector<float>(2)));
    });
}

// single_source_paths's own answer (delta-stepping's from its relaxations, the rounds' by the check)
// is paths_are_exact's, on graphs where it holds and where a sum overflows to infinity and leaves a
// vertex out, by delta-stepping and by the rounds alike.
TEST(PathsAreExact, TheTraversalsAnswerIsTheChecks) {
  const float big = 3e38f;  // big + big is infinite: no better than an unreached vertex's value
  std::vector<std::pair<std::string, Csr<float>>> graphs;
  graphs.emplace_back("closed", weighted_graph(5, {{0, 1, 1.0f}, {1, 2, 2.0f}, {2, 3, 0.0f}, {3, 1, 5.0f}}));
  graphs.emplace_back("overflow", weighted_graph(4, {{0, 1, big}, {1, 2, big}, {0, 3, 1.0f}}));
  // 1's edge leaves 2 out (1e38 + 3e38 overflows) before 3, relaxed later (a farther bucket), reaches it.
  graphs.emplace_back("overflow, reached by another path",
                      weighted_graph(4, {{0, 1, 1e38f}, {1, 2, big}, {0, 3, 2e38f}, {3, 2, 1e38f}}));
  graphs.emplace_back("negative", weighted_graph(3, {{0, 1, 1.0f}, {1, 2, -2.0f}}));
  for (const auto& [name, G] : graphs)
    for (int threads : {1, 3})
      gql::test::with_threads(threads, [&] {
        bool by_delta = false, by_rounds = false;
        const auto delta = gql::cpu::single_source_paths<gql::test::MinPlus<float>>(G, 0, 0.0f, nullptr, &by_delta);
        const auto rounds = gql::cpu::single_source_paths<MinPlusRounds<float>>(G, 0, 0.0f, nullptr, &by_rounds);
        EXPECT_EQ(by_delta, gql::cpu::paths_are_exact(G, delta)) << name;
        EXPECT_EQ(by_rounds, gql::cpu::paths_are_exact(G, rounds)) << name;
        EXPECT_EQ(by_delta, name == "closed" || name == "overflow, reached by another path") << name;
      });
}

}  // namespace
