// Traversals end to end: the stdlib's bfs, bfs_parents, sssp, components and pagerank, and the
// language issue's BFS in each direction (specs/traversals.gql), against plain reference code; the
// loops gqlc recognizes as one traversal against the same loops lowered as written.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

std::vector<int64_t> reference_bfs(const Csr<bool>& G, int64_t source) {
  std::vector<int64_t> depth(static_cast<size_t>(G.n_rows()), -1);
  std::queue<int64_t> queue;
  depth[static_cast<size_t>(source)] = 0;
  queue.push(source);
  while (!queue.empty()) {
    const int64_t u = queue.front();
    queue.pop();
    for (offset_t p = G.row_offsets()[u]; p < G.row_offsets()[u + 1]; ++p) {
      const index_t v = G.col_indices()[p];
      if (depth[static_cast<size_t>(v)] < 0) {
        depth[static_cast<size_t>(v)] = depth[static_cast<size_t>(u)] + 1;
        queue.push(v);
      }
    }
  }
  return depth;
}

// A vector result as n slots; absent entries are `absent`.
template <class T>
std::vector<T> read_slots(const std::string& path, int64_t n, T absent) {
  const auto v = read_vector<T>(path);
  EXPECT_EQ(v.size(), n);
  std::vector<T> out(static_cast<size_t>(n), absent);
  if (v.is_dense()) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<size_t>(i)] = static_cast<T>(v.values()[static_cast<size_t>(i)]);
  } else {
    for (size_t p = 0; p < v.indices().size(); ++p) out[static_cast<size_t>(v.indices()[p])] = static_cast<T>(v.values()[p]);
  }
  return out;
}

std::vector<std::string> traversal_inputs() {
  std::vector<std::string> in = {"kron:10", "grid:9x11", "urand:10:4"};
  if (have_shared_data())
    for (const char* f : {"karate.mtx", "email-Eu-core.txt.gz", "ca-GrQc.csv", "p2p-Gnutella31.txt.gz"})
      in.push_back(data_graph(f));
  return in;
}

// The first vertex with an out-edge (Graph500 picks roots of degree >= 1 too).
int64_t some_source(const Csr<bool>& G) {
  for (int64_t i = 0; i < G.n_rows(); ++i)
    if (G.row_degree(i) > 0) return i;
  return 0;
}

TEST(Traversals, BfsInEveryDirectionMatchesTheReference) {
  for (const auto& input : traversal_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const int64_t src = some_source(G);
    const auto expected = reference_bfs(G, src);
    const std::string args = "--G " + input + " --src " + std::to_string(src);
    EXPECT_EQ(expected, read_slots<int64_t>(run_ok("std_bfs", "bfs", args), G.n_rows(), -1));
    for (const char* kernel : {"bfs", "bfs_push", "bfs_pull"}) {
      SCOPED_TRACE(kernel);
      EXPECT_EQ(expected, read_slots<int64_t>(run_ok("specs_traversals", kernel, args), G.n_rows(), -1));
    }
  }
}

// Many runs on one input: a listed and a drawn source each give the search from that source alone,
// their results in the files --out's {run} names.
TEST(Traversals, BfsRunsOncePerListedOrDrawnSource) {
  const std::string input = "kron:10";
  const auto G = read_graph<bool>(input);
  const std::vector<int64_t> listed = {some_source(G), 3, G.n_rows() - 1};
  std::string list;
  for (int64_t v : listed) list += (list.empty() ? "" : ",") + std::to_string(v);
  const std::string out = run_ok("std_bfs", "bfs", "--G " + input + " --src " + list + " --repeat 2", "levels-{run}.mtx");
  for (size_t k = 0; k < listed.size(); ++k)
    for (int repeat = 0; repeat < 2; ++repeat) {
      std::string name = out;
      name.replace(name.find("{run}"), 5, std::to_string(2 * k + static_cast<size_t>(repeat) + 1));
      EXPECT_EQ(reference_bfs(G, listed[k]), read_slots<int64_t>(name, G.n_rows(), -1)) << name;
    }
  const RunResult drawn = run(program("std_bfs") + " bfs --G " + input + " --src random:3:7 --stats");
  ASSERT_EQ(drawn.status, 0) << drawn.output;
  EXPECT_NE(drawn.output.find("runs:    3 (3 values, --repeat 1)"), std::string::npos) << drawn.output;
  EXPECT_NE(drawn.output.find("searched edges:"), std::string::npos) << drawn.output;
  EXPECT_NE(drawn.output.find("median time:"), std::string::npos) << drawn.output;
}

