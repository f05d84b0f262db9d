// A program's command line (gql::run_program): --NAME=VALUE, and a nearby name suggested for a
// mistyped option, parameter or kernel.
#include <gtest/gtest.h>

#include <string>
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
                               ran.k = call.scalar<int64_t>("k");
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

}  // namespace
