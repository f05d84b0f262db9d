// Types of scalar expressions: literals that adapt to their context, operators, builtins, casts,
// calls of pure functions; plus the declarations made only of scalars (const, fn).
#include <cmath>
#include <cstdio>
#include <limits>

#include "gql/error.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

// Operations in an expression tree (what using a let copies).
size_t node_count(const ir::Expr& e) {
  size_t n = 1;
  for (const ir::Expr& operand : e.operands) n += node_count(operand);
  return n;
}

const char* const builtin_functions[] = {"min", "max", "abs", "sqrt"};

Value scalar_value(ir::Expr e, bool flexible = false) {
  Value v;
  v.type = Type::scalar(e.type);
  v.scalar = std::move(e);
  v.flexible = flexible;
  return v;
}

std::string type_text(const Value& v) { return v.flexible ? "a literal" : to_string(v.type); }

}  // namespace

std::optional<Type> Analyzer::resolve_type(const ast::TypeExpr& t, const std::map<std::string, Scalar>& type_params) {
  if (t.name.empty()) {
    std::vector<Type> members;
    for (const ast::TypeExpr& m : t.args) {
      auto r = resolve_type(m, type_params);
      if (!r) return std::nullopt;
      if (r->kind == TypeKind::tuple) {
        diagnostics_.error(m.span, DiagnosticId::tuple_use, "tuples cannot be nested");
        return std::nullopt;
      }
      members.push_back(*r);
    }
    return Type::tuple(std::move(members));
  }
  if (t.name == "graph" || t.name == "matrix" || t.name == "vector") {
    if (t.args.size() != 1) {
      diagnostics_.error(t.span, DiagnosticId::malformed_type,
                         "'" + t.name + "' needs an element type, as in " + t.name + "<f64>");
      return std::nullopt;
    }
    auto element = resolve_type(t.args[0], type_params);
    if (!element) return std::nullopt;
    if (!element->is_scalar()) {
      diagnostics_.error(t.args[0].span, DiagnosticId::malformed_type,
                         "the elements of a " + t.name + " must be scalars, not " + to_string(*element));
      return std::nullopt;
    }
    if (t.name == "graph") return Type::graph(element->element);
    if (t.name == "matrix") return Type::matrix(element->element);
    return Type::vector(element->element);
  }
  if (!t.args.empty()) {
    diagnostics_.error(t.span, DiagnosticId::malformed_type, "type '" + t.name + "' takes no element type");
    return std::nullopt;
  }
  if (auto s = scalar_from_name(t.name)) return Type::scalar(*s);
  if (auto it = type_params.find(t.name); it != type_params.end()) return Type::scalar(it->second);
  std::vector<std::string> names = {"bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64",
                                    "f32", "f64", "vertex", "graph", "matrix", "vector"};
  for (const auto& [name, s] : type_params) names.push_back(name);
  report_unknown(t.span, DiagnosticId::unknown_name, "type", t.name, names);
  return std::nullopt;
}