TEST(Traversals, BfsParentsFormATreeOfShortestPaths) {
  for (const auto& input : traversal_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const auto rows = to_rows<bool>(G);
    const int64_t src = some_source(G);
    const auto depth = reference_bfs(G, src);
    const auto parent = read_slots<int64_t>(
        run_ok("std_bfs", "bfs_parents", "--G " + input + " --src " + std::to_string(src)), G.n_rows(), -1);
    for (int64_t v = 0; v < G.n_rows(); ++v) {
      const auto d = depth[static_cast<size_t>(v)];
      const auto p = parent[static_cast<size_t>(v)];
      if (d < 0) {
        EXPECT_EQ(p, -1) << "unreached vertex " << v << " has a parent";
      } else if (v != src) {
        ASSERT_GE(p, 0) << "vertex " << v;
        EXPECT_EQ(depth[static_cast<size_t>(p)], d - 1) << "vertex " << v;
        EXPECT_TRUE(rows[static_cast<size_t>(p)].count(static_cast<index_t>(v))) << "no edge " << p << " -> " << v;
      }
    }
  }
}

TEST(Traversals, RelaxIsOneBellmanFordRound) {
  const std::string out_dir = scratch_dir();
  const auto G = read_graph<double>("grid:5x6");
  // A distance vector with two entries, written as a Matrix Market coordinate vector.
  const std::string d_path = out_dir + "/d.mtx";
  write_matrix_market(d_path, Vector<double>::sparse(G.n_rows(), {0, 7}, {0.0, 2.5}));
  std::vector<double> expected(static_cast<size_t>(G.n_rows()), std::numeric_limits<double>::infinity());
  for (int64_t k : {0, 7})
    for (offset_t p = G.row_offsets()[k]; p < G.row_offsets()[k + 1]; ++p) {
      const double via = (k == 0 ? 0.0 : 2.5) + G.value_at(p);
      auto& e = expected[static_cast<size_t>(G.col_indices()[p])];
      e = std::min(e, via);
    }
  EXPECT_EQ(expected, read_slots<double>(run_ok("specs_traversals", "relax", "--G grid:5x6 --D " + d_path),
                                         G.n_rows(), std::numeric_limits<double>::infinity()));
}

std::vector<double> dijkstra(const Csr<float>& G, int64_t source) {
  std::vector<double> dist(static_cast<size_t>(G.n_rows()), std::numeric_limits<double>::infinity());
  using Item = std::pair<double, int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  dist[static_cast<size_t>(source)] = 0;
  heap.push({0, source});
  while (!heap.empty()) {
    auto [d, u] = heap.top();
    heap.pop();
    if (d > dist[static_cast<size_t>(u)]) continue;
    for (offset_t p = G.row_offsets()[u]; p < G.row_offsets()[u + 1]; ++p) {
      const double nd = d + G.value_at(p);
      auto& dv = dist[static_cast<size_t>(G.col_indices()[p])];
      if (nd < dv) {
        dv = nd;
        heap.push({nd, G.col_indices()[p]});
      }
    }
  }
  return dist;
}

