#include "ir/builder.hpp"

#include <utility>

namespace gql::compiler::ir {

int KernelBuilder::add_variable(std::string name, Type type, VariableRole role, bool immutable, Span span) {
  Variable v;
  v.id = static_cast<int>(kernel_.variables.size());
  v.name = std::move(name);
  v.type = std::move(type);
  v.role = role;
  v.immutable = immutable;
  v.span = span;
  kernel_.variables.push_back(std::move(v));
  return kernel_.variables.back().id;
}

int KernelBuilder::add_temporary(Type type, Span span) {
  return add_variable("%t" + std::to_string(temporaries_++), std::move(type), VariableRole::temporary,
                      false, span);
}

Stmt KernelBuilder::declare(int variable, std::optional<Expr> value, Span span) {
  Stmt s;
  s.kind = StmtKind::declare;
  s.variable = variable;
  s.value = std::move(value);
  s.span = span;
  return s;
}

Stmt KernelBuilder::op_statement(Op op) {
  Stmt s;
  s.kind = StmtKind::op;
  s.span = op.span;
  s.op = std::move(op);
  return s;
}

Expr KernelBuilder::variable_expr(const Variable& v, Span span) {
  Expr e;
  e.kind = ExprKind::variable;
  e.type = v.type.element;
  e.index = v.id;
  e.span = span;
  return e;
}

}  // namespace gql::compiler::ir
