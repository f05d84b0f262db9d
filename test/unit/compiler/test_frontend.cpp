// The front end through its public API: IR shape for the language issue's example, explicit
// schedule defaults, literal typing, the agg-law sampler, and robustness on broken input.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "gql/compiler/codegen.hpp"
#include "gql/compiler/compiler.hpp"
#include "gql/compiler/toolchain.hpp"
#include "gql/error.hpp"

namespace gql::compiler {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string example() { return read(std::string(GQL_SOURCE_DIR) + "/test/lit/language/issue_example.gql"); }

std::vector<const ir::Op*> ops_of(const ir::Block& block) {
  std::vector<const ir::Op*> out;
  for (const ir::Stmt& s : block) {
    if (s.kind == ir::StmtKind::op) out.push_back(&s.op);
    for (const ir::Block* b : {&s.prelude, &s.body, &s.otherwise}) {
      auto inner = ops_of(*b);
      out.insert(out.end(), inner.begin(), inner.end());
    }
  }
  return out;
}

const ir::Op* find_op(const ir::Kernel& k, ir::OpKind kind) {
  for (const ir::Op* op : ops_of(k.body)) {
    if (op->kind == kind) return op;
  }
  return nullptr;
}

TEST(Frontend, IssueExampleLowersForCuda) {
  Options options;
  options.target = ir::Target::cuda;
  options.recognize_traversals = false;  // the BFS loop as sema lowers it
  Compiler c(options);
  ASSERT_TRUE(c.compile_source("example.gql", example())) << c.rendered_diagnostics();
  const ir::Module& m = *c.module();
  EXPECT_EQ(m.kernels.size(), 6u);

  const ir::Kernel* fof = m.find_kernel("fof");
  ASSERT_NE(fof, nullptr);
  const ir::Op* mxm = find_op(*fof, ir::OpKind::mxm);
  ASSERT_NE(mxm, nullptr);
  const auto& product = std::get<ir::ProductSchedule>(mxm->schedule);
  ASSERT_EQ(product.rows.size(), 3u);
  EXPECT_EQ(product.rows[0].min_work, 65536);
  EXPECT_EQ(product.rows[1].accumulator, ir::Accumulator::hash);
  EXPECT_EQ(product.rows[2].chunk, 512);
  EXPECT_EQ(product.block, 256);
  const ir::SemiringInstance& paths = m.semirings.at(static_cast<size_t>(mxm->semiring));
  EXPECT_EQ(paths.monoid, gql::Monoid::sum);  // its agg(x, y) = x + y with zero 0 is sum
  EXPECT_EQ(paths.value_type, Scalar::u64);
  EXPECT_FALSE(paths.reads_values);

  const ir::Kernel* bfs = m.find_kernel("bfs");
  const ir::Op* vxm = find_op(*bfs, ir::OpKind::vxm);
  ASSERT_NE(vxm, nullptr);
  EXPECT_EQ(vxm->label, "expand");
  ASSERT_TRUE(vxm->mask.has_value());
  EXPECT_TRUE(vxm->mask->complement);
  EXPECT_TRUE(vxm->replace);
  const auto& traversal = std::get<ir::TraversalSchedule>(vxm->schedule);
  EXPECT_EQ(traversal.direction, ir::Direction::auto_);
  EXPECT_DOUBLE_EQ(traversal.alpha, 15);
  EXPECT_DOUBLE_EQ(traversal.beta, 18);
  const ir::Op* assign = find_op(*bfs, ir::OpKind::assign_scalar);
  ASSERT_NE(assign, nullptr);
  EXPECT_FALSE(assign->mask->complement);

  const ir::Op* closure = find_op(*m.find_kernel("apsp"), ir::OpKind::closure);
  const auto& tiles = std::get<ir::ClosureSchedule>(closure->schedule);
  EXPECT_EQ(tiles.tile, 64);
  EXPECT_EQ(tiles.per_thread, 4);  // given: the seed's shared-tile design
  EXPECT_TRUE(tiles.spread);
  EXPECT_EQ(tiles.out_of_core, ir::Toggle::auto_);
  EXPECT_EQ(tiles.streams, 3);

  const ir::Kernel* factor = m.find_kernel("factor");
  EXPECT_EQ(factor->results.size(), 2u);
  const ir::Op* lu = find_op(*factor, ir::OpKind::lu);
  EXPECT_EQ(lu->outputs.size(), 2u);
  EXPECT_EQ(std::get<ir::LuSchedule>(lu->schedule).tile, 128);
}

TEST(Frontend, OpenmpScheduleDefaultsAreExplicit) {
  Compiler c(Options{});
  ASSERT_TRUE(c.compile_source("example.gql", example())) << c.rendered_diagnostics();
  const ir::Module& m = *c.module();
  const auto& fof = std::get<ir::ProductSchedule>(find_op(*m.find_kernel("fof"), ir::OpKind::mxm)->schedule);
  EXPECT_EQ(fof.accumulator, ir::Accumulator::dense);  // from the spec
  const auto& fof_new = std::get<ir::ProductSchedule>(find_op(*m.find_kernel("fof_new"), ir::OpKind::mxm)->schedule);
  EXPECT_EQ(fof_new.accumulator, ir::Accumulator::auto_);  // default
  EXPECT_EQ(fof_new.threads, 0);
  const auto& apsp = std::get<ir::ClosureSchedule>(find_op(*m.find_kernel("apsp"), ir::OpKind::closure)->schedule);
  EXPECT_EQ(apsp.tile, 128);
  EXPECT_EQ(apsp.parallelism, ir::ClosureParallelism::tasks);
}

int errors_of(const std::string& text) {
  Compiler c(Options{});
  c.compile_source("t.gql", text);
  return static_cast<int>(c.diagnostics().error_count());
}

TEST(Frontend, LiteralsTakeTheirContextsType) {
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> u8 { var x: u8 = 255; return x; }"), 0);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> u8 { var x: u8 = 256; return x; }"), 1);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> u32 { var x: u32 = -1; return x; }"), 1);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> i32 { var x: i32 = 2.0; return x; }"), 0);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> i32 { var x: i32 = 2.5; return x; }"), 1);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> f32 { var x: f32 = 1; return x * 2 + inf; }"), 0);
  EXPECT_EQ(errors_of("kernel k(G: graph<bool>) -> bool { return 1; }"), 1);
}