TEST(Traversals, SsspMatchesDijkstra) {
  std::vector<std::string> inputs = {"grid:12x10"};
  if (have_shared_data()) inputs.push_back(data_graph("rome99.gr"));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<float>(input);
    const auto expected = dijkstra(G, 0);
    const auto got = read_slots<double>(run_ok("std_sssp", "sssp", "--G " + input + " --src 0"), G.n_rows(),
                                        std::numeric_limits<double>::infinity());
    for (int64_t v = 0; v < G.n_rows(); ++v) {
      const double e = expected[static_cast<size_t>(v)], g = got[static_cast<size_t>(v)];
      if (std::isinf(e)) EXPECT_TRUE(std::isinf(g)) << "vertex " << v;
      else EXPECT_NEAR(g, e, 1e-5 * std::max(1.0, e)) << "vertex " << v;  // f32 sums of integer weights
    }
  }
}

// Union-find labels: every vertex's component is named by its smallest vertex.
std::vector<int64_t> reference_components(const Csr<bool>& G) {
  std::vector<int64_t> parent(static_cast<size_t>(G.n_rows()));
  std::iota(parent.begin(), parent.end(), 0);
  auto find = [&](int64_t x) {
    while (parent[static_cast<size_t>(x)] != x)
      x = parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    return x;
  };
  for (int64_t i = 0; i < G.n_rows(); ++i)
    for (offset_t p = G.row_offsets()[i]; p < G.row_offsets()[i + 1]; ++p) {
      const int64_t a = find(i), b = find(G.col_indices()[p]);
      parent[static_cast<size_t>(std::max(a, b))] = std::min(a, b);
    }
  std::vector<int64_t> labels(static_cast<size_t>(G.n_rows()));
  for (int64_t i = 0; i < G.n_rows(); ++i) labels[static_cast<size_t>(i)] = find(i);
  return labels;
}

// Isolated vertices have no entry in G * every, so their label may be absent (-1 here).
void expect_components(const Csr<bool>& G, const std::vector<int64_t>& got) {
  const auto expected = reference_components(G);
  for (int64_t i = 0; i < G.n_rows(); ++i) {
    if (G.row_degree(i) == 0 && got[static_cast<size_t>(i)] == -1) continue;
    EXPECT_EQ(got[static_cast<size_t>(i)], expected[static_cast<size_t>(i)]) << "vertex " << i;
  }
}

TEST(Traversals, ComponentsAreLabelledByTheirSmallestVertex) {
  std::vector<std::string> inputs = {"grid:4x7"};
  if (have_shared_data())
    for (const char* f : {"karate.mtx", "dolphins.mtx", "netscience.mtx", "ca-HepTh.csv"}) inputs.push_back(data_graph(f));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    expect_components(G, read_slots<int64_t>(run_ok("std_components", "components", "--G " + input), G.n_rows(), -1));
  }
}

TEST(Traversals, InputPoliciesApplyToDirectedFiles) {
  std::vector<std::string> inputs = {"urand:9:2"};
  if (have_shared_data())
    for (const char* f : {"email-Eu-core.txt.gz", "ca-GrQc.csv"}) inputs.push_back(data_graph(f));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    ReadOptions undirected;
    undirected.symmetrize = true;
    undirected.self_loops = SelfLoops::drop;
    const auto G = read_graph<bool>(input, undirected);
    expect_components(G, read_slots<int64_t>(run_ok("std_components", "components",
                                                    "--G " + input + " --symmetrize --drop-self-loops"),
                                             G.n_rows(), -1));
  }
}

