// A program's command line (gql::run_program): --NAME=VALUE, a nearby name suggested for a mistyped
// option, parameter or kernel, and many runs on one input (value lists, random:COUNT draws, --repeat).
#include <gtest/gtest.h>

#include <cstdio>
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gql/program.hpp"

namespace {

struct Ran {
  bool called = false;
  int64_t k = 0;
};

// Runs `args` (after the program's name) against one kernel `hop(G: graph<bool>, k: i64)` that only
// records its scalar; returns the exit status and what went to stderr.
std::pair<int, std::string> run(std::vector<std::string> args, Ran& ran) {
  const gql::KernelEntry hop{"hop",
                             {{"G", gql::ParamKind::graph, "bool"}, {"k", gql::ParamKind::scalar, "i64"}},
                             "i64",
                             [&](gql::Invocation& call) {
                               ran.called = true;
                               ran.k = call.scalars<int64_t>("k")[0];
                             }};
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  const int status = gql::run_program(static_cast<int>(argv.size()), argv.data(), std::span(&hop, 1));
  return {status, testing::internal::GetCapturedStderr()};
}

TEST(ProgramArguments, NameEqualsValueIsNameThenValue) {
  Ran ran;
  run({"hop", "--G=grid:3x3", "--k=7"}, ran);
  EXPECT_TRUE(ran.called);
  EXPECT_EQ(ran.k, 7);
}

TEST(ProgramArguments, MistypedNamesGetASuggestion) {
  Ran ran;
  auto [status, err] = run({"hop", "--g", "grid:3x3", "--k", "1"}, ran);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("has no parameter --g (did you mean --G?)"), std::string::npos) << err;
  std::tie(status, err) = run({"hop", "--G", "grid:3x3", "--k", "1", "--stat"}, ran);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("(did you mean --stats?)"), std::string::npos) << err;
  std::tie(status, err) = run({"hops", "--G", "grid:3x3"}, ran);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("unknown kernel 'hops' (did you mean hop?)"), std::string::npos) << err;
  // Nothing near: no suggestion.
  std::tie(status, err) = run({"hop", "--G", "grid:3x3", "--k", "1", "--frobnicate", "1"}, ran);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(err.find("did you mean"), std::string::npos) << err;
  EXPECT_FALSE(ran.called);
}

TEST(ProgramArguments, FlagsTakeNoValue) {
  Ran ran;
  const auto [status, err] = run({"hop", "--G", "grid:3x3", "--k", "1", "--stats=yes"}, ran);
  EXPECT_EQ(status, 2);
  EXPECT_NE(err.find("--stats takes no value"), std::string::npos) << err;
  EXPECT_FALSE(ran.called);
}

// What a run of `argv` printed and returned.
struct Outcome {
  int status;
  std::string out, err;
};
Outcome run_entry(const gql::KernelEntry& entry, std::vector<std::string> args) {
  args.insert(args.begin(), "prog");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const int status = gql::run_program(static_cast<int>(argv.size()), argv.data(), std::span(&entry, 1));
  std::string err = testing::internal::GetCapturedStderr();
  return {status, testing::internal::GetCapturedStdout(), std::move(err)};
}

// step(G: graph<bool>, k: i64, m: i64) -> i64: returns k + m, counting 10 searched edges per run.
gql::KernelEntry step_kernel(std::vector<int64_t>& seen) {
  return {"step",
          {{"G", gql::ParamKind::graph, "bool"}, {"k", gql::ParamKind::scalar, "i64"}, {"m", gql::ParamKind::scalar, "i64"}},
          "i64",
          [&seen](gql::Invocation& call) {
            const auto G = call.graph<bool>("G");
            const auto k = call.scalars<int64_t>("k");
            const auto m = call.scalars<int64_t>("m");
            call.run([&](gql::Run& run) {
              run.context().work().searched_edges += 10;
              seen.push_back(k[run.value_index()] + m[run.value_index()]);
              return seen.back();
            });
          }};
}

