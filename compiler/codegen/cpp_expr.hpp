// Scalar expression trees as C++ expressions (shared by the OpenMP and CUDA generators: the
// same text compiles on the host and, inside GQL_HD functions, on the device).
#pragma once

#include <functional>
#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::codegen {

// How the leaves of a tree are spelled where it is emitted.
struct ExprNames {
  std::function<std::string(int)> variable;   // kernel variable id -> C++ name
  std::function<std::string(int)> parameter;  // function/element-function parameter index
  std::function<std::string(int)> operand;    // con: a, b; agg: x, y
  std::function<std::string(int)> position;   // con: i, k, j
};

std::string cpp_scalar_type(Scalar s);
std::string cpp_literal(const ir::Expr& constant);
// `left op right` for an arithmetic op (+ - * / %) on `type` as the language defines it: wrapping and
// defined for every operand on integers (gql/integer_ops.hpp), IEEE's on floats.
std::string arithmetic(ir::BinaryOp op, Scalar type, const std::string& left, const std::string& right);
std::string emit_expr(const ir::Expr& expr, const ExprNames& names);
// A C++ string literal holding `text` byte for byte (quotes, backslashes and bytes outside
// printable ASCII escaped).
std::string cpp_string_literal(const std::string& text);

}  // namespace gql::compiler::codegen