TEST(Traversals, PageRankMatchesPowerIteration) {
  std::vector<std::string> inputs = {"kron:8"};
  if (have_shared_data()) inputs.push_back(data_graph("hollins.dat"));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const int64_t n = G.n_rows();
    const double d = 0.85;
    const int iterations = 20;
    std::vector<double> rank(static_cast<size_t>(n), 1.0 / n);
    for (int it = 0; it < iterations; ++it) {
      std::vector<double> next(static_cast<size_t>(n), 0.0);
      for (int64_t j = 0; j < n; ++j) {
        if (G.row_degree(j) == 0) continue;  // a dangling vertex passes nothing on
        const double share = rank[static_cast<size_t>(j)] / static_cast<double>(G.row_degree(j));
        for (offset_t p = G.row_offsets()[j]; p < G.row_offsets()[j + 1]; ++p) next[static_cast<size_t>(G.col_indices()[p])] += share;
      }
      for (auto& x : next) x = (1 - d) / n + d * x;
      rank = next;
    }
    const auto got = read_slots<double>(
        run_ok("std_pagerank", "pagerank", "--G " + input + " --iterations " + std::to_string(iterations)), n, 0.0);
    for (int64_t i = 0; i < n; ++i)
      EXPECT_NEAR(got[static_cast<size_t>(i)], rank[static_cast<size_t>(i)], 1e-9 + 1e-5 * rank[static_cast<size_t>(i)])
          << "vertex " << i;
  }
}

// --explain says one line per op, however often a loop calls it: the last call's plan and the count.
TEST(Traversals, ExplainSaysOneLinePerOpOfALoop) {
  const RunResult r = run(program("std_sssp_literal") + " sssp --G grid:10x10 --src 0 --explain");
  ASSERT_EQ(r.status, 0) << r.output;
  size_t lines = 0;
  for (size_t at = r.output.find("  sssp @relax"); at != std::string::npos; at = r.output.find("  sssp @relax", at + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << r.output;
  // 18 rounds reach the far corner, and one more finds no change.
  EXPECT_NE(r.output.find(" pull steps so far (the last of 19 calls)\n"), std::string::npos) << r.output;
}

// A vector result's file is a rule of its type: coordinate, whether the result is stored dense
// (PageRank: every vertex has a rank) or sparse (BFS levels of a graph with unreached vertices).
TEST(Traversals, VectorResultsAreCoordinateFilesWhateverTheirStorage) {
  const std::string header = "%%MatrixMarket matrix coordinate ";
  EXPECT_EQ(read_text(run_ok("std_pagerank", "pagerank", "--G kron:8 --iterations 3")).rfind(header + "real", 0), 0u);
  EXPECT_EQ(read_text(run_ok("std_bfs", "bfs", "--G grid:3x4 --src 0")).rfind(header + "integer", 0), 0u);
  EXPECT_EQ(read_text(run_ok("std_bfs", "bfs", "--G urand:6:1 --src 0")).rfind(header + "integer", 0), 0u);
}

// ---- loops recognized as one traversal (gqlc's default) against the same loops lowered as written
// (the PROGRAM_literal builds, gqlc --literal-loops) and the references --------------------------

TEST(RecognizedTraversals, BfsEqualsTheLiteralLoopAndTheReference) {
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"std_bfs", "bfs"},
      {"specs_traversals", "bfs"},
      {"specs_traversals", "bfs_push"},
      {"specs_traversals", "bfs_pull"},
      {"specs_recognized", "bfs_variant"},
      {"specs_recognized", "bfs_recording"}};
  std::vector<std::string> inputs = {"kron:10", "grid:9x11", "urand:10:4"};
  if (have_shared_data())
    for (const char* f : {"karate.mtx", "ca-GrQc.csv"}) inputs.push_back(data_graph(f));
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const int64_t src = some_source(G);
    const auto expected = reference_bfs(G, src);
    const std::string args = "--G " + input + " --src " + std::to_string(src);
    for (const auto& [program_name, kernel] : runs) {
      SCOPED_TRACE(program_name + " " + kernel);
      const std::string recognized = run_ok(program_name, kernel, args, "recognized.mtx");
      const std::string literal = run_ok(program_name + "_literal", kernel, args, "literal.mtx");
      // Values, not text: the loop may store a full result densely (a Matrix Market array).
      EXPECT_EQ(expected, read_slots<int64_t>(recognized, G.n_rows(), -1));
      EXPECT_EQ(read_slots<int64_t>(literal, G.n_rows(), -1), read_slots<int64_t>(recognized, G.n_rows(), -1));
    }
  }
}