// roots(G: graph<bool>, src: vertex) -> i64: returns its source.
gql::KernelEntry roots_kernel(std::vector<int64_t>& seen) {
  return {"roots", {{"G", gql::ParamKind::graph, "bool"}, {"src", gql::ParamKind::vertex, "vertex"}}, "i64",
          [&seen](gql::Invocation& call) {
            const auto G = call.graph<bool>("G");
            const auto src = call.vertices("src", G);
            call.run([&](gql::Run& run) {
              seen.push_back(src[run.value_index()]);
              return seen.back();
            });
          }};
}

TEST(ProgramRuns, ListsRunOncePerValueSideBySide) {
  std::vector<int64_t> seen;
  const auto k = step_kernel(seen);
  Outcome o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,2,3", "--m", "10"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(seen, (std::vector<int64_t>{11, 12, 13}));
  EXPECT_EQ(o.out, "11\n12\n13\n");
  seen.clear();
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,2", "--m", "10,20", "--repeat", "2"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_EQ(seen, (std::vector<int64_t>{11, 11, 22, 22}));
  seen.clear();
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,2", "--m", "1,2,3"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("need the same length"), std::string::npos) << o.err;
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,,2", "--m", "1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("--k '': not a number"), std::string::npos) << o.err;
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "random:4", "--m", "1"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("random: draws vertices"), std::string::npos) << o.err;
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1", "--m", "1", "--repeat", "0"});
  EXPECT_EQ(o.status, 2);
  EXPECT_TRUE(seen.empty());
}