bool Analyzer::coerce(Value& v, Scalar to, Span span, const std::string& what) {
  if (!v.type.is_scalar()) {
    diagnostics_.error(span, DiagnosticId::type_mismatch,
                       what + " must be " + std::string(to_string(to)) + ", found " + to_string(v.type));
    return false;
  }
  if (!v.flexible) {
    if (v.type.element == to) return true;
    diagnostics_.error(span, DiagnosticId::type_mismatch,
                       what + " must be " + std::string(to_string(to)) + ", found " + to_string(v.type) +
                           "; write " + std::string(to_string(to)) + "(...) to convert");
    return false;
  }
  const ir::Expr& e = *v.scalar;
  if (e.kind == ir::ExprKind::infinity) {
    if (to == Scalar::bool_) {
      diagnostics_.error(span, DiagnosticId::type_mismatch, what + " must be bool, found inf");
      return false;
    }
    ir::Expr r = e;
    r.type = to;
    v = scalar_value(std::move(r));
    return true;
  }
  ir::Value value{e.type, e.value};
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%g", e.value.floating);
  std::string shown = e.type == Scalar::f64 ? buffer : std::to_string(e.value.signed_);
  if (e.type == Scalar::u64) shown = std::to_string(e.value.unsigned_);
  bool fits = true;
  if (to == Scalar::bool_) {
    fits = false;
  } else if (is_float(to)) {
    // A decimal beyond f32's range would become an infinity: `inf` says that when it is meant.
    fits = to == Scalar::f64 || !std::isfinite(ir::as_double(value)) ||
           std::isfinite(static_cast<float>(ir::as_double(value)));
  } else if (e.type == Scalar::f64) {
    double d = e.value.floating;
    ir::Value back = ir::convert(ir::convert(value, to), Scalar::f64);
    fits = std::isfinite(d) && std::floor(d) == d && back.v.floating == d;
  } else {
    // Fits when it converts there and back unchanged, its sign kept (2^63 as i64 would come back
    // from -2^63, -1 as u32 from 2^32 - 1).
    ir::Value converted = ir::convert(value, to);
    ir::Value wide = ir::convert(converted, e.type);
    const auto negative = [](const ir::Value& x) { return is_signed(x.type) && x.v.signed_ < 0; };
    bool same = is_signed(e.type) ? wide.v.signed_ == value.v.signed_ : wide.v.unsigned_ == value.v.unsigned_;
    fits = same && negative(value) == negative(converted);
  }
  if (!fits) {
    diagnostics_.error(span, DiagnosticId::literal_out_of_range,
                       what + " must be " + std::string(to_string(to)) + ", but the literal " + shown +
                           " is not a valid " + std::string(to_string(to)));
    return false;
  }
  ir::Value converted = ir::convert(value, to);
  v = scalar_value(ir::make_constant(to, converted.v, e.span));
  return true;
}

// Folds an expression made only of flexible literals, keeping it flexible.
static Value fold_flexible(const ir::Module& module, ir::Expr e) {
  ir::Value r = ir::evaluate(e, module, {});
  return scalar_value(ir::make_constant(r.type, r.v, e.span), true);
}

// A negated literal of type u64 (2^63 or more, or an expression of one) is an i64 literal: -2^63 is
// i64's lowest value, and below it no type holds the value.
std::optional<Value> Analyzer::negated_big_literal(const ir::Expr& literal, Span span) {
  const uint64_t magnitude = literal.value.unsigned_;
  if (magnitude > uint64_t{1} << 63) {
    diagnostics_.error(span, DiagnosticId::literal_out_of_range,
                       "the literal -" + std::to_string(magnitude) + " is below the lowest i64, -9223372036854775808");
    return std::nullopt;
  }
  ir::Constant c;
  c.signed_ = static_cast<int64_t>(0 - magnitude);
  return scalar_value(ir::make_constant(Scalar::i64, c, span), true);
}

std::optional<Value> Analyzer::scalar_unary(const std::string& op, Value v, Span span) {
  if (!v.type.is_scalar()) {
    diagnostics_.error(span, DiagnosticId::operand_type,
                       "operator '" + op + "' needs a scalar, found " + to_string(v.type));
    return std::nullopt;
  }
  Scalar t = v.type.element;
  if (op == "!") {
    if (t != Scalar::bool_) {
      diagnostics_.error(span, DiagnosticId::operand_type, "operator '!' needs a bool, found " + type_text(v));
      return std::nullopt;
    }
  } else if (!is_numeric(t) || t == Scalar::vertex || (!is_signed(t) && !v.flexible)) {
    diagnostics_.error(span, DiagnosticId::operand_type, "operator '-' needs a signed number, found " + type_text(v));
    return std::nullopt;
  }
  if (v.flexible && v.scalar->kind == ir::ExprKind::infinity) {
    v.scalar->negative = !v.scalar->negative;
    return v;
  }
  if (v.flexible && t == Scalar::u64) return negated_big_literal(*v.scalar, span);
  ir::Expr e;
  e.kind = ir::ExprKind::unary;
  e.unary = op == "!" ? ir::UnaryOp::logical_not : ir::UnaryOp::negate;
  e.type = t;
  e.span = span;
  e.operands.push_back(std::move(*v.scalar));
  if (v.flexible) return fold_flexible(module_, std::move(e));
  return scalar_value(std::move(e));
}