// The label-propagation loops (std/components.gql and specs/recognized.gql's variants) give what the
// loop as written gives, on symmetric inputs by the runtime's union-find and elsewhere by the loop
// itself; the explanation says which ran, so a run that always fell back would fail here.
TEST(RecognizedTraversals, ComponentsEqualTheLiteralLoopWhicheverRuns) {
  struct Input {
    std::string args;
    bool symmetric;
  };
  std::vector<Input> inputs = {{"--G grid:9x11", true},
                               {"--G kron:10 --symmetrize", true},
                               {"--G urand:10:4 --symmetrize --drop-self-loops", true},
                               {"--G kron:10", false},
                               {"--G urand:10:4", false}};
  if (have_shared_data()) {
    inputs.push_back({"--G " + data_graph("karate.mtx"), true});
    inputs.push_back({"--G " + data_graph("ca-GrQc.csv") + " --symmetrize", true});
    inputs.push_back({"--G " + data_graph("email-Eu-core.txt.gz"), false});
  }
  const std::vector<std::pair<std::string, std::string>> runs = {{"std_components", "components"},
                                                                 {"specs_recognized", "components_negated"},
                                                                 {"specs_recognized", "components_partial"}};
  const std::string union_find = "components by union-find";
  for (const auto& input : inputs) {
    SCOPED_TRACE(input.args);
    for (const auto& [program_name, kernel] : runs) {
      SCOPED_TRACE(program_name + " " + kernel);
      const std::string out = scratch_dir() + "/recognized.mtx";
      const RunResult r = run(program(program_name) + " " + kernel + " " + input.args + " --explain --out " + out);
      ASSERT_EQ(r.status, 0) << r.output;
      // components_partial's labels never start at vertex 0, which has an edge in every input here.
      const bool by_union_find = input.symmetric && kernel != "components_partial";
      EXPECT_EQ(r.output.find(union_find) != std::string::npos, by_union_find) << r.output;
      const std::string literal = run_ok(program_name + "_literal", kernel, input.args, "literal.mtx");
      EXPECT_EQ(read_text(literal), read_text(out));
    }
  }
}

TEST(RecognizedTraversals, SsspEqualsTheLiteralLoopAndDijkstraWhateverTheSchedule) {
  std::vector<std::string> inputs = {"grid:12x10", "urand:9:4"};
  if (have_shared_data())
    for (const char* f : {"rome99.gr", "karate.mtx"}) inputs.push_back(data_graph(f));
  const std::vector<std::pair<std::string, std::string>> runs = {
      {"std_sssp", "sssp"}, {"specs_recognized", "sssp_push"}, {"specs_recognized", "sssp_pull"}};
  for (const auto& input : inputs) {
    SCOPED_TRACE(input);
    const auto G = read_graph<float>(input);
    const int64_t src = some_source(read_graph<bool>(input));
    const auto expected = dijkstra(G, src);
    const std::string args = "--G " + input + " --src " + std::to_string(src);
    // Absent entries as -inf (no distance is): the loop's and the traversal's entries must agree.
    const double absent = -std::numeric_limits<double>::infinity();
    // The loop as written once (Bellman-Ford by whole rounds is slow on road graphs).
    const auto first = read_slots<double>(run_ok("std_sssp_literal", "sssp", args, "first.mtx"), G.n_rows(), absent);
    for (const auto& [program_name, kernel] : runs) {
      SCOPED_TRACE(program_name + " " + kernel);
      const std::string recognized = run_ok(program_name, kernel, args, "recognized.mtx");
      EXPECT_EQ(first, read_slots<double>(recognized, G.n_rows(), absent));
      const auto got = read_slots<double>(recognized, G.n_rows(), std::numeric_limits<double>::infinity());
      for (int64_t v = 0; v < G.n_rows(); ++v) {
        const double e = expected[static_cast<size_t>(v)], g = got[static_cast<size_t>(v)];
        if (std::isinf(e)) EXPECT_TRUE(std::isinf(g)) << "vertex " << v;
        else EXPECT_NEAR(g, e, 1e-5 * std::max(1.0, std::abs(e))) << "vertex " << v;
      }
    }
  }
}

