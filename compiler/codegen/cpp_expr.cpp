#include "codegen/cpp_expr.hpp"

#include <charconv>
#include <cmath>
#include <string>

#include "gql/error.hpp"

namespace gql::compiler::codegen {

std::string cpp_scalar_type(Scalar s) { return std::string(cpp_type(s)); }

namespace {

std::string float_literal(double v, bool single) {
  const char* type = single ? "float" : "double";
  if (std::isnan(v)) return std::string("gql::quiet_nan<") + type + ">()";
  if (std::isinf(v)) return std::string(v > 0 ? "gql::highest<" : "gql::lowest<") + type + ">()";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
  std::string text(buf, r.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return single ? text + "f" : text;
}

// Floating types' infinities; for integers, the type's largest (or lowest) value, which the language
// calls inf for them (gql/scalar_ops.hpp).
std::string infinity(Scalar type, bool negative) {
  return std::string(negative ? "gql::lowest<" : "gql::highest<") + cpp_scalar_type(type) + ">()";
}

const char* binary_token(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::add: return "+";
    case ir::BinaryOp::sub: return "-";
    case ir::BinaryOp::mul: return "*";
    case ir::BinaryOp::div: return "/";
    case ir::BinaryOp::mod: return "%";
    case ir::BinaryOp::eq: return "==";
    case ir::BinaryOp::ne: return "!=";
    case ir::BinaryOp::lt: return "<";
    case ir::BinaryOp::le: return "<=";
    case ir::BinaryOp::gt: return ">";
    case ir::BinaryOp::ge: return ">=";
    case ir::BinaryOp::logical_and: return "&&";
    case ir::BinaryOp::logical_or: return "||";
  }
  return "?";
}

bool is_comparison(ir::BinaryOp op) {
  return op >= ir::BinaryOp::eq && op <= ir::BinaryOp::ge;
}

// The gql/integer_ops.hpp function that computes op on integers as the language defines it.
const char* integer_function(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::add: return "gql::wrapping_add";
    case ir::BinaryOp::sub: return "gql::wrapping_sub";
    case ir::BinaryOp::mul: return "gql::wrapping_mul";
    case ir::BinaryOp::div: return "gql::integer_div";
    case ir::BinaryOp::mod: return "gql::integer_rem";
    default: throw Error(ErrorKind::internal, "codegen: not an arithmetic operator");
  }
}

}  // namespace

std::string arithmetic(ir::BinaryOp op, Scalar type, const std::string& left, const std::string& right) {
  const std::string cpp = cpp_scalar_type(type);
  if (is_integer(type)) return std::string(integer_function(op)) + "<" + cpp + ">(" + left + ", " + right + ")";
  // Float arithmetic is IEEE's (% is C's fmod); the cast keeps f32 operations in f32.
  if (op == ir::BinaryOp::mod) return "gql::builtin_fmod(" + cpp + "(" + left + "), " + cpp + "(" + right + "))";
  return cpp + "(" + left + " " + binary_token(op) + " " + right + ")";
}

std::string cpp_literal(const ir::Expr& c) {
  switch (c.type) {
    case Scalar::bool_: return c.value.boolean ? "true" : "false";
    case Scalar::f32: return float_literal(c.value.floating, true);
    case Scalar::f64: return float_literal(c.value.floating, false);
    case Scalar::u8: case Scalar::u16: case Scalar::u32: case Scalar::u64:
      return cpp_scalar_type(c.type) + "(" + std::to_string(c.value.unsigned_) + "ull)";
    default:
      if (c.value.signed_ == INT64_MIN) return cpp_scalar_type(c.type) + "(-9223372036854775807ll - 1)";
      return cpp_scalar_type(c.type) + "(" + std::to_string(c.value.signed_) + "ll)";
  }
}

std::string emit_expr(const ir::Expr& e, const ExprNames& names) {
  const std::string type = cpp_scalar_type(e.type);
  auto operand = [&](size_t n) { return emit_expr(e.operands.at(n), names); };
  switch (e.kind) {
    case ir::ExprKind::constant: return cpp_literal(e);
    case ir::ExprKind::infinity: return infinity(e.type, e.negative);
    case ir::ExprKind::variable: return names.variable(e.index);
    case ir::ExprKind::parameter: return names.parameter(e.index);
    case ir::ExprKind::operand: return names.operand(e.index);
    case ir::ExprKind::position: return names.position(e.index);
    case ir::ExprKind::unary:
      if (e.unary == ir::UnaryOp::logical_not) return "(!" + operand(0) + ")";
      if (is_integer(e.type)) return "gql::wrapping_neg<" + type + ">(" + operand(0) + ")";
      return type + "(-" + operand(0) + ")";
    case ir::ExprKind::binary:
      if (is_comparison(e.binary) || e.binary == ir::BinaryOp::logical_and || e.binary == ir::BinaryOp::logical_or)
        return "(" + operand(0) + " " + binary_token(e.binary) + " " + operand(1) + ")";
      return arithmetic(e.binary, e.type, operand(0), operand(1));
    case ir::ExprKind::builtin:
      switch (e.builtin) {
        case ir::Builtin::min: return "gql::builtin_min<" + type + ">(" + operand(0) + ", " + operand(1) + ")";
        case ir::Builtin::max: return "gql::builtin_max<" + type + ">(" + operand(0) + ", " + operand(1) + ")";
        case ir::Builtin::abs: return "gql::builtin_abs<" + type + ">(" + operand(0) + ")";
        case ir::Builtin::sqrt: return "gql::builtin_sqrt(" + type + "(" + operand(0) + "))";
      }
      break;
    case ir::ExprKind::call: {
      std::string text = "fn_" + e.callee + "(";
      for (size_t n = 0; n < e.operands.size(); ++n) text += (n ? ", " : "") + operand(n);
      return text + ")";
    }
    case ir::ExprKind::cast:
      if (e.type == Scalar::bool_) return "(" + operand(0) + " != 0)";
      if (is_integer(e.type) && is_float(e.operands.at(0).type))
        return "gql::saturating_cast<" + type + ", " + cpp_scalar_type(e.operands.at(0).type) + ">(" + operand(0) + ")";
      return "static_cast<" + type + ">(" + operand(0) + ")";
    case ir::ExprKind::select:
      return "(" + operand(0) + " ? " + type + "(" + operand(1) + ") : " + type + "(" + operand(2) + "))";
    case ir::ExprKind::dimension: {
      const char* f = e.dimension == ir::Dimension::rows ? "rows" : e.dimension == ir::Dimension::cols ? "cols" : "nvals";
      return "int64_t(gql::" + std::string(f) + "(" + names.variable(e.index) + "))";
    }
  }
  throw Error(ErrorKind::internal, "codegen: unknown expression kind");
}

std::string cpp_string_literal(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte >= 0x20 && byte < 0x7f) {
      out += c;
    } else {  // three octal digits always, so that a digit after it is not read into it
      out += '\\';
      for (int shift : {6, 3, 0}) out += static_cast<char>('0' + ((byte >> shift) & 7));
    }
  }
  return out + "\"";
}

}  // namespace gql::compiler::codegen