std::optional<Value> Analyzer::scalar_binary(const std::string& op, Value l, Value r, Span span) {
  if (!l.type.is_scalar() || !r.type.is_scalar()) {
    const Value& bad = l.type.is_scalar() ? r : l;
    std::string hint = op == "*" && bad.type.is_container() ? " (a product of containers needs 'over SEMIRING')" : "";
    diagnostics_.error(span, DiagnosticId::operand_type,
                       "operator '" + op + "' needs scalars, found " + to_string(bad.type) + hint);
    return std::nullopt;
  }
  static const std::map<std::string, ir::BinaryOp> ops = {
      {"+", ir::BinaryOp::add}, {"-", ir::BinaryOp::sub}, {"*", ir::BinaryOp::mul}, {"/", ir::BinaryOp::div},
      {"%", ir::BinaryOp::mod}, {"==", ir::BinaryOp::eq}, {"!=", ir::BinaryOp::ne}, {"<", ir::BinaryOp::lt},
      {"<=", ir::BinaryOp::le}, {">", ir::BinaryOp::gt}, {">=", ir::BinaryOp::ge},
      {"&&", ir::BinaryOp::logical_and}, {"||", ir::BinaryOp::logical_or}};
  ir::BinaryOp kind = ops.at(op);
  bool logical = kind == ir::BinaryOp::logical_and || kind == ir::BinaryOp::logical_or;
  bool comparison = kind >= ir::BinaryOp::eq && kind <= ir::BinaryOp::ge;
  bool flexible = l.flexible && r.flexible;
  if (flexible) {
    // Two literals: integers stay i64 unless a float is involved.
    Scalar common = (l.type.element == Scalar::f64 || r.type.element == Scalar::f64) ? Scalar::f64
                    : (l.type.element == Scalar::u64 || r.type.element == Scalar::u64) ? Scalar::u64
                                                                                      : Scalar::i64;
    if (l.scalar->kind == ir::ExprKind::infinity || r.scalar->kind == ir::ExprKind::infinity) common = Scalar::f64;
    if (!coerce(l, common, span, "operand") || !coerce(r, common, span, "operand")) return std::nullopt;
  } else if (l.flexible) {
    if (!coerce(l, r.type.element, l.scalar->span.end ? l.scalar->span : span, "left operand of '" + op + "'")) return std::nullopt;
  } else if (r.flexible) {
    if (!coerce(r, l.type.element, r.scalar->span.end ? r.scalar->span : span, "right operand of '" + op + "'")) return std::nullopt;
  }
  Scalar t = l.type.element;
  if (r.type.element != t) {
    diagnostics_.error(span, DiagnosticId::type_mismatch,
                       "operands of '" + op + "' have different types " + to_string(l.type) + " and " +
                           to_string(r.type) + "; convert one, as in " + std::string(to_string(t)) + "(...)");
    return std::nullopt;
  }
  if (logical && t != Scalar::bool_) {
    diagnostics_.error(span, DiagnosticId::operand_type,
                       "operator '" + op + "' needs bool operands, found " + to_string(l.type));
    return std::nullopt;
  }
  if (!logical && !comparison && (t == Scalar::bool_ || t == Scalar::vertex)) {
    diagnostics_.error(span, DiagnosticId::operand_type,
                       "operator '" + op + "' needs numbers, found " + to_string(l.type) +
                           (t == Scalar::vertex ? "; convert vertex ids with i64(...)" : ""));
    return std::nullopt;
  }
  if (comparison && t == Scalar::bool_ && kind != ir::BinaryOp::eq && kind != ir::BinaryOp::ne) {
    diagnostics_.error(span, DiagnosticId::operand_type, "operator '" + op + "' does not order bool values");
    return std::nullopt;
  }
  ir::Expr e;
  e.kind = ir::ExprKind::binary;
  e.binary = kind;
  e.type = comparison ? Scalar::bool_ : t;
  e.span = span;
  e.operands.push_back(std::move(*l.scalar));
  e.operands.push_back(std::move(*r.scalar));
  if (flexible) {
    try {
      Value folded = fold_flexible(module_, std::move(e));
      if (comparison) folded.flexible = false;
      return folded;
    } catch (const Error& error) {
      diagnostics_.error(span, DiagnosticId::constant_evaluation, error.reason());
      return std::nullopt;
    }
  }
  return scalar_value(std::move(e));
}

