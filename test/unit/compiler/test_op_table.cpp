// The op table (gql/compiler/ops.def): its rows are consistent, and every op of a generic form is
// checked, placed and emitted from its row alone: a spec that calls it compiles for both targets
// into a call of the runtime function the row names, and a spec that calls it on a kind of
// container the row does not take is refused with the kinds it does.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "gql/compiler/codegen.hpp"
#include "gql/compiler/compiler.hpp"
#include "gql/compiler/op_table.hpp"

namespace gql::compiler {
namespace {

TEST(OpTable, RowsAreConsistent) {
  std::set<std::string> names, spec_names;
  for (size_t n = 0; n < ir::op_table().size(); ++n) {
    const ir::OpInfo& op = ir::op_table()[n];
    SCOPED_TRACE(op.name);
    EXPECT_EQ(static_cast<size_t>(op.kind), n);  // op_info indexes the table by kind
    EXPECT_EQ(&ir::op_info(op.kind), &op);
    EXPECT_TRUE(names.insert(op.name).second);
    EXPECT_STREQ(ir::to_string(op.kind), op.name);
    if (*op.spec_name) {
      EXPECT_TRUE(spec_names.insert(op.spec_name).second);
      EXPECT_EQ(ir::op_named(op.spec_name), &op);
    }
    if (op.form != ir::OpForm::special) {
      EXPECT_NE(*op.spec_name, '\0') << "an op of a generic form is called by its spec name";
      EXPECT_NE(op.operand_kinds, 0);
      EXPECT_FALSE(op.makes_scalar);
    }
    EXPECT_TRUE(op.device != ir::DeviceRule::by_kind || op.device_kinds != 0);
    EXPECT_TRUE(!*op.offset || op.form == ir::OpForm::structural);
    EXPECT_TRUE(!op.keeps_unmatched || op.form == ir::OpForm::combine);
  }
  EXPECT_EQ(ir::op_named("graph"), nullptr);  // constructors are type names, not ops of the table
  EXPECT_EQ(ir::op_named(""), nullptr);
}

TEST(OpTable, KindsText) {
  EXPECT_EQ(ir::container_kinds_text(ir::graphs), "a graph");
  EXPECT_EQ(ir::container_kinds_text(ir::graphs | ir::matrices), "a graph or matrix");
  EXPECT_EQ(ir::container_kinds_text(ir::graphs | ir::matrices | ir::vectors), "a graph, matrix or vector");
}

// A call of `op` on X (and X again for a combine), with a function of the elements where the form takes one.
std::string call_of(const ir::OpInfo& op, const std::string& x) {
  const std::string name = op.spec_name;
  switch (op.form) {
    case ir::OpForm::structural: return name + "(" + x + (*op.offset ? ", 1" : "") + ")";
    case ir::OpForm::map: return name + "(" + x + ", abs)";
    case ir::OpForm::combine: return name + "(" + x + ", " + x + ", plus)";
    case ir::OpForm::special: break;
  }
  return "";
}

std::string generated(const std::string& spec, ir::Target target, std::string* diagnostics) {
  Options options;
  options.target = target;
  Compiler c(options);
  if (!c.compile_source("op.gql", spec)) {
    *diagnostics = c.rendered_diagnostics();
    return "";
  }
  CodegenOptions codegen;
  return target == ir::Target::cuda ? generate_cuda(*c.module(), codegen) : generate_openmp(*c.module(), codegen);
}

TEST(OpTable, GenericFormsCompileFromTheirRowAlone) {
  size_t generic = 0;
  for (const ir::OpInfo& op : ir::op_table()) {
    if (op.form == ir::OpForm::special) continue;
    ++generic;
    SCOPED_TRACE(op.name);
    for (auto [bit, type] : {std::pair{ir::graphs, "graph<f32>"}, std::pair{ir::matrices, "matrix<f32>"},
                             std::pair{ir::vectors, "vector<f32>"}}) {
      const std::string spec = std::string("kernel k(X: ") + type + ") -> " + type + " { return " + call_of(op, "X") + "; }\n";
      for (ir::Target target : {ir::Target::openmp, ir::Target::cuda}) {
        std::string diagnostics;
        const std::string source = generated(spec, target, &diagnostics);
        if (!(op.operand_kinds & bit)) {
          EXPECT_EQ(source, "");
          EXPECT_NE(diagnostics.find(std::string(op.spec_name) + " takes " + ir::container_kinds_text(op.operand_kinds)),
                    std::string::npos)
              << diagnostics;
          continue;
        }
        ASSERT_NE(source, "") << spec << diagnostics;
        // Where the row puts a graph op on the device, the CUDA program calls the GPU's function.
        const bool device = target == ir::Target::cuda && op.device == ir::DeviceRule::by_kind && (op.device_kinds & bit);
        const std::string call = std::string(device ? "gql::gpu::" : "gql::cpu::") + op.function() + "(";
        EXPECT_NE(source.find(call), std::string::npos) << spec << " for " << ir::to_string(target) << ": no " << call;
      }
    }
  }
  EXPECT_GE(generic, 6u);  // transpose, tril, triu, apply, union, intersect
}

}  // namespace
}  // namespace gql::compiler
