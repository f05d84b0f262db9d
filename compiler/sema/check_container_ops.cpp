// A kernel's container operations: products, constructors, element-wise ops, transposes and bands,
// closures, LU, and the element functions they take; each becomes one IR op.
#include <map>

#include "sema/kernel_checker.hpp"

namespace gql::compiler::sema {

namespace {

ir::Expr param_expr(int index, Scalar t) {
  ir::Expr e;
  e.kind = ir::ExprKind::parameter;
  e.index = index;
  e.type = t;
  return e;
}

}  // namespace

ir::Op KernelChecker::new_op(ir::OpKind kind, const Destination& destination, Span span) {
  ir::Op op;
  op.kind = kind;
  op.mask = destination.mask;
  op.replace = destination.replace;
  op.label = destination.label;
  op.span = span;
  return op;
}

void KernelChecker::emit(ir::Op op, ir::Block& out) {
  if (!op.label.empty()) ++labelled_ops_;
  out.push_back(ir::KernelBuilder::op_statement(std::move(op)));
}

// The output variable for a result of type `result`; checks an existing destination's type.
std::optional<int> KernelChecker::output(OpOutput& t, const Type& result, Span span) {
  if (t.destination.variable < 0) {
    int id = t.make(result);
    if (var(id).type != result) {
      d_.error(span, DiagnosticId::type_mismatch,
               "'" + var(id).name + "' is declared " + to_string(var(id).type) + " but its value is " + to_string(result));
      return std::nullopt;
    }
    return id;
  }
  const ir::Variable& v = var(t.destination.variable);
  if (v.type != result) {
    d_.error(span, DiagnosticId::type_mismatch,
             "cannot assign " + to_string(result) + " to '" + v.name + "' of type " + to_string(v.type));
    return std::nullopt;
  }
  return v.id;
}

bool KernelChecker::unmaskable(const OpOutput& t, const std::string& what, Span span) {
  if (!t.destination.mask) return true;
  d_.error(span, DiagnosticId::unmaskable, what + " cannot be written through a mask");
  return false;
}

void KernelChecker::copy_into(int source, OpOutput& t, Span span, ir::Block& out) {
  auto id = output(t, var(source).type, span);
  if (!id) return;
  ir::Op op = new_op(ir::OpKind::copy, t.destination, span);
  op.outputs.push_back(*id);
  op.inputs.push_back(source);
  emit(std::move(op), out);
}

std::optional<Value> KernelChecker::produced(int id) {
  Value v;
  v.type = var(id).type;
  v.variable = id;
  return v;
}

std::optional<Value> KernelChecker::written(ir::Op op, const Type& result, OpOutput& t, ir::Block& out) {
  auto id = output(t, result, op.span);
  if (!id) return std::nullopt;
  op.outputs.insert(op.outputs.begin(), *id);
  emit(std::move(op), out);
  return produced(*id);
}

std::optional<Value> KernelChecker::container_op(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  if (e.kind == ast::ExprKind::binary) return product(e, t, out, depth);
  const std::string& name = e.text;
  if (name == "graph" || name == "matrix" || name == "vector") return construct(e, t, out);
  const ir::OpInfo* info = ir::op_named(name);
  if (!info) return std::nullopt;
  switch (info->form) {
    case ir::OpForm::structural: return structural_op(*info, e, t, out, depth);
    case ir::OpForm::map: return map_op(*info, e, t, out, depth);
    case ir::OpForm::combine: return combine_op(*info, e, t, out, depth);
    case ir::OpForm::special: break;
  }
  if (info->kind == ir::OpKind::closure) return closure(e, t, out, depth);
  if (info->kind == ir::OpKind::lu) return lu(e, t, out, depth);
  if (info->kind == ir::OpKind::densify) return densify(e, t, out, depth);
  return std::nullopt;
}

bool KernelChecker::operand_kind_ok(const ir::OpInfo& info, const Value& x, Span span) {
  if (ir::container_kind_bit(x.type.kind) & info.operand_kinds) return true;
  d_.error(span, DiagnosticId::argument_kind,
           std::string(info.spec_name) + " takes " + ir::container_kinds_text(info.operand_kinds) + ", found " +
               to_string(x.type));
  return false;
}

// NAME(X[, OFFSET]): tril(G[, k]) keeps j - i <= k, triu(G[, k]) j - i >= k, k = 0 when not given.
std::optional<Value> KernelChecker::structural_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out,
                                                  int depth) {
  const std::string name = info.spec_name;
  const bool takes_offset = *info.offset != '\0';
  if (!positional_arguments(e, 1, takes_offset ? 2 : 1)) return std::nullopt;
  auto x = container_argument(e.args[0], out, depth, (takes_offset ? "the first argument of '" : "the argument of '") + name + "'");
  if (!x || !operand_kind_ok(info, *x, e.args[0].span)) return std::nullopt;
  std::optional<ir::Expr> offset = ir::make_constant(Scalar::i64, ir::Constant{}, e.span);
  if (e.args.size() == 2) offset = shape_value(e.args[1], out, std::string(info.offset) + " of '" + name + "'");
  if (!offset) return std::nullopt;
  ir::Op op = new_op(info.kind, t.destination, e.span);
  op.inputs.push_back(x->variable);
  if (takes_offset) op.value = std::move(*offset);
  return written(std::move(op), x->type, t, out);
}

