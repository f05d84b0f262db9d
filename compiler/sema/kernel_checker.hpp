// The checker of one kernel: its variables and scopes, statements (check_kernel.cpp), scalar
// expressions and calls (check_expressions.cpp) and container operations (check_container_ops.cpp),
// lowered into IR statements as they are checked. Private to sema.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gql/compiler/op_table.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

// Whether `e` makes a container: a product over a semiring, or a call of a container op.
bool is_container_op(const ast::Expr& e);
// "graph", "matrix", "vector", or the type's text.
std::string kind_name(const Type& t);

// Where an op writes: an existing variable (with mask), a new named variable, or a temporary.
struct OpOutput {
  Destination destination;
  std::function<int(const Type&)> make;  // creates the output variable when destination.variable < 0
  Span span;
};

class KernelChecker {
 public:
  KernelChecker(Analyzer& analyzer, const ast::Kernel& k)
      : a_(analyzer), d_(analyzer.diagnostics_), ast_(k), builder_(kernel_) {
    kernel_.name = k.name;
    kernel_.span = k.span;
  }
  std::optional<ir::Kernel> run();
 private:
  // ---- names --------------------------------------------------------------------------------
  int lookup(const std::string& name) const;
  bool declare_name(const std::string& name, int id, Span span);
  // A name whose declaration failed: later uses stay quiet instead of reporting it unknown.
  void poison(const std::string& name, Span span);
  bool poisoned(int id) const { return id >= 0 && !var(id).type.is_valid(); }
  std::vector<std::string> visible_names() const;
  const ir::Variable& var(int id) const { return builder_.variable(id); }
  // ---- statements ---------------------------------------------------------------------------
  void block(const std::vector<ast::Stmt>& list, ir::Block& out);
  void statement(const ast::Stmt& s, ir::Block& out);
  // require(cond, "message"): the condition's container work runs before it, as an if's does.
  void requirement(const ast::Stmt& s, ir::Block& out);
  // Where a span starts, as a failure at run time reports it.
  ir::SourcePosition position(Span span) const;
  std::optional<ir::Expr> condition(const ast::Expr& e, ir::Block& out);
  OpOutput new_variable_target(const ast::Stmt& s, std::optional<Type> declared, bool immutable, ir::Block& out);
  void declaration(const ast::Stmt& s, ir::Block& out);
  void declare_checked(const ast::Stmt& s, ir::Block& out);
  std::optional<ir::Mask> mask(const ast::Mask& m, const Type& output);
  void assignment(const ast::Stmt& s, ir::Block& out);
  // v[i], A[i, j]: the entry stored there, a scalar of the container's element type (reading where
  // nothing is stored fails at run time).
  std::optional<Value> element_read(const ast::Expr& e, ir::Block& out);
  // An element of v takes one index for a vector, two for a graph or a matrix.
  bool element_count_ok(const ir::Variable& v, const ast::Expr& target);
  void element_assignment(const ast::Stmt& s, ir::Block& out);
  void return_statement(const ast::Stmt& s, ir::Block& out);
  std::string result_text() const;
  // ---- expressions --------------------------------------------------------------------------
  std::optional<ir::Expr> convert_element(Value v, Scalar to, Span span);
  std::optional<ir::Expr> shape_value(const ast::Expr& e, ir::Block& out, const std::string& what);
  std::optional<Value> value(const ast::Expr& e, ir::Block& out, int depth);
  std::optional<Value> name_value(const ast::Expr& e);
  std::optional<Value> container_argument(const ast::Expr& e, ir::Block& out, int depth, const std::string& what);
  bool positional_arguments(const ast::Expr& e, size_t min, size_t max);
  std::optional<Value> call_value(const ast::Expr& e, ir::Block& out, int depth);
  // ---- container operations ----------------------------------------------------------------
  ir::Op new_op(ir::OpKind kind, const Destination& destination, Span span);
  void emit(ir::Op op, ir::Block& out);
  // The output variable for a result of type `result`; checks an existing destination's type.
  std::optional<int> output(OpOutput& t, const Type& result, Span span);
  bool unmaskable(const OpOutput& t, const std::string& what, Span span);
  void copy_into(int source, OpOutput& t, Span span, ir::Block& out);
  std::optional<Value> produced(int id);
  // `op` (its inputs and arguments set) writing a value of type `result` where `t` says: its output
  // checked or made, the op emitted, and its output returned as the value.
  std::optional<Value> written(ir::Op op, const Type& result, OpOutput& t, ir::Block& out);
  // A call of an op of the op table (gql/compiler/ops.def), checked by its form, or a product.
  std::optional<Value> container_op(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  bool operand_kind_ok(const ir::OpInfo& info, const Value& x, Span span);
  std::optional<Value> structural_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  std::optional<Value> map_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  std::optional<Value> combine_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  std::optional<Value> construct(const ast::Expr& e, OpOutput& t, ir::Block& out);
  std::optional<Value> product(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  std::optional<Value> closure(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  // dense(G, fill = v): the graph as a matrix of its element type, v where G has no entry. The fill
  // is required: no value is right for every use (0 for sums, inf for distances).
  std::optional<Value> densify(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  std::optional<Value> lu(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth);
  // An op with two outputs can only feed a return (or a tuple); its outputs are temporaries.
  std::optional<Value> tuple_result(ir::Op op, std::vector<Type> types, OpOutput& t, Span span, ir::Block& out);
  std::optional<ir::ElementFunction> element_function(const ast::Expr& e, const std::vector<Scalar>& params);

  Analyzer& a_;
  Diagnostics& d_;
  const ast::Kernel& ast_;
  ir::Kernel kernel_;
  ir::KernelBuilder builder_;
  std::vector<std::map<std::string, int>> scopes_;
  std::map<std::string, Span> labels_;
  size_t labelled_ops_ = 0;
  bool results_ok_ = false;
};

}  // namespace gql::compiler::sema