// Weights the traversal cannot take exactly: a negative edge (no negative cycle) and an infinite
// one (its head is an entry of the loop's result, at infinity). The generated code says so and
// runs the loop as written.
TEST(RecognizedTraversals, SsspRunsTheLoopWhereTheTraversalCannotReproduceIt) {
  struct Case {
    std::string name, edges;
    int64_t n_edges;
    std::vector<double> expected;  // vertices 0..4; absent: NaN
  };
  const double inf = std::numeric_limits<double>::infinity(), absent = std::nan("");
  const std::vector<Case> cases = {
      {"negative", "1 2 4\n1 3 1\n3 2 -2\n2 4 1\n", 4, {0, -1, 1, 0, absent}},
      {"infinite", "1 2 1\n2 3 inf\n1 4 2\n", 3, {0, 1, inf, 2, absent}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = scratch_dir() + "/" + c.name + ".mtx";
    {
      std::ofstream out(path);
      out << "%%MatrixMarket matrix coordinate real general\n5 5 " << c.n_edges << "\n" << c.edges;
    }
    const std::string out = scratch_dir() + "/out.mtx";
    const RunResult r = run(program("std_sssp") + " sssp --G " + path + " --src 0 --explain --out " + out);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("the loop runs as written"), std::string::npos) << r.output;
    const auto got = read_slots<double>(out, 5, absent);
    for (size_t v = 0; v < 5; ++v) {
      if (std::isnan(c.expected[v])) EXPECT_TRUE(std::isnan(got[v])) << "vertex " << v << " has an entry";
      else EXPECT_EQ(got[v], c.expected[v]) << "vertex " << v;
    }
    const auto literal = read_slots<double>(run_ok("std_sssp_literal", "sssp", "--G " + path + " --src 0", "literal.mtx"), 5, -1e300);
    EXPECT_EQ(read_slots<double>(out, 5, -1e300), literal);
  }
}

// A negative cycle reachable from the source has no shortest paths: the stdlib's sssp fails with its
// requirement's message and exit status 1, recognized or as written. One the source cannot reach
// changes nothing.
TEST(RecognizedTraversals, SsspReportsANegativeCycleReachableFromTheSource) {
  const std::string path = scratch_dir() + "/cycle.mtx";
  {
    std::ofstream out(path);  // 0 -> 1 -> 2 -> 1 (1 -> 2 -> 1 weighs -1), and 3 -> 4
    out << "%%MatrixMarket matrix coordinate real general\n5 5 4\n1 2 4\n2 3 -2\n3 2 1\n4 5 -1\n";
  }
  for (const char* name : {"std_sssp", "std_sssp_literal"}) {
    SCOPED_TRACE(name);
    const RunResult r = run(program(name) + " sssp --G " + path + " --src 0");
    EXPECT_EQ(r.status, 1) << r.output;
    EXPECT_NE(r.output.find("sssp.gql:20:3: requirement failed: distances still improve after rows(G) rounds: a "
                            "negative cycle is reachable from src"),
              std::string::npos)
        << r.output;
    const double absent = std::nan("");
    const auto unreached = read_slots<double>(run_ok(name, "sssp", "--G " + path + " --src 3"), 5, absent);
    EXPECT_TRUE(std::isnan(unreached[0]) && std::isnan(unreached[1]) && std::isnan(unreached[2]));
    EXPECT_EQ(unreached[3], 0.0);
    EXPECT_EQ(unreached[4], -1.0);
  }
}

}  // namespace
}  // namespace gql::e2e
