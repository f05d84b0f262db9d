// A kernel's scalar expressions, names and calls: values, shapes, element conversions, the
// container queries (rows, cols, nvals, reduce) and calls of functions.
#include "sema/kernel_checker.hpp"

namespace gql::compiler::sema {

bool is_container_op(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::binary && e.text == "*" && !e.over.empty()) return true;
  return e.kind == ast::ExprKind::call && e.over.empty() && container_producing_calls().count(e.text);
}

std::optional<ir::Expr> KernelChecker::convert_element(Value v, Scalar to, Span span) {
  if (!v.type.is_scalar()) {
    d_.error(span, DiagnosticId::type_mismatch,
             "expected a " + std::string(to_string(to)) + " value, found " + to_string(v.type));
    return std::nullopt;
  }
  if (v.flexible) {
    if (!a_.coerce(v, to, span, "the stored value")) return std::nullopt;
    return std::move(v.scalar);
  }
  if (v.type.element == to) return std::move(v.scalar);
  // Storing into a container converts like GraphBLAS's typecast.
  ir::Expr cast;
  cast.kind = ir::ExprKind::cast;
  cast.type = to;
  cast.span = span;
  cast.operands.push_back(std::move(*v.scalar));
  return cast;
}

std::optional<ir::Expr> KernelChecker::shape_value(const ast::Expr& e, ir::Block& out, const std::string& what) {
  auto v = value(e, out, 0);
  if (!v) return std::nullopt;
  if (!v->type.is_scalar() || !is_integer(v->type.element)) {
    d_.error(e.span, DiagnosticId::type_mismatch,
             what + " must be an integer, found " + (v->type.is_scalar() ? to_string(v->type) : to_string(v->type)));
    return std::nullopt;
  }
  if (v->flexible) {
    if (!a_.coerce(*v, Scalar::i64, e.span, what)) return std::nullopt;
    return std::move(v->scalar);
  }
  return convert_element(std::move(*v), Scalar::i64, e.span);
}

std::optional<Value> KernelChecker::value(const ast::Expr& e, ir::Block& out, int depth) {
  if (is_container_op(e)) {
    OpOutput t;
    t.span = e.span;
    t.make = [this, &e, &out](const Type& type) {
      int id = builder_.add_temporary(type, e.span);
      out.push_back(ir::KernelBuilder::declare(id, std::nullopt, e.span));
      return id;
    };
    auto produced = container_op(e, t, out, depth);
    if (!produced) return std::nullopt;
    return produced;
  }
  if (!e.over.empty()) {
    d_.error(e.over_span, DiagnosticId::over_clause,
             "'over' applies only to a product of containers (A * B over S) or a closure");
    return std::nullopt;
  }
  switch (e.kind) {
    case ast::ExprKind::integer:
    case ast::ExprKind::floating:
    case ast::ExprKind::boolean:
    case ast::ExprKind::infinity: {
      PureContext none;
      return a_.pure_value(e, none, depth);
    }
    case ast::ExprKind::name: return name_value(e);
    case ast::ExprKind::unary: {
      auto operand = value(e.args[0], out, depth + 1);
      if (!operand) return std::nullopt;
      return a_.scalar_unary(e.text, std::move(*operand), e.span);
    }
    case ast::ExprKind::binary: {
      auto l = value(e.args[0], out, depth + 1);
      auto r = value(e.args[1], out, depth + 1);
      if (!l || !r) return std::nullopt;
      if (e.text == "*" && l->type.is_container() && r->type.is_container()) {
        d_.error(e.span, DiagnosticId::over_clause,
                 "the product of " + to_string(l->type) + " and " + to_string(r->type) +
                     " needs a semiring: write 'A * B over SEMIRING'");
        return std::nullopt;
      }
      return a_.scalar_binary(e.text, std::move(*l), std::move(*r), e.span);
    }
    case ast::ExprKind::call: return call_value(e, out, depth);
    case ast::ExprKind::index:
      return element_read(e, out);
      return std::nullopt;
    case ast::ExprKind::tuple: {
      Value t;
      std::vector<Type> types;
      for (const ast::Expr& m : e.args) {
        auto v = value(m, out, depth + 1);
        if (!v) return std::nullopt;
        if (v->type.kind == TypeKind::tuple) {
          d_.error(m.span, DiagnosticId::tuple_use, "tuples cannot be nested");
          return std::nullopt;
        }
        types.push_back(v->type);
        t.members.push_back(std::move(*v));
      }
      t.type = Type::tuple(std::move(types));
      return t;
    }
  }
  return std::nullopt;
}

std::optional<Value> KernelChecker::name_value(const ast::Expr& e) {
  int id = lookup(e.text);
  if (poisoned(id)) return std::nullopt;
  if (id >= 0) {
    const ir::Variable& v = var(id);
    Value out;
    out.type = v.type;
    if (v.type.is_scalar()) out.scalar = ir::KernelBuilder::variable_expr(v, e.span);
    else out.variable = id;
    return out;
  }
  PureContext globals;
  globals.what = "'" + e.text + "'";
  if (a_.constants_.count(e.text)) return a_.pure_value(e, globals, 0);
  if (a_.semirings_.count(e.text)) {
    d_.error(e.span, DiagnosticId::misused_name,
             "'" + e.text + "' is a semiring; use it after 'over', as in A * B over " + e.text);
    return std::nullopt;
  }
  if (a_.function_decls_.count(e.text) || a_.kernels_.count(e.text)) {
    d_.error(e.span, DiagnosticId::misused_name,
             "'" + e.text + "' is a " + std::string(a_.kernels_.count(e.text) ? "kernel" : "function") + ", not a value");
    return std::nullopt;
  }
  a_.report_unknown(e.span, DiagnosticId::unknown_name, "name", e.text, visible_names());
  return std::nullopt;
}

