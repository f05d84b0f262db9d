// Generalized graph multiplication end to end: specs/products.gql compiled by gqlc, run on real
// and generated graphs, each result checked against reference_product.
#include <algorithm>
#include <fstream>

#include "e2e_support.hpp"

namespace gql::e2e {
namespace {

const char* kProgram = "specs_products";

// Pattern graphs: small real ones of every file format, and generated ones (names are specs).
std::vector<std::string> pattern_inputs() {
  std::vector<std::string> in = {"kron:9", "urand:9:8", "grid:7x9"};
  if (have_shared_data())
    for (const char* f : {"karate.mtx", "dolphins.mtx", "email-Eu-core.txt.gz", "ca-GrQc.csv", "hollins.dat"})
      in.push_back(data_graph(f));
  return in;
}

// Weighted graphs for the numeric semirings.
std::vector<std::string> weighted_inputs() {
  std::vector<std::string> in = {"grid:6x5"};
  if (have_shared_data())
    for (const char* f : {"rome99.gr", "netscience.mtx"}) in.push_back(data_graph(f));
  return in;
}

template <class V>
RowMap<V> read_result(const std::string& path) {
  return to_rows<V>(read_graph<V>(path));
}

RowMap<uint64_t> count_reference(const Csr<bool>& G) {
  return reference_product<uint64_t>(G, G, [](bool, bool, int64_t, int64_t, int64_t) { return uint64_t{1}; },
                                     [](uint64_t x, uint64_t y) { return x + y; });
}

// Keeps the entries of `full` that are (keep_present) or are not (!keep_present) in G.
RowMap<uint64_t> masked(const RowMap<uint64_t>& full, const Csr<bool>& G, bool keep_present) {
  const auto g = to_rows<bool>(G);
  RowMap<uint64_t> out(full.size());
  for (size_t i = 0; i < full.size(); ++i)
    for (const auto& [j, v] : full[i])
      if (g[i].count(j) == static_cast<size_t>(keep_present)) out[i][j] = v;
  return out;
}

TEST(Products, CountWithEveryAccumulator) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const auto expected = count_reference(G);
    for (const char* kernel : {"count2", "count2_dense", "count2_hash"}) {
      SCOPED_TRACE(kernel);
      expect_same(expected, read_result<uint64_t>(run_ok(kProgram, kernel, "--G " + input)));
    }
  }
}

TEST(Products, ComplementedMaskWithReplace) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    expect_same(masked(count_reference(G), G, false),
                read_result<uint64_t>(run_ok(kProgram, "fof_new", "--G " + input)));
  }
}

TEST(Products, StructuralMask) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    // By the work of the call, by rows and by the mask's entries (schedule `masked`): one answer.
    for (const char* kernel : {"fof_known", "fof_known_by_rows", "fof_known_by_mask"}) {
      SCOPED_TRACE(kernel);
      expect_same(masked(count_reference(G), G, true), read_result<uint64_t>(run_ok(kProgram, kernel, "--G " + input)));
    }
  }
}

// A value mask of the counts' parities: the odd counts, then (complemented) the even ones.
TEST(Products, ValueMaskUnderEverySchedule) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const auto full = count_reference(G);
    RowMap<uint64_t> odd(full.size()), even(full.size());
    for (size_t i = 0; i < full.size(); ++i)
      for (const auto& [j, v] : full[i]) (v % 2 ? odd : even)[i][j] = v;
    for (const char* kernel : {"fof_odd", "fof_odd_by_rows", "fof_odd_by_mask", "fof_odd_hash"}) {
      SCOPED_TRACE(kernel);
      expect_same(odd, read_result<uint64_t>(run_ok(kProgram, kernel, "--G " + input)));
    }
    expect_same(even, read_result<uint64_t>(run_ok(kProgram, "fof_even", "--G " + input)));
  }
}

TEST(Products, AnyPairIsTheStructureOfTheProduct) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const auto full = count_reference(G);
    RowMap<bool> expected(full.size());
    for (size_t i = 0; i < full.size(); ++i)
      for (const auto& [j, v] : full[i]) expected[i][j] = true;
    expect_same(expected, read_result<bool>(run_ok(kProgram, "any_pair2", "--G " + input)));
  }
}

TEST(Products, PositionalConGivesTheSmallestMiddleVertex) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<bool>(input);
    const auto expected = reference_product<int64_t>(
        G, G, [](bool, bool, int64_t, int64_t k, int64_t) { return k; },
        [](int64_t x, int64_t y) { return std::min(x, y); });
    expect_same(expected, read_result<int64_t>(run_ok(kProgram, "first_middle2", "--G " + input)));
  }
}

TEST(Products, Triangles) {
  for (const auto& input : pattern_inputs()) {
    SCOPED_TRACE(input);
    // Triangle counting needs an undirected graph without self-loops: use the symmetric inputs.
    if (input.find("karate") == std::string::npos && input.find("dolphins") == std::string::npos &&
        input.rfind("grid:", 0) != 0)
      continue;
    const auto G = read_graph<bool>(input);
    const auto known = masked(count_reference(G), G, true);
    uint64_t sum = 0;
    for (const auto& row : known)
      for (const auto& [j, v] : row) sum += v;
    const std::string out = run_ok(kProgram, "triangles", "--G " + input, "triangles.txt");
    EXPECT_EQ(read_text(out), std::to_string(sum / 6) + "\n");
    // The stdlib's: each triangle once, from tril and triu, by the mask's entries.
    EXPECT_EQ(read_text(run_ok("std_triangles", "triangles", "--G " + input, "std_triangles.txt")),
              std::to_string(sum / 6) + "\n");
  }
}