// NAME(X, f): apply.
std::optional<Value> KernelChecker::map_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  const std::string name = info.spec_name;
  if (!positional_arguments(e, 2, 2)) return std::nullopt;
  auto x = container_argument(e.args[0], out, depth, "the first argument of '" + name + "'");
  if (!x || !operand_kind_ok(info, *x, e.args[0].span)) return std::nullopt;
  auto fn = element_function(e.args[1], {x->type.element});
  if (!fn) return std::nullopt;
  Type result = x->type;
  result.element = fn->result;
  ir::Op op = new_op(info.kind, t.destination, e.span);
  op.inputs.push_back(x->variable);
  op.function = std::move(fn);
  return written(std::move(op), result, t, out);
}

// NAME(X, Y, f): union, intersect.
std::optional<Value> KernelChecker::combine_op(const ir::OpInfo& info, const ast::Expr& e, OpOutput& t, ir::Block& out,
                                               int depth) {
  const std::string name = info.spec_name;
  if (!positional_arguments(e, 3, 3)) return std::nullopt;
  auto x = container_argument(e.args[0], out, depth, "the first argument of '" + name + "'");
  auto y = container_argument(e.args[1], out, depth, "the second argument of '" + name + "'");
  if (!x || !y || !operand_kind_ok(info, *x, e.args[0].span) || !operand_kind_ok(info, *y, e.args[1].span))
    return std::nullopt;
  if (x->type.kind != y->type.kind) {
    d_.error(e.span, DiagnosticId::argument_kind,
             "'" + name + "' combines containers of one kind, found " + to_string(x->type) + " and " + to_string(y->type));
    return std::nullopt;
  }
  auto fn = element_function(e.args[2], {x->type.element, y->type.element});
  if (!fn) return std::nullopt;
  if (info.keeps_unmatched && (x->type.element != y->type.element || fn->result != x->type.element)) {
    d_.error(e.args[2].span, DiagnosticId::element_function,
             name + " keeps the entries found in only one operand, so its operands and '" + fn->name +
                 "' must share one element type");
    return std::nullopt;
  }
  Type result = x->type;
  result.element = fn->result;
  ir::Op op = new_op(info.kind, t.destination, e.span);
  op.inputs = {x->variable, y->variable};
  op.function = std::move(fn);
  return written(std::move(op), result, t, out);
}

