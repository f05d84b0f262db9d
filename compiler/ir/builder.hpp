// Helpers to build a kernel's IR: variables, temporaries and op statements.
#pragma once

#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::ir {

class KernelBuilder {
 public:
  explicit KernelBuilder(Kernel& kernel) : kernel_(kernel) {}

  int add_variable(std::string name, Type type, VariableRole role, bool immutable, Span span);
  int add_temporary(Type type, Span span);
  const Variable& variable(int id) const { return kernel_.variables.at(static_cast<size_t>(id)); }
  Kernel& kernel() { return kernel_; }

  static Stmt declare(int variable, std::optional<Expr> value, Span span);
  static Stmt op_statement(Op op);
  static Expr variable_expr(const Variable& v, Span span);

 private:
  Kernel& kernel_;
  int temporaries_ = 0;
};

}  // namespace gql::compiler::ir