std::optional<Value> KernelChecker::container_argument(const ast::Expr& e, ir::Block& out, int depth, const std::string& what) {
  auto v = value(e, out, depth + 1);
  if (!v) return std::nullopt;
  if (!v->type.is_container()) {
    d_.error(e.span, DiagnosticId::argument_kind, what + " must be a graph, matrix or vector, found " +
                                                      (v->flexible ? std::string("a literal") : to_string(v->type)));
    return std::nullopt;
  }
  return v;
}

bool KernelChecker::positional_arguments(const ast::Expr& e, size_t min, size_t max) {
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (!e.arg_names[i].empty()) {
      d_.error(e.args[i].span, DiagnosticId::named_argument,
               "'" + e.text + "' takes no named argument '" + e.arg_names[i] + "'");
      return false;
    }
  }
  if (e.args.size() < min || e.args.size() > max) {
    std::string count = min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
    d_.error(e.span, DiagnosticId::argument_count,
             "'" + e.text + "' takes " + count + " argument" + (max == 1 ? "" : "s") + ", found " +
                 std::to_string(e.args.size()));
    return false;
  }
  return true;
}

std::optional<Value> KernelChecker::call_value(const ast::Expr& e, ir::Block& out, int depth) {
  const std::string& name = e.text;
  if (name == "rows" || name == "cols" || name == "nvals") {
    if (!positional_arguments(e, 1, 1)) return std::nullopt;
    auto c = container_argument(e.args[0], out, depth, "the argument of '" + name + "'");
    if (!c) return std::nullopt;
    if (name == "cols" && c->type.kind == TypeKind::vector) {
      d_.error(e.span, DiagnosticId::argument_kind, "a vector has no columns; use rows(v) for its length");
      return std::nullopt;
    }
    ir::Expr dim;
    dim.kind = ir::ExprKind::dimension;
    dim.dimension = name == "rows" ? ir::Dimension::rows : name == "cols" ? ir::Dimension::cols : ir::Dimension::nvals;
    dim.index = c->variable;
    dim.type = Scalar::i64;
    dim.span = e.span;
    Value v;
    v.type = Type::scalar(Scalar::i64);
    v.scalar = std::move(dim);
    return v;
  }
  if (name == "reduce") {
    if (!positional_arguments(e, 2, 2)) return std::nullopt;
    auto c = container_argument(e.args[0], out, depth, "the first argument of 'reduce'");
    if (!c) return std::nullopt;
    const ast::Expr& m = e.args[1];
    auto monoid = m.kind == ast::ExprKind::name ? monoid_named(m.text) : std::nullopt;
    if (!monoid) {
      a_.report_unknown(m.span, DiagnosticId::unknown_name,
                        "monoid", m.kind == ast::ExprKind::name ? m.text : "expression", monoid_words());
      return std::nullopt;
    }
    Scalar t = c->type.element;
    bool logical = *monoid == gql::Monoid::lor || *monoid == gql::Monoid::land;
    if (logical != (t == Scalar::bool_) && *monoid != gql::Monoid::any &&
        !(t == Scalar::bool_ && (*monoid == gql::Monoid::min || *monoid == gql::Monoid::max))) {
      d_.error(m.span, DiagnosticId::monoid_type,
               "monoid '" + m.text + "' does not apply to " + std::string(to_string(t)) + " elements");
      return std::nullopt;
    }
    int temp = builder_.add_temporary(Type::scalar(t), e.span);
    out.push_back(ir::KernelBuilder::declare(temp, std::nullopt, e.span));
    ir::Op op = new_op(ir::OpKind::reduce, Destination{}, e.span);
    op.outputs.push_back(temp);
    op.inputs.push_back(c->variable);
    op.monoid = *monoid;
    emit(std::move(op), out);
    Value v;
    v.type = Type::scalar(t);
    v.scalar = ir::KernelBuilder::variable_expr(var(temp), e.span);
    return v;
  }
  if (a_.kernels_.count(name)) {
    d_.error(e.span, DiagnosticId::misused_name, "a kernel cannot call kernel '" + name + "'");
    return std::nullopt;
  }
  std::vector<Value> args;
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (!e.arg_names[i].empty()) {
      d_.error(e.args[i].span, DiagnosticId::named_argument,
               "'" + name + "' takes no named argument '" + e.arg_names[i] + "'");
      return std::nullopt;
    }
    auto v = value(e.args[i], out, depth + 1);
    if (!v) return std::nullopt;
    args.push_back(std::move(*v));
  }
  if (!a_.functions_.count(name) && !scalar_from_name(name) && name != "min" && name != "max" && name != "abs" &&
      name != "sqrt" && !a_.function_decls_.count(name)) {
    std::vector<std::string> candidates = builtin_names();
    for (const auto& [fn, index] : a_.functions_) candidates.push_back(fn);
    a_.report_unknown(e.span, DiagnosticId::unknown_name, "function", name, candidates);
    return std::nullopt;
  }
  return a_.builtin_call(name, std::move(args), e.span);
}

}  // namespace gql::compiler::sema