std::optional<Value> Analyzer::builtin_call(const std::string& name, std::vector<Value> args, Span span) {
  for (const Value& a : args) {
    if (!a.type.is_scalar()) {
      diagnostics_.error(span, DiagnosticId::argument_kind, "'" + name + "' takes scalars, found " + to_string(a.type));
      return std::nullopt;
    }
  }
  auto arity = [&](size_t n) {
    if (args.size() == n) return true;
    diagnostics_.error(span, DiagnosticId::argument_count,
                       "'" + name + "' takes " + std::to_string(n) + " argument" + (n == 1 ? "" : "s") +
                           ", found " + std::to_string(args.size()));
    return false;
  };
  if (auto cast_to = scalar_from_name(name)) {
    if (!arity(1)) return std::nullopt;
    if (args[0].flexible) {
      Value v = args[0];
      if (v.scalar->kind == ir::ExprKind::infinity) {
        if (!coerce(v, *cast_to, span, "argument of " + name)) return std::nullopt;
        return v;
      }
      ir::Value converted = ir::convert(ir::Value{v.scalar->type, v.scalar->value}, *cast_to);
      return scalar_value(ir::make_constant(*cast_to, converted.v, span));
    }
    if (args[0].type.element == *cast_to) return args[0];
    ir::Expr e;
    e.kind = ir::ExprKind::cast;
    e.type = *cast_to;
    e.span = span;
    e.operands.push_back(std::move(*args[0].scalar));
    return scalar_value(std::move(e));
  }
  if (name == "min" || name == "max" || name == "abs" || name == "sqrt") {
    bool binary = name == "min" || name == "max";
    if (!arity(binary ? 2 : 1)) return std::nullopt;
    bool flexible = true;
    for (const Value& a : args) flexible = flexible && a.flexible;
    if (binary) {
      if (args[0].flexible && !args[1].flexible && !coerce(args[0], args[1].type.element, span, "argument of " + name)) return std::nullopt;
      if (args[1].flexible && !args[0].flexible && !coerce(args[1], args[0].type.element, span, "argument of " + name)) return std::nullopt;
      if (flexible && args[0].type.element != args[1].type.element) {
        if (!coerce(args[0], Scalar::f64, span, "argument") || !coerce(args[1], Scalar::f64, span, "argument")) return std::nullopt;
      }
      if (args[0].type.element != args[1].type.element) {
        diagnostics_.error(span, DiagnosticId::type_mismatch,
                           "arguments of '" + name + "' have different types " + to_string(args[0].type) +
                               " and " + to_string(args[1].type));
        return std::nullopt;
      }
    }
    Scalar t = args[0].type.element;
    if (name == "sqrt" && !is_float(t)) {
      if (args[0].flexible && coerce(args[0], Scalar::f64, span, "argument of sqrt")) {
        t = Scalar::f64;
      } else {
        if (!args[0].flexible)
          diagnostics_.error(span, DiagnosticId::operand_type,
                             "'sqrt' needs f32 or f64, found " + to_string(args[0].type) + "; write sqrt(f64(...))");
        return std::nullopt;
      }
    }
    if ((name == "abs" && (!is_numeric(t) || t == Scalar::vertex)) || (binary && t == Scalar::vertex)) {
      diagnostics_.error(span, DiagnosticId::operand_type,
                         "'" + name + "' needs numbers, found " + to_string(args[0].type));
      return std::nullopt;
    }
    ir::Expr e;
    e.kind = ir::ExprKind::builtin;
    e.builtin = name == "min" ? ir::Builtin::min : name == "max" ? ir::Builtin::max
                : name == "abs" ? ir::Builtin::abs : ir::Builtin::sqrt;
    e.type = t;
    e.span = span;
    for (Value& a : args) e.operands.push_back(std::move(*a.scalar));
    if (flexible) return fold_flexible(module_, std::move(e));
    return scalar_value(std::move(e));
  }
  auto it = functions_.find(name);
  if (it == functions_.end()) {
    if (function_decls_.count(name)) {
      diagnostics_.error(span, DiagnosticId::use_before_definition,
                         "function '" + name + "' is used before its definition (or its definition has errors); "
                         "a function may call only functions defined above it");
      return std::nullopt;
    }
    std::vector<std::string> candidates(std::begin(builtin_functions), std::end(builtin_functions));
    for (const auto& [fn, index] : functions_) candidates.push_back(fn);
    report_unknown(span, DiagnosticId::unknown_name, "function", name, candidates);
    return std::nullopt;
  }
  const ir::Function& f = module_.functions.at(static_cast<size_t>(it->second));
  if (!arity(f.parameter_types.size())) return std::nullopt;
  ir::Expr e;
  e.kind = ir::ExprKind::call;
  e.callee = f.name;
  e.type = f.result;
  e.span = span;
  for (size_t i = 0; i < args.size(); ++i) {
    if (!coerce(args[i], f.parameter_types[i], span, "argument " + std::to_string(i + 1) + " of '" + name + "'")) return std::nullopt;
    e.operands.push_back(std::move(*args[i].scalar));
  }
  return scalar_value(std::move(e));
}