TEST(Frontend, InfinityOfIntegersIsTheirRange) {
  Compiler c(Options{});
  ASSERT_TRUE(c.compile_source("t.gql", "semiring s<T> { con(a, b) = a + b; agg = min; }\n"
                                        "kernel k(G: graph<u8>) -> graph<u8> { return G * G over s; }"))
      << c.rendered_diagnostics();
  const ir::SemiringInstance& s = c.module()->semirings.at(0);
  ir::Value zero = ir::evaluate(s.zero, *c.module(), {});
  ir::Value terminal = ir::evaluate(*s.terminal, *c.module(), {});
  EXPECT_EQ(zero.v.unsigned_, 255u);
  EXPECT_EQ(terminal.v.unsigned_, 0u);
}

size_t warnings_of(const std::string& agg, const std::string& zero, const std::string& type) {
  Compiler c(Options{});
  std::string text = "semiring s(a: " + type + ", b: " + type + ") -> " + type + " { con(a, b) = a; agg(x, y) = " +
                     agg + "; zero = " + zero + "; }";
  EXPECT_TRUE(c.compile_source("t.gql", text)) << c.rendered_diagnostics();
  return c.diagnostics().warning_count();
}

TEST(Frontend, SamplerWarnsOnlyOnBrokenLaws) {
  EXPECT_EQ(warnings_of("x + y", "0", "i64"), 0u);
  EXPECT_EQ(warnings_of("max(x, y)", "-inf", "f32"), 0u);
  EXPECT_EQ(warnings_of("x * y", "1.0", "f64"), 0u);            // float rounding stays within 1e-6
  EXPECT_EQ(warnings_of("x - y", "0", "i32"), 3u);              // not associative, commutative, 0 - x != x
  EXPECT_EQ(warnings_of("x + y", "1", "u16"), 1u);              // zero is no identity
  EXPECT_EQ(warnings_of("x", "0", "i64"), 2u);                  // first: not commutative, no identity
}

// The monoid and terminal that the instance of a semiring with `agg` over `type` gets.
std::pair<gql::Monoid, bool> monoid_of(const std::string& agg, const std::string& type) {
  Compiler c(Options{});
  const std::string text = "semiring s(a: " + type + ", b: " + type + ") -> " + type + " { con(a, b) = a; " + agg + "; }";
  EXPECT_TRUE(c.compile_source("t.gql", text)) << c.rendered_diagnostics();
  if (!c.module() || c.module()->semirings.empty()) return {gql::Monoid::user, false};
  const ir::SemiringInstance& s = c.module()->semirings.at(0);
  return {s.monoid, s.terminal.has_value()};
}