// The stdlib's triangles refuses what it can tell is no undirected graph without self-loops (a count
// there means nothing): exit 1 with its requirement's message; the same files read undirected and
// without the loops are counted.
TEST(Products, StdlibTrianglesRefusesSelfLoopsAndLopsidedDirectedGraphs) {
  const std::string directed = scratch_dir() + "/directed_cycle.mtx", looped = scratch_dir() + "/looped.mtx";
  std::ofstream(directed) << "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n3 1\n";
  std::ofstream(looped) << "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 4\n2 1\n3 2\n3 1\n2 2\n";
  const RunResult on_directed = run(program("std_triangles") + " triangles --G " + directed);
  EXPECT_EQ(on_directed.status, 1) << on_directed.output;
  EXPECT_NE(on_directed.output.find("requirement failed: G is not undirected"), std::string::npos) << on_directed.output;
  const RunResult on_looped = run(program("std_triangles") + " triangles --G " + looped);
  EXPECT_EQ(on_looped.status, 1) << on_looped.output;
  EXPECT_NE(on_looped.output.find("requirement failed: G has self-loops"), std::string::npos) << on_looped.output;
  EXPECT_EQ(read_text(run_ok("std_triangles", "triangles", "--G " + directed + " --symmetrize", "directed.txt")), "1\n");
  EXPECT_EQ(read_text(run_ok("std_triangles", "triangles", "--G " + looped + " --drop-self-loops", "looped.txt")), "1\n");
}

TEST(Products, KarateHas45Triangles) {
  GQL_REQUIRE_SHARED_DATA();
  const std::string out = run_ok(kProgram, "triangles", "--G " + data_graph("karate.mtx"), "triangles.txt");
  EXPECT_EQ(read_text(out), "45\n");
  EXPECT_EQ(read_text(run_ok("std_triangles", "triangles", "--G " + data_graph("karate.mtx"), "std_triangles.txt")), "45\n");
}

// The README's commands read examples/karate.mtx: it ships with the project.
TEST(Products, TheReadmesGraphShipsWithTheExamples) {
  const std::string karate = std::string(GQL_EXAMPLES_DIR) + "/karate.mtx";
  const auto G = read_graph<bool>(karate);
  EXPECT_EQ(G.n_rows(), 34);
  EXPECT_EQ(G.nvals(), 156);  // 78 friendships, both ways
  expect_same(count_reference(G), read_result<uint64_t>(run_ok("std_fof", "fof", "--G " + karate, "fof.mtx")));
}

TEST(Products, NumericSemirings) {
  for (const auto& input : weighted_inputs()) {
    SCOPED_TRACE(input);
    const auto G = read_graph<double>(input);
    auto ignore_positions = [](auto con) {
      return [con](double a, double b, int64_t, int64_t, int64_t) { return con(a, b); };
    };
    const auto min_plus = reference_product<double>(G, G, ignore_positions([](double a, double b) { return a + b; }),
                                                     [](double x, double y) { return std::min(x, y); });
    expect_same(min_plus, read_result<double>(run_ok(kProgram, "min_plus2", "--G " + input)));

    const auto widest = reference_product<double>(
        G, G, ignore_positions([](double a, double b) { return std::min(a, b); }),
        [](double x, double y) { return std::max(x, y); });
    expect_same(widest, read_result<double>(run_ok(kProgram, "widest2", "--G " + input)));

    const auto max_times = reference_product<double>(
        G, G, ignore_positions([](double a, double b) { return a * b; }),
        [](double x, double y) { return std::max(x, y); });
    expect_same(max_times, read_result<double>(run_ok(kProgram, "max_times2", "--G " + input)));
    expect_same(max_times, read_result<double>(run_ok(kProgram, "heaviest2", "--G " + input)));
  }
}

TEST(Products, WrongArgumentsGetUsageAndExitTwo) {
  EXPECT_EQ(run(program(kProgram)).status, 2);
  EXPECT_EQ(run(program(kProgram) + " no_such_kernel --G kron:4").status, 2);
  EXPECT_EQ(run(program(kProgram) + " count2").status, 2);
  EXPECT_EQ(run(program(kProgram) + " count2 --G kron:4 --H kron:4").status, 2);
  EXPECT_EQ(run(program(kProgram) + " count2 --G kron:4 --threads zero").status, 2);
  const RunResult too_many = run(program(kProgram) + " count2 --G kron:4 --threads 100000");
  EXPECT_EQ(too_many.status, 2) << too_many.output;
  EXPECT_NE(too_many.output.find("from 1 to 4096"), std::string::npos) << too_many.output;
  const RunResult missing = run(program(kProgram) + " count2 --G /nonexistent/graph.mtx");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.output.find("/nonexistent/graph.mtx"), std::string::npos) << missing.output;
}

TEST(Products, StatsReportProductsAndTime) {
  const RunResult r = run(program(kProgram) + " count2 --G kron:8 --stats --threads 2");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("time:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("products:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("peak memory:"), std::string::npos) << r.output;
}

TEST(Products, ExplainNamesThePlan) {
  const RunResult r = run(program(kProgram) + " count2_hash --G kron:8 --explain");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("plan:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("hash"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace gql::e2e