std::optional<Value> Analyzer::pure_value(const ast::Expr& e, PureContext& context, int depth) {
  if (!e.over.empty()) {
    diagnostics_.error(e.over_span, DiagnosticId::over_clause,
                       "'over' applies only to products and closures of containers");
    return std::nullopt;
  }
  switch (e.kind) {
    case ast::ExprKind::integer: {
      bool big = e.int_value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
      ir::Constant c;
      c.signed_ = static_cast<int64_t>(e.int_value);
      c.unsigned_ = e.int_value;
      return scalar_value(ir::make_constant(big ? Scalar::u64 : Scalar::i64, c, e.span), true);
    }
    case ast::ExprKind::floating: {
      ir::Constant c;
      c.floating = e.float_value;
      return scalar_value(ir::make_constant(Scalar::f64, c, e.span), true);
    }
    case ast::ExprKind::boolean: {
      ir::Constant c;
      c.boolean = e.bool_value;
      return scalar_value(ir::make_constant(Scalar::bool_, c, e.span));
    }
    case ast::ExprKind::infinity: {
      ir::Expr inf;
      inf.kind = ir::ExprKind::infinity;
      inf.type = Scalar::f64;
      inf.span = e.span;
      return scalar_value(std::move(inf), true);
    }
    case ast::ExprKind::name: {
      if (auto it = context.names.find(e.text); it != context.names.end()) {
        if (context.inlined_nodes != nullptr) {
          const bool within = *context.inlined_nodes <= max_inlined_nodes;  // said once, where it crosses
          *context.inlined_nodes += node_count(it->second);
          if (*context.inlined_nodes > max_inlined_nodes) {
            if (within) diagnostics_.error(e.span, DiagnosticId::expression_too_large,
                                           context.what + " grows past " + std::to_string(max_inlined_nodes) +
                                           " operations here: each use of a 'let' copies its value; use each "
                                           "value fewer times or split the body into functions");
            return std::nullopt;
          }
        }
        ir::Expr found = it->second;
        found.span = e.span;
        return scalar_value(std::move(found));
      }
      if (auto it = constants_.find(e.text); it != constants_.end()) {
        ir::Expr found = it->second;
        found.span = e.span;
        return scalar_value(std::move(found), constant_flexible_[e.text]);
      }
      if ((e.text == "i" || e.text == "k" || e.text == "j") && !context.positions) {
        diagnostics_.error(e.span, DiagnosticId::misused_name,
                           "positional '" + e.text + "' is only available in a semiring's con");
        return std::nullopt;
      }
      if (constant_decls_.count(e.text)) {
        diagnostics_.error(e.span, DiagnosticId::use_before_definition,
                           "constant '" + e.text + "' is used before its definition (or its definition has errors)");
        return std::nullopt;
      }
      std::vector<std::string> candidates;
      for (const auto& [name, value] : context.names) candidates.push_back(name);
      for (const auto& [name, value] : constants_) candidates.push_back(name);
      report_unknown(e.span, DiagnosticId::unknown_name, "name", e.text, candidates);
      return std::nullopt;
    }
    case ast::ExprKind::unary: {
      auto operand = pure_value(e.args[0], context, depth + 1);
      if (!operand) return std::nullopt;
      return scalar_unary(e.text, std::move(*operand), e.span);
    }
    case ast::ExprKind::binary: {
      auto l = pure_value(e.args[0], context, depth + 1);
      auto r = pure_value(e.args[1], context, depth + 1);
      if (!l || !r) return std::nullopt;
      return scalar_binary(e.text, std::move(*l), std::move(*r), e.span);
    }
    case ast::ExprKind::call: {
      std::vector<Value> args;
      bool ok = true;
      for (size_t i = 0; i < e.args.size(); ++i) {
        if (!e.arg_names[i].empty()) {
          diagnostics_.error(e.args[i].span, DiagnosticId::named_argument,
                             "'" + e.text + "' takes no named argument '" + e.arg_names[i] + "'");
          ok = false;
          continue;
        }
        auto a = pure_value(e.args[i], context, depth + 1);
        if (!a) ok = false;
        else args.push_back(std::move(*a));
      }
      if (!ok) return std::nullopt;
      return builtin_call(e.text, std::move(args), e.span);
    }
    case ast::ExprKind::index:
    case ast::ExprKind::tuple:
      diagnostics_.error(e.span, DiagnosticId::scalar_expected, context.what + " must be a scalar expression");
      return std::nullopt;
  }
  return std::nullopt;
}