TEST(Frontend, AggsThatSpellABuiltinMonoidTakeIt) {
  EXPECT_EQ(monoid_of("agg(x, y) = x + y; zero = 0", "u64"), std::pair(gql::Monoid::sum, false));
  EXPECT_EQ(monoid_of("agg(x, y) = y + x; zero = 0.0", "f32"), std::pair(gql::Monoid::sum, false));
  EXPECT_EQ(monoid_of("agg(x, y) = x * y; zero = 1", "i32"), std::pair(gql::Monoid::prod, true));  // 0 absorbs
  EXPECT_EQ(monoid_of("agg(x, y) = min(x, y); zero = inf", "f64"), std::pair(gql::Monoid::min, true));
  EXPECT_EQ(monoid_of("agg(p, q) = max(q, p); zero = -inf", "i64"), std::pair(gql::Monoid::max, true));
  EXPECT_EQ(monoid_of("agg(x, y) = x || y; zero = false", "bool"), std::pair(gql::Monoid::lor, true));
  EXPECT_EQ(monoid_of("agg(x, y) = x && y; zero = true", "bool"), std::pair(gql::Monoid::land, true));
  // Not a builtin: another zero, another expression, an operand twice.
  EXPECT_EQ(monoid_of("agg(x, y) = x + y; zero = 1", "u64").first, gql::Monoid::user);
  EXPECT_EQ(monoid_of("agg(x, y) = x + y - x * y; zero = 0.0", "f64").first, gql::Monoid::user);
  EXPECT_EQ(monoid_of("agg(x, y) = max(x, x); zero = -inf", "i64").first, gql::Monoid::user);
  EXPECT_EQ(monoid_of("agg(x, y) = min(x, y); zero = 0", "i64").first, gql::Monoid::user);
}

// Whether a semiring with `agg` and a stated `terminal` over `type` is accepted; the error names the terminal.
bool terminal_accepted(const std::string& agg, const std::string& terminal, const std::string& type) {
  Compiler c(Options{});
  const std::string text = "semiring s(a: " + type + ", b: " + type + ") -> " + type + " { con(a, b) = a; " + agg +
                           "; terminal = " + terminal + "; }";
  const bool ok = c.compile_source("t.gql", text);
  if (!ok) {
    EXPECT_NE(c.rendered_diagnostics().find("terminal of semiring 's'"), std::string::npos) << c.rendered_diagnostics();
  }
  return ok;
}

TEST(Frontend, StatedTerminalMustAbsorb) {
  EXPECT_TRUE(terminal_accepted("agg(x, y) = max(x, y); zero = -inf", "inf", "i64"));
  EXPECT_TRUE(terminal_accepted("agg(x, y) = x * y; zero = 1", "0", "i32"));
  EXPECT_FALSE(terminal_accepted("agg(x, y) = max(x, y); zero = -inf", "5", "i64"));  // max(5, 7) = 7
  EXPECT_FALSE(terminal_accepted("agg(x, y) = x + y; zero = 0", "255", "u8"));        // wraps: 255 + 1 = 0
  EXPECT_TRUE(terminal_accepted("agg = max", "inf", "i64"));
  EXPECT_TRUE(terminal_accepted("agg = min", "-inf", "f64"));
  EXPECT_TRUE(terminal_accepted("agg = any", "3", "i64"));  // any value absorbs under 'any'
  EXPECT_FALSE(terminal_accepted("agg = max", "5", "i64"));
  EXPECT_FALSE(terminal_accepted("agg = sum", "0", "i64"));   // sum has no absorbing value
  EXPECT_FALSE(terminal_accepted("agg = prod", "0", "f64"));  // 0 * inf is nan: none for floats
}

TEST(Frontend, NeverThrowsOnAnyPrefixOfAValidProgram) {
  const std::string text = example();
  for (size_t n = 0; n <= text.size(); n += 7) {
    Compiler c(Options{});
    EXPECT_NO_THROW(c.compile_source("prefix.gql", text.substr(0, n)));
  }
}

// The front end says which stage stopped it, so a caller (the JIT) tells a syntax error from the
// rest without parsing again.
TEST(Frontend, SaysWhichStageFailed) {
  const auto stage_of = [](const std::string& text) {
    Compiler c({});
    (void)c.compile_source("stage.gql", text);
    return c.failed_stage();
  };
  EXPECT_EQ(stage_of("kernel f(G: graph<bool>) -> graph<bool> { return G; }"), Stage::none);
  EXPECT_EQ(stage_of("kernel f(G: graph<bool>) -> graph<bool> { return G * ; }"), Stage::parse);
  EXPECT_EQ(stage_of("kernel f(G: graph<bool>) -> graph<bool> { return H; }"), Stage::sema);
  EXPECT_EQ(stage_of("import \"no/such/file.gql\";\n"), Stage::imports);
  EXPECT_EQ(stage_of(std::string((size_t{1} << 20) + 1, ' ')), Stage::read);
  Compiler missing({});
  EXPECT_FALSE(missing.compile_file("/nonexistent/spec.gql"));
  EXPECT_EQ(missing.failed_stage(), Stage::read);
  EXPECT_STREQ(to_string(Stage::sema), "sema");
}