std::optional<Value> KernelChecker::construct(const ast::Expr& e, OpOutput& t, ir::Block& out) {
  if (!e.type_arg) {  // graph(...) without <T>: neither a constructor nor a conversion
    d_.error(e.span, DiagnosticId::malformed_type, "a new " + e.text + " needs its element type: " + e.text + "<T>(" +
                                                       (e.text == "vector" ? "n" : "rows, cols") + ")");
    return std::nullopt;
  }
  auto type = a_.resolve_type(*e.type_arg, {});
  if (!type) return std::nullopt;
  if (!unmaskable(t, "a new " + kind_name(*type), e.span)) return std::nullopt;
  size_t dims = type->kind == TypeKind::vector ? 1 : 2;
  std::optional<ir::Expr> fill;
  std::vector<ir::Expr> shape;
  for (size_t i = 0; i < e.args.size(); ++i) {
    if (!e.arg_names[i].empty()) {
      if (e.arg_names[i] != "fill") {
        a_.report_unknown(e.args[i].span, DiagnosticId::named_argument, "argument", e.arg_names[i], {"fill"});
        return std::nullopt;
      }
      if (type->kind == TypeKind::graph) {
        d_.error(e.args[i].span, DiagnosticId::named_argument,
                 "a new graph starts empty; it takes no fill (use matrix<T> for dense storage)");
        return std::nullopt;
      }
      auto v = value(e.args[i], out, 0);
      if (!v) return std::nullopt;
      fill = convert_element(std::move(*v), type->element, e.args[i].span);
      if (!fill) return std::nullopt;
      continue;
    }
    auto s = shape_value(e.args[i], out, "a dimension");
    if (!s) return std::nullopt;
    shape.push_back(std::move(*s));
  }
  if (shape.size() != dims) {
    d_.error(e.span, DiagnosticId::argument_count,
             "a new " + kind_name(*type) + " takes " + (dims == 1 ? "its length" : "rows and columns") +
                 ", found " + std::to_string(shape.size()) + " dimension" + (shape.size() == 1 ? "" : "s"));
    return std::nullopt;
  }
  ir::Op op = new_op(ir::OpKind::construct, t.destination, e.span);
  op.shape = std::move(shape);
  bool dense = type->kind == TypeKind::matrix || fill.has_value();
  if (dense && !fill) fill = ir::make_constant(type->element, {}, e.span);  // a new matrix is all zero
  op.dense = dense;
  op.value = std::move(fill);
  return written(std::move(op), *type, t, out);
}

std::optional<Value> KernelChecker::product(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  auto l = container_argument(e.args[0], out, depth, "the left operand of a product");
  auto r = container_argument(e.args[1], out, depth, "the right operand of a product");
  if (!l || !r) return std::nullopt;
  ir::OpKind kind;
  Type result;
  if (l->type.kind == TypeKind::vector && r->type.kind == TypeKind::vector) {
    d_.error(e.span, DiagnosticId::argument_kind,
             "a product of two vectors is not supported; use reduce(intersect(u, v, times), sum)");
    return std::nullopt;
  }
  if (l->type.kind == TypeKind::vector) {
    kind = ir::OpKind::vxm;
    result.kind = TypeKind::vector;
  } else if (r->type.kind == TypeKind::vector) {
    kind = ir::OpKind::mxv;
    result.kind = TypeKind::vector;
  } else {
    kind = ir::OpKind::mxm;
    bool sparse = l->type.kind == TypeKind::graph && r->type.kind == TypeKind::graph;
    result.kind = sparse ? TypeKind::graph : TypeKind::matrix;
  }
  int s = a_.instantiate(e.over, e.over_span, l->type.element, r->type.element);
  if (s < 0) return std::nullopt;
  result.element = a_.module_.semirings[static_cast<size_t>(s)].value_type;
  ir::Op op = new_op(kind, t.destination, e.span);
  op.inputs = {l->variable, r->variable};
  op.semiring = s;
  return written(std::move(op), result, t, out);
}

std::optional<Value> KernelChecker::closure(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  for (const std::string& n : e.arg_names) {
    if (!n.empty()) {
      d_.error(e.span, DiagnosticId::named_argument, "'closure' takes no named argument '" + n + "'");
      return std::nullopt;
    }
  }
  bool paths = e.args.size() == 2 && e.args[1].kind == ast::ExprKind::name && e.args[1].text == "paths";
  if (e.args.empty() || e.args.size() > 2 || (e.args.size() == 2 && !paths)) {
    d_.error(e.span, DiagnosticId::argument_count,
             "closure takes a matrix and its semiring, as in closure(D over min_plus) or closure(D over min_plus, paths)");
    return std::nullopt;
  }
  const ast::Expr& arg = e.args[0];
  if (arg.over.empty()) {
    d_.error(arg.span, DiagnosticId::over_clause, "closure needs a semiring: write closure(D over SEMIRING)");
    return std::nullopt;
  }
  ast::Expr operand = arg;
  operand.over.clear();
  auto d = container_argument(operand, out, depth, "the argument of 'closure'");
  if (!d) return std::nullopt;
  if (!d->type.is_two_dimensional()) {
    d_.error(arg.span, DiagnosticId::argument_kind,
             "closure takes a square graph or matrix, found " + to_string(d->type));
    return std::nullopt;
  }
  if (!unmaskable(t, "a closure", e.span)) return std::nullopt;
  int s = a_.instantiate(arg.over, arg.over_span, d->type.element, d->type.element);
  if (s < 0) return std::nullopt;
  const ir::SemiringInstance& inst = a_.module_.semirings[static_cast<size_t>(s)];
  if (inst.value_type != d->type.element) {
    d_.error(arg.over_span, DiagnosticId::semiring_operands,
             "closure needs a semiring whose values have its operands' type; '" + arg.over + "' maps " +
                 std::string(to_string(d->type.element)) + " to " + std::string(to_string(inst.value_type)));
    return std::nullopt;
  }
  ir::Op op = new_op(paths ? ir::OpKind::closure_paths : ir::OpKind::closure, t.destination, e.span);
  op.inputs.push_back(d->variable);
  op.semiring = s;
  if (!paths) return written(std::move(op), d->type, t, out);
  Type predecessors = d->type;
  predecessors.element = Scalar::i32;
  return tuple_result(std::move(op), {d->type, predecessors}, t, e.span, out);
}