std::optional<ir::Expr> Analyzer::lower_pure(const ast::Expr& e, PureContext& context, std::optional<Scalar> expected) {
  auto v = pure_value(e, context, 0);
  if (!v) return std::nullopt;
  if (expected && !coerce(*v, *expected, e.span, context.what)) return std::nullopt;
  if (v->flexible && !expected) {
    // A literal with nothing to adapt to takes its natural type: i64, u64 or f64.
    Scalar natural = v->scalar->type;
    if (!coerce(*v, natural, e.span, context.what)) return std::nullopt;
  }
  return std::move(v->scalar);
}

std::optional<ir::Expr> Analyzer::lower_pure_body(const ast::Body& body, PureContext& context,
                                                  std::optional<Scalar> expected) {
  if (body.value) return lower_pure(*body.value, context, expected);
  PureContext inner = context;
  size_t inlined = 0;
  if (inner.inlined_nodes == nullptr) inner.inlined_nodes = &inlined;
  for (const ast::Stmt& s : body.statements) {
    if (s.kind == ast::StmtKind::return_) return lower_pure(*s.value, inner, expected);
    std::optional<Scalar> declared;
    if (s.type) {
      auto t = resolve_type(*s.type, {});
      if (!t) return std::nullopt;
      if (!t->is_scalar()) {
        diagnostics_.error(s.type->span, DiagnosticId::scalar_expected, context.what + " may only hold scalars");
        return std::nullopt;
      }
      declared = t->element;
    }
    auto value = lower_pure(*s.value, inner, declared);
    if (!value) return std::nullopt;
    inner.names[s.name] = std::move(*value);
  }
  diagnostics_.error(body.span, DiagnosticId::missing_return, context.what + " ends without 'return'");
  return std::nullopt;
}