// Past the front end, the generators and the build throw StageError: a gql::Error as before that
// also names its stage.
TEST(Frontend, CodegenAndBuildErrorsNameTheirStage) {
  Options options;
  options.target = ir::Target::cuda;
  Compiler c(options);
  ASSERT_TRUE(c.compile_source("stage.gql", "kernel f(G: graph<bool>) -> graph<bool> { return G; }"))
      << c.rendered_diagnostics();
  try {
    (void)generate_openmp(*c.module(), {});  // a module lowered for CUDA
    FAIL() << "generate_openmp took a CUDA module";
  } catch (const StageError& e) {
    EXPECT_EQ(e.stage(), Stage::codegen);
    EXPECT_EQ(e.kind(), ErrorKind::internal);
  }
  BuildOptions build;
  build.output = ::testing::TempDir() + "/gql_stage_" + std::to_string(::getpid());
  build.compiler = "false";  // a compiler that always fails
  try {
    build_executable("int main() { return 0; }\n", build);
    FAIL() << "a failing compiler built a program";
  } catch (const StageError& e) {
    EXPECT_EQ(e.stage(), Stage::build);
    EXPECT_EQ(e.kind(), ErrorKind::jit);
  }
  std::remove((build.output + ".gql.cpp").c_str());  // kept by the failed build
}

TEST(Frontend, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "const X = " + std::string(5000, '(') + "1" + std::string(5000, ')') + ";";
  EXPECT_GE(errors_of(deep), 1);
  std::string chain = "const X = 1";
  for (int i = 0; i < 100000; ++i) chain += " + 1";
  EXPECT_GE(errors_of(chain + ";"), 1);
  EXPECT_GE(errors_of(std::string(100000, '-') + "1"), 1);
}

}  // namespace
}  // namespace gql::compiler

namespace gql::compiler {
namespace {

// Specs are bounded: a spec and its imports hold at most 1 MiB of text together, so the front end's
// time and memory are bounded (a 4 GiB spec used to hang; 256 imports of 64 MiB each, allowed one by
// one, took 16 GiB); a NUL byte in an import path (which the file system would read as a shorter name)
// is an error.
TEST(FrontendBounds, OversizedSpecsAndNulImportPathsAreRefused) {
  {
    Compiler c({});
    EXPECT_FALSE(c.compile_source("big.gql", std::string((size_t{1} << 20) + 1, ' ')));
    EXPECT_NE(c.rendered_diagnostics().find("big.gql' holds 1048577 bytes; a spec and its imports may hold at most 1 MiB together"),
              std::string::npos)
        << c.rendered_diagnostics();
  }
  {
    Compiler c({});
    EXPECT_FALSE(c.compile_source("nul.gql", std::string("import \"std/semirings.gql\0.x\";\n", 32)));
    EXPECT_NE(c.rendered_diagnostics().find("cannot hold a NUL byte"), std::string::npos) << c.rendered_diagnostics();
  }
}

// Imports count against the same 1 MiB: two files of 600 KB each are each under it, not together.
TEST(FrontendBounds, ImportsShareTheSpecsBound) {
  const std::string dir = ::testing::TempDir() + "/gql_bound_" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string padding = "// " + std::string(600 << 10, 'x') + "\n";
  std::ofstream(dir + "/bound_a.gql") << padding << "const A = 1;\n";
  std::ofstream(dir + "/bound_b.gql") << padding << "const B = 2;\n";
  Compiler one({});
  EXPECT_TRUE(one.compile_source(dir + "/one.gql", "import \"bound_a.gql\";\n")) << one.rendered_diagnostics();
  Compiler two({});
  EXPECT_FALSE(two.compile_source(dir + "/two.gql", "import \"bound_a.gql\";\nimport \"bound_b.gql\";\n"));
  EXPECT_NE(two.rendered_diagnostics().find("two.gql:2:1: error: cannot read import"), std::string::npos)
      << two.rendered_diagnostics();
  EXPECT_NE(two.rendered_diagnostics().find("and the files read before it hold"), std::string::npos)
      << two.rendered_diagnostics();
  EXPECT_NE(two.rendered_diagnostics().find("MiB together [file-too-large]"), std::string::npos)
      << two.rendered_diagnostics();
  std::filesystem::remove_all(dir);
}

// A token is at most 4096 characters, so no message quotes more of one (a 16 MB name once made a
// 16 MB diagnostic).
TEST(FrontendBounds, LongTokensAreRefusedWithoutEchoingThem) {
  for (const std::string& token : {std::string(5000, 'a'), std::string(5000, '9'), '"' + std::string(5000, 's') + '"'}) {
    Compiler c({});
    EXPECT_FALSE(c.compile_source("long.gql", "const X = " + token + ";\n"));
    const std::string shown = c.rendered_diagnostics();
    EXPECT_NE(shown.find(" characters; at most 4096"), std::string::npos) << shown.substr(0, 300);
    EXPECT_LT(shown.size(), 2000u);
  }
}

}  // namespace
}  // namespace gql::compiler