// dense(G, fill = v): the graph as a matrix of its element type, v where G has no entry. The fill
// is required: no value is right for every use (0 for sums, inf for distances).
std::optional<Value> KernelChecker::densify(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  const bool shaped = e.args.size() == 2 && e.arg_names[0].empty() && e.arg_names[1] == "fill";
  if (!shaped) {
    if (e.args.size() == 2 && !e.arg_names[1].empty() && e.arg_names[1] != "fill") {
      a_.report_unknown(e.args[1].span, DiagnosticId::named_argument, "argument", e.arg_names[1], {"fill"});
      return std::nullopt;
    }
    d_.error(e.span, DiagnosticId::argument_count,
             "dense takes a graph and the value of its absent entries, as in dense(G, fill = inf)");
    return std::nullopt;
  }
  auto g = container_argument(e.args[0], out, depth, "the argument of 'dense'");
  if (!g) return std::nullopt;
  if (g->type.kind != TypeKind::graph) {
    d_.error(e.args[0].span, DiagnosticId::argument_kind,
             "dense converts a graph to a matrix, found " + to_string(g->type));
    return std::nullopt;
  }
  auto v = value(e.args[1], out, depth + 1);
  if (!v) return std::nullopt;
  if (!v->type.is_scalar()) {
    d_.error(e.args[1].span, DiagnosticId::argument_kind,
             "the fill of 'dense' is a scalar, found " + to_string(v->type));
    return std::nullopt;
  }
  auto fill = convert_element(std::move(*v), g->type.element, e.args[1].span);
  if (!fill) return std::nullopt;
  ir::Op op = new_op(ir::OpKind::densify, t.destination, e.span);
  op.inputs.push_back(g->variable);
  op.value = std::move(fill);
  return written(std::move(op), Type::matrix(g->type.element), t, out);
}

std::optional<Value> KernelChecker::lu(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
  if (!positional_arguments(e, 1, 1)) return std::nullopt;
  auto a = container_argument(e.args[0], out, depth, "the argument of 'lu'");
  if (!a) return std::nullopt;
  if (a->type.kind != TypeKind::matrix || !is_float(a->type.element)) {
    d_.error(e.args[0].span, DiagnosticId::argument_kind,
             "lu factors a dense matrix<f32> or matrix<f64>, found " + to_string(a->type));
    return std::nullopt;
  }
  ir::Op op = new_op(ir::OpKind::lu, t.destination, e.span);
  op.inputs.push_back(a->variable);
  return tuple_result(std::move(op), {a->type, Type::vector(Scalar::i32)}, t, e.span, out);
}

// An op with two outputs can only feed a return (or a tuple); its outputs are temporaries.
std::optional<Value> KernelChecker::tuple_result(ir::Op op, std::vector<Type> types, OpOutput& t, Span span, ir::Block& out) {
  if (t.destination.variable >= 0 || !t.destination.label.empty() || t.destination.mask) {
    d_.error(span, DiagnosticId::tuple_use,
             std::string(ir::to_string(op.kind)) + " makes a tuple " + to_string(Type::tuple(types)) +
                 "; return it directly, as in `return lu(A);`");
    return std::nullopt;
  }
  Value v;
  v.type = Type::tuple(types);
  for (const Type& type : types) {
    int id = builder_.add_temporary(type, span);
    out.push_back(ir::KernelBuilder::declare(id, std::nullopt, span));
    op.outputs.push_back(id);
    Value m;
    m.type = type;
    m.variable = id;
    v.members.push_back(std::move(m));
  }
  emit(std::move(op), out);
  return v;
}