void Analyzer::check_constant(const ast::Const& c) {
  PureContext context;
  context.what = "constant '" + c.name + "'";
  if (c.type) {
    auto t = resolve_type(*c.type, {});
    if (!t) return;
    if (!t->is_scalar()) {
      diagnostics_.error(c.type->span, DiagnosticId::scalar_expected,
                         "a constant must be a scalar, not " + to_string(*t));
      return;
    }
    auto v = lower_pure(c.value, context, t->element);
    if (!v) return;
    try {
      ir::Value folded = ir::evaluate(*v, module_, {});
      ir::Expr e = v->kind == ir::ExprKind::infinity ? *v : ir::make_constant(folded.type, folded.v, c.value.span);
      constants_[c.name] = e;
      constant_flexible_[c.name] = false;
      module_.constants.push_back({c.name, e, c.span});
    } catch (const Error& error) {
      diagnostics_.error(c.value.span, DiagnosticId::constant_evaluation, context.what + ": " + error.reason());
    }
    return;
  }
  auto v = pure_value(c.value, context, 0);
  if (!v) return;
  try {
    ir::Expr e = *v->scalar;
    if (e.kind != ir::ExprKind::infinity) {
      ir::Value folded = ir::evaluate(e, module_, {});
      e = ir::make_constant(folded.type, folded.v, c.value.span);
    }
    constants_[c.name] = e;
    constant_flexible_[c.name] = v->flexible;
    module_.constants.push_back({c.name, e, c.span});
  } catch (const Error& error) {
    diagnostics_.error(c.value.span, DiagnosticId::constant_evaluation, context.what + ": " + error.reason());
  }
}

void Analyzer::check_function(const ast::Function& f) {
  if (!check_pure_body(f.body, "function '" + f.name + "'")) return;
  PureContext context;
  context.what = "the body of function '" + f.name + "'";
  ir::Function fn;
  fn.name = f.name;
  fn.span = f.span;
  bool ok = true;
  for (size_t i = 0; i < f.params.size(); ++i) {
    const ast::Param& p = f.params[i];
    auto t = resolve_type(*p.type, {});
    if (!t) {
      ok = false;
      continue;
    }
    if (!t->is_scalar()) {
      diagnostics_.error(p.type->span, DiagnosticId::scalar_expected,
                         "parameters of a function must be scalars, not " + to_string(*t));
      ok = false;
      continue;
    }
    if (context.names.count(p.name)) {
      diagnostics_.error(p.span, DiagnosticId::redefinition, "duplicate parameter '" + p.name + "'");
      ok = false;
    }
    ir::Expr param;
    param.kind = ir::ExprKind::parameter;
    param.type = t->element;
    param.index = static_cast<int>(i);
    context.names[p.name] = param;
    fn.parameter_names.push_back(p.name);
    fn.parameter_types.push_back(t->element);
  }
  std::optional<Scalar> result;
  if (f.result) {
    auto t = resolve_type(*f.result, {});
    if (!t) return;
    if (!t->is_scalar()) {
      diagnostics_.error(f.result->span, DiagnosticId::scalar_expected,
                         "a function returns a scalar, not " + to_string(*t));
      return;
    }
    result = t->element;
  }
  if (!ok) return;
  auto body = lower_pure_body(f.body, context, result);
  if (!body) return;
  fn.result = body->type;
  fn.body = std::move(*body);
  functions_[f.name] = static_cast<int>(module_.functions.size());
  module_.functions.push_back(std::move(fn));
}

}  // namespace gql::compiler::sema