TEST(ProgramRuns, StatsGiveEachRunThenTheMedianAndTheHarmonicMean) {
  std::vector<int64_t> seen;
  const auto k = step_kernel(seen);
  const Outcome o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "5,6", "--m", "0", "--repeat", "2", "--stats"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.out.find("load:"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("run 1/4 --k 5: time"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("run 4/4 --k 6: time"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("runs:    4 (2 values, --repeat 2)"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("median time:"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("searched edges: 40 in all; harmonic mean"), std::string::npos) << o.out;
}

TEST(ProgramRuns, SeveralRunsWriteAFileEachWhenTheNameSaysWhere) {
  std::vector<int64_t> seen;
  const auto k = step_kernel(seen);
  const auto dir = std::filesystem::temp_directory_path() / ("gql_runs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  Outcome o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,2", "--m", "0", "--out", (dir / "r.txt").string()});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("put {run} in the file name"), std::string::npos) << o.err;
  EXPECT_TRUE(seen.empty());
  o = run_entry(k, {"step", "--G", "grid:2x2", "--k", "1,2", "--m", "0", "--out", (dir / "r{run}.txt").string()});
  EXPECT_EQ(o.status, 0) << o.err;
  for (const char* name : {"r1.txt", "r2.txt"}) EXPECT_TRUE(std::filesystem::exists(dir / name)) << name;
  std::filesystem::remove_all(dir);
}

// shape(G: graph<bool>) -> RESULT: the entry's result made by `make` from G.
template <class Make>
gql::KernelEntry shape_kernel(const char* result, Make make) {
  return {"shape", {{"G", gql::ParamKind::graph, "bool"}}, result, [make](gql::Invocation& call) {
            const auto G = call.graph<bool>("G");
            call.run([&](gql::Run&) { return make(G); });
          }};
}

TEST(ProgramOut, ResultsAreSummarizedByKindAndShapeAndScalarsPrintTheirValues) {
  const auto graph = shape_kernel("graph<bool>", [](const gql::Csr<bool>& G) { return gql::Csr<bool>(G.n_rows(), 3); });
  Outcome o = run_entry(graph, {"shape", "--G", "grid:2x3"});
  EXPECT_EQ(o.out, "shape: graph 6x3, 0 entries (--out FILE writes it, --stats times the run)\n") << o.err;
  o = run_entry(graph, {"shape", "--G", "grid:2x3", "--stats"});
  EXPECT_NE(o.out.find("result:  graph 6x3, 0 entries\n"), std::string::npos) << o.out;
  const auto pair = shape_kernel("(u64, f64)", [](const gql::Csr<bool>& G) {
    return std::tuple<uint64_t, double>(static_cast<uint64_t>(G.nvals()), 0.5);
  });
  o = run_entry(pair, {"shape", "--G", "grid:2x3"});
  EXPECT_EQ(o.out, "14 0.5\n") << o.err;
  o = run_entry(pair, {"shape", "--G", "grid:2x3", "--stats"});
  EXPECT_NE(o.out.find("result:  (14, 0.5)\n"), std::string::npos) << o.out;
  const auto mixed = shape_kernel("(matrix<f32>, u8)", [](const gql::Csr<bool>& G) {
    return std::tuple<gql::Matrix<float>, uint8_t>(gql::Matrix<float>(G.n_rows(), 2, 0.0f), 7);
  });
  o = run_entry(mixed, {"shape", "--G", "grid:2x3"});
  EXPECT_EQ(o.out, "shape: (matrix 6x2, 7) (--out FILE writes it, --stats times the run)\n") << o.err;
  const auto scalar = shape_kernel("i64", [](const gql::Csr<bool>& G) { return static_cast<int64_t>(G.n_rows()); });
  o = run_entry(scalar, {"shape", "--G", "grid:2x3", "--stats"});
  EXPECT_NE(o.out.find("\n6\n"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("result:  6\n"), std::string::npos) << o.out;
}

TEST(ProgramOut, TheFormatAndTheFolderAreCheckedBeforeTheInputsLoad) {
  bool loaded = false;
  const gql::KernelEntry levels{"levels", {{"G", gql::ParamKind::graph, "bool"}}, "vector<i32>",
                                [&](gql::Invocation&) { loaded = true; }};
  Outcome o = run_entry(levels, {"levels", "--G", "grid:2x2", "--out", "levels.txt"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("a vector<i32> is written as Matrix Market"), std::string::npos) << o.err;
  o = run_entry(levels, {"levels", "--G", "grid:2x2", "--out", "/nonexistent-gql-folder/levels.mtx"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("cannot write in /nonexistent-gql-folder"), std::string::npos) << o.err;
  const gql::KernelEntry square{"square", {{"G", gql::ParamKind::graph, "bool"}}, "graph<u64>",
                                [&](gql::Invocation&) { loaded = true; }};
  o = run_entry(square, {"square", "--G", "grid:2x2", "--out", "square.lg"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("read only"), std::string::npos) << o.err;
  EXPECT_FALSE(loaded);
}

TEST(ProgramRuns, RandomRootsAreDistinctVerticesWithAnEdgeFromTheSeed) {
  std::vector<int64_t> seen;
  const auto k = roots_kernel(seen);
  // kron:8 has isolated vertices and self-loops; a draw takes neither.
  const gql::Csr<bool> g = gql::read_graph<bool>("kron:8");
  Outcome o = run_entry(k, {"roots", "--G", "kron:8", "--src", "random:64:5"});
  ASSERT_EQ(o.status, 0) << o.err;
  ASSERT_EQ(seen.size(), 64u);
  EXPECT_EQ(std::set<int64_t>(seen.begin(), seen.end()).size(), 64u);
  for (int64_t v : seen) {
    bool edge = false;
    for (gql::offset_t p = g.row_offsets()[v]; p < g.row_offsets()[v + 1]; ++p) edge = edge || g.col_indices()[p] != v;
    EXPECT_TRUE(edge) << v;
  }
  const std::vector<int64_t> first = seen;
  seen.clear();
  o = run_entry(k, {"roots", "--G", "kron:8", "--src", "random:64:5"});
  EXPECT_EQ(seen, first);
  seen.clear();
  o = run_entry(k, {"roots", "--G", "grid:3x3", "--src", "random:10"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("cannot draw 10 search roots: the graph has 9 vertices"), std::string::npos) << o.err;
  o = run_entry(k, {"roots", "--G", "grid:3x3", "--src", "0,8,9"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("--src 9 is not a vertex id"), std::string::npos) << o.err;
  o = run_entry(k, {"roots", "--G", "grid:3x3", "--src", "random:x"});
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("expected random:COUNT[:SEED]"), std::string::npos) << o.err;
}

}  // namespace