std::optional<ir::ElementFunction> KernelChecker::element_function(const ast::Expr& e, const std::vector<Scalar>& params) {
  if (e.kind != ast::ExprKind::name || !e.over.empty()) {
    d_.error(e.span, DiagnosticId::element_function,
             "expected the name of a function (a fn, or a builtin such as min, plus, abs)");
    return std::nullopt;
  }
  ir::ElementFunction f;
  f.name = e.text;
  f.parameter_types = params;
  bool binary = params.size() == 2;
  static const std::map<std::string, ir::BinaryOp> arithmetic = {
      {"plus", ir::BinaryOp::add}, {"minus", ir::BinaryOp::sub}, {"times", ir::BinaryOp::mul},
      {"div", ir::BinaryOp::div}, {"lor", ir::BinaryOp::logical_or}, {"or", ir::BinaryOp::logical_or},
      {"land", ir::BinaryOp::logical_and}, {"and", ir::BinaryOp::logical_and}};
  auto require_same = [&]() {
    if (params[0] == params[1]) return true;
    d_.error(e.span, DiagnosticId::element_function,
             "'" + e.text + "' needs operands of one type, found " + std::string(to_string(params[0])) +
                 " and " + std::string(to_string(params[1])));
    return false;
  };
  if (binary && (e.text == "first" || e.text == "second")) {
    int which = e.text == "first" ? 0 : 1;
    f.result = params[static_cast<size_t>(which)];
    f.body = param_expr(which, f.result);
    return f;
  }
  if (binary && (arithmetic.count(e.text) || e.text == "min" || e.text == "max")) {
    if (!require_same()) return std::nullopt;
    Value x, y;
    x.type = y.type = Type::scalar(params[0]);
    x.scalar = param_expr(0, params[0]);
    y.scalar = param_expr(1, params[1]);
    std::optional<Value> r;
    if (arithmetic.count(e.text)) {
      static const std::map<std::string, std::string> symbols = {{"plus", "+"}, {"minus", "-"}, {"times", "*"},
                                                                 {"div", "/"}, {"lor", "||"}, {"or", "||"},
                                                                 {"land", "&&"}, {"and", "&&"}};
      r = a_.scalar_binary(symbols.at(e.text), x, y, e.span);
    } else {
      r = a_.builtin_call(e.text, {x, y}, e.span);
    }
    if (!r) return std::nullopt;
    f.result = r->scalar->type;
    f.body = std::move(*r->scalar);
    return f;
  }
  if (!binary && (e.text == "abs" || e.text == "sqrt" || e.text == "negate" || e.text == "not" ||
                  e.text == "identity" || scalar_from_name(e.text))) {
    Value x;
    x.type = Type::scalar(params[0]);
    x.scalar = param_expr(0, params[0]);
    std::optional<Value> r;
    if (e.text == "identity") r = x;
    else if (e.text == "negate") r = a_.scalar_unary("-", x, e.span);
    else if (e.text == "not") r = a_.scalar_unary("!", x, e.span);
    else r = a_.builtin_call(e.text, {x}, e.span);
    if (!r) return std::nullopt;
    f.result = r->scalar->type;
    f.body = std::move(*r->scalar);
    return f;
  }
  auto it = a_.functions_.find(e.text);
  if (it == a_.functions_.end()) {
    std::vector<std::string> candidates = binary
        ? std::vector<std::string>{"plus", "minus", "times", "div", "min", "max", "first", "second", "lor", "land"}
        : std::vector<std::string>{"abs", "sqrt", "negate", "not", "identity"};
    for (const auto& [fn, index] : a_.functions_) candidates.push_back(fn);
    a_.report_unknown(e.span, DiagnosticId::unknown_name,
                      binary ? "binary function" : "unary function", e.text, candidates);
    return std::nullopt;
  }
  const ir::Function& fn = a_.module_.functions[static_cast<size_t>(it->second)];
  if (fn.parameter_types != params) {
    std::string want = "(";
    for (size_t i = 0; i < params.size(); ++i) want += (i ? ", " : "") + std::string(to_string(params[i]));
    d_.error(e.span, DiagnosticId::element_function,
             "function '" + fn.name + "' does not take the elements " + want + ")");
    return std::nullopt;
  }
  f.result = fn.result;
  f.body.kind = ir::ExprKind::call;
  f.body.callee = fn.name;
  f.body.type = fn.result;
  for (size_t i = 0; i < params.size(); ++i) f.body.operands.push_back(param_expr(static_cast<int>(i), params[i]));
  return f;
}

}  // namespace gql::compiler::sema
