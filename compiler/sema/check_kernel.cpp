// Kernels: variables and scopes, statements and return types, lowered into IR statements as they are
// checked (the checker's expressions and container operations: check_expressions.cpp,
// check_container_ops.cpp).
#include <filesystem>
#include <set>

#include "sema/kernel_checker.hpp"

namespace gql::compiler::sema {

namespace {

bool always_returns(const std::vector<ast::Stmt>& block) {
  if (block.empty()) return false;
  const ast::Stmt& last = block.back();
  if (last.kind == ast::StmtKind::return_) return true;
  return last.kind == ast::StmtKind::if_ && always_returns(last.body) && always_returns(last.otherwise);
}

}  // namespace

std::string kind_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::graph: return "graph";
    case TypeKind::matrix: return "matrix";
    case TypeKind::vector: return "vector";
    default: return to_string(t);
  }
}

std::optional<ir::Kernel> KernelChecker::run() {
  size_t errors = d_.error_count();
  scopes_.emplace_back();
  for (const ast::Param& p : ast_.params) {
    auto t = a_.resolve_type(*p.type, {});
    bool ok = t.has_value();
    if (ok && t->kind == TypeKind::tuple) {
      d_.error(p.type->span, DiagnosticId::tuple_use, "a kernel parameter cannot be a tuple");
      ok = false;
    }
    if (!ok) {
      poison(p.name, p.span);
      continue;
    }
    int id = builder_.add_variable(p.name, *t, ir::VariableRole::parameter, true, p.span);
    if (declare_name(p.name, id, p.span)) kernel_.parameters.push_back(id);
  }
  if (auto t = a_.resolve_type(*ast_.result, {})) {
    kernel_.results = t->kind == TypeKind::tuple ? t->members : std::vector<Type>{*t};
    results_ok_ = true;
  }
  block(ast_.body, kernel_.body);
  if (!always_returns(ast_.body)) {
    d_.error(ast_.name_span, DiagnosticId::missing_return,
             "kernel '" + ast_.name + "' can reach its end without returning a value");
  }
  if (d_.error_count() != errors) return std::nullopt;
  a_.resolve_schedules(ast_, kernel_);
  if (d_.error_count() != errors) return std::nullopt;
  return std::move(kernel_);
}

int KernelChecker::lookup(const std::string& name) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (auto found = it->find(name); found != it->end()) return found->second;
  }
  return -1;
}

bool KernelChecker::declare_name(const std::string& name, int id, Span span) {
  if (int previous = lookup(name); previous >= 0) {
    if (Diagnostic* diag = d_.error(span, DiagnosticId::redefinition, "'" + name + "' is already declared")) {
      diag->notes.push_back({builder_.variable(previous).span, "previous declaration"});
    }
    return false;
  }
  scopes_.back()[name] = id;
  return true;
}

// A name whose declaration failed: later uses stay quiet instead of reporting it unknown.
void KernelChecker::poison(const std::string& name, Span span) {
  if (lookup(name) >= 0) return;
  int id = builder_.add_variable(name, Type::invalid(), ir::VariableRole::local, true, span);
  scopes_.back()[name] = id;
}

std::vector<std::string> KernelChecker::visible_names() const {
  std::vector<std::string> names = a_.global_value_names();
  for (const auto& scope : scopes_) {
    for (const auto& [name, id] : scope) names.push_back(name);
  }
  return names;
}

void KernelChecker::block(const std::vector<ast::Stmt>& list, ir::Block& out) {
  scopes_.emplace_back();
  for (const ast::Stmt& s : list) {
    if (d_.saturated()) break;
    statement(s, out);
  }
  scopes_.pop_back();
}

void KernelChecker::statement(const ast::Stmt& s, ir::Block& out) {
  if (!s.label.empty()) {
    if (auto it = labels_.find(s.label); it != labels_.end()) {
      if (Diagnostic* diag = d_.error(s.label_span, DiagnosticId::redefinition,
                                      "duplicate statement label '@" + s.label + "'")) {
        diag->notes.push_back({it->second, "first used here"});
      }
    }
    labels_[s.label] = s.label_span;
  }
  size_t ops_before = labelled_ops_;
  switch (s.kind) {
    case ast::StmtKind::var_decl:
    case ast::StmtKind::let_decl: declaration(s, out); break;
    case ast::StmtKind::assign: assignment(s, out); break;
    case ast::StmtKind::while_: {
      ir::Stmt w;
      w.kind = ir::StmtKind::while_;
      w.span = s.span;
      auto c = condition(*s.value, w.prelude);
      block(s.body, w.body);
      if (!c) return;
      w.condition = std::move(*c);
      out.push_back(std::move(w));
      break;
    }
    case ast::StmtKind::if_: {
      ir::Stmt i;
      i.kind = ir::StmtKind::if_;
      i.span = s.span;
      auto c = condition(*s.value, out);
      block(s.body, i.body);
      block(s.otherwise, i.otherwise);
      if (!c) return;
      i.condition = std::move(*c);
      out.push_back(std::move(i));
      break;
    }
    case ast::StmtKind::return_: return_statement(s, out); break;
    case ast::StmtKind::require_: requirement(s, out); break;
  }
  if (!s.label.empty() && labelled_ops_ == ops_before) {
    d_.error(s.label_span, DiagnosticId::label_without_operation,
             "label '@" + s.label + "' marks no container operation to schedule");
  }
}

// require(cond, "message"): the condition's container work runs before it, as an if's does.
void KernelChecker::requirement(const ast::Stmt& s, ir::Block& out) {
  auto c = condition(*s.value, out);
  if (s.message.empty()) {
    d_.error(s.span, DiagnosticId::require_message, "the message of 'require' is empty; say what the failure means");
    return;
  }
  if (!c) return;
  ir::Stmt r;
  r.kind = ir::StmtKind::require_;
  r.span = s.span;
  r.condition = std::move(*c);
  r.message = s.message;
  r.where = position(s.span);
  out.push_back(std::move(r));
}

// Where a span starts, as a failure at run time reports it.
ir::SourcePosition KernelChecker::position(Span span) const {
  if (!a_.sources_ || span.file >= a_.sources_->size()) return {};
  const LineColumn at = a_.sources_->line_column(span.file, span.begin);
  return {std::filesystem::path(a_.sources_->file(span.file).path).filename().string(), at.line, at.column};
}

std::optional<ir::Expr> KernelChecker::condition(const ast::Expr& e, ir::Block& out) {
  auto v = value(e, out, 0);
  if (!v) return std::nullopt;
  if (!a_.coerce(*v, Scalar::bool_, e.span, "a condition")) return std::nullopt;
  return std::move(v->scalar);
}

OpOutput KernelChecker::new_variable_target(const ast::Stmt& s, std::optional<Type> declared, bool immutable, ir::Block& out) {
  OpOutput t;
  t.span = s.span;
  t.destination.label = s.label;
  t.make = [this, &s, declared, immutable, &out](const Type& result) {
    Type type = declared ? *declared : result;
    int id = builder_.add_variable(s.name, type, ir::VariableRole::local, immutable, s.span);
    declare_name(s.name, id, s.span);
    out.push_back(ir::KernelBuilder::declare(id, std::nullopt, s.span));
    return id;
  };
  return t;
}

void KernelChecker::declaration(const ast::Stmt& s, ir::Block& out) {
  size_t errors = d_.error_count();
  declare_checked(s, out);
  if (d_.error_count() != errors) poison(s.name, s.span);
}

void KernelChecker::declare_checked(const ast::Stmt& s, ir::Block& out) {
  bool immutable = s.kind == ast::StmtKind::let_decl;
  std::optional<Type> declared;
  if (s.type) {
    declared = a_.resolve_type(*s.type, {});
    if (!declared) return;
    if (declared->kind == TypeKind::tuple) {
      d_.error(s.type->span, DiagnosticId::tuple_use, "a variable cannot hold a tuple; tuples can only be returned");
      return;
    }
  }
  if (!s.value) {
    if (!declared || !declared->is_scalar()) {
      d_.error(s.span, DiagnosticId::missing_initializer,
               "'" + s.name + "' needs a type and a value" +
                   std::string(declared ? "; containers start from a constructor, as in graph<u64>(n, n)" : ""));
      return;
    }
    ir::Expr zero = ir::make_constant(declared->element, {}, s.span);
    int id = builder_.add_variable(s.name, *declared, ir::VariableRole::local, immutable, s.span);
    if (declare_name(s.name, id, s.span)) out.push_back(ir::KernelBuilder::declare(id, zero, s.span));
    return;
  }
  if (is_container_op(*s.value)) {
    OpOutput t = new_variable_target(s, declared, immutable, out);
    container_op(*s.value, t, out, 0);
    return;
  }
  auto v = value(*s.value, out, 0);
  if (!v) return;
  if (v->type.kind == TypeKind::tuple) {
    d_.error(s.value->span, DiagnosticId::tuple_use, "a variable cannot hold a tuple; tuples can only be returned");
    return;
  }
  if (v->type.is_container()) {
    if (declared && *declared != v->type) {
      d_.error(s.value->span, DiagnosticId::type_mismatch,
               "'" + s.name + "' is declared " + to_string(*declared) + " but its value is " + to_string(v->type));
      return;
    }
    OpOutput t = new_variable_target(s, declared, immutable, out);
    copy_into(v->variable, t, s.value->span, out);
    return;
  }
  Scalar type = declared ? declared->element : v->scalar->type;
  if (declared && !declared->is_scalar()) {
    d_.error(s.value->span, DiagnosticId::type_mismatch,
             "'" + s.name + "' is declared " + to_string(*declared) + " but its value is a scalar");
    return;
  }
  if (!a_.coerce(*v, type, s.value->span, "the value of '" + s.name + "'")) return;
  int id = builder_.add_variable(s.name, Type::scalar(type), ir::VariableRole::local, immutable, s.span);
  if (declare_name(s.name, id, s.span)) out.push_back(ir::KernelBuilder::declare(id, std::move(v->scalar), s.span));
}

std::optional<ir::Mask> KernelChecker::mask(const ast::Mask& m, const Type& output) {
  int id = lookup(m.name);
  if (poisoned(id)) return std::nullopt;
  if (id < 0) {
    a_.report_unknown(m.span, DiagnosticId::unknown_name, "mask", m.name, visible_names());
    return std::nullopt;
  }
  const ir::Variable& mv = var(id);
  if (!mv.type.is_container()) {
    d_.error(m.span, DiagnosticId::mask_type,
             "a mask must be a graph, matrix or vector, but '" + m.name + "' is " + to_string(mv.type));
    return std::nullopt;
  }
  if (mv.type.is_two_dimensional() != output.is_two_dimensional()) {
    d_.error(m.span, DiagnosticId::mask_type,
             "mask '" + m.name + "' (" + to_string(mv.type) + ") does not have the shape of the " +
                 to_string(output) + " it masks");
    return std::nullopt;
  }
  // A dense matrix has an entry at every position: as a mask it would select everything, and as an
  // output it cannot lose the entries a masked assignment removes.
  if (mv.type.kind == TypeKind::matrix) {
    d_.error(m.span, DiagnosticId::mask_type,
             "mask '" + m.name + "' is a dense " + to_string(mv.type) +
                 ", which has an entry everywhere and so masks nothing; mask with a graph");
    return std::nullopt;
  }
  if (output.kind == TypeKind::matrix) {
    d_.error(m.span, DiagnosticId::unmaskable,
             "a dense " + to_string(output) +
                 " cannot be written through a mask (it has an entry at every position); assign it whole, "
                 "or write a graph through the mask");
    return std::nullopt;
  }
  return ir::Mask{id, m.complement, m.value};
}

void KernelChecker::assignment(const ast::Stmt& s, ir::Block& out) {
  const ast::Expr& target = *s.target;
  if (target.kind == ast::ExprKind::index) return element_assignment(s, out);
  int id = lookup(target.text);
  if (poisoned(id)) return;
  if (id < 0) {
    a_.report_unknown(target.span, DiagnosticId::unknown_name, "variable", target.text, visible_names());
    return;
  }
  const ir::Variable& v = var(id);
  if (v.immutable) {
    d_.error(target.span, DiagnosticId::assign_immutable,
             "cannot assign to '" + v.name + "': " +
                 (v.role == ir::VariableRole::parameter ? "parameters are immutable" : "it is declared with 'let'"));
    return;
  }
  Type type = v.type;
  OpOutput t;
  t.span = s.span;
  t.destination.variable = id;
  t.destination.label = s.label;
  if (s.mask) {
    if (!type.is_container()) {
      d_.error(s.mask->span, DiagnosticId::unmaskable,
               "only containers can be masked; '" + v.name + "' is " + to_string(type));
      return;
    }
    auto m = mask(*s.mask, type);
    if (!m) return;
    t.destination.mask = m;
    t.destination.replace = s.mask->replace;
  }
  if (is_container_op(*s.value)) {
    container_op(*s.value, t, out, 0);
    return;
  }
  auto value_ = value(*s.value, out, 0);
  if (!value_) return;
  if (value_->type.is_container()) {
    copy_into(value_->variable, t, s.value->span, out);
    return;
  }
  if (value_->type.kind == TypeKind::tuple) {
    d_.error(s.value->span, DiagnosticId::tuple_use, "a tuple can only be returned");
    return;
  }
  if (type.is_container()) {
    // depth<frontier> = d: store a scalar at every position the mask selects (GraphBLAS assign).
    auto stored = convert_element(*value_, type.element, s.value->span);
    if (!stored) return;
    ir::Op op = new_op(ir::OpKind::assign_scalar, t.destination, s.span);
    op.outputs.push_back(id);
    op.value = std::move(*stored);
    emit(std::move(op), out);
    return;
  }
  if (!a_.coerce(*value_, type.element, s.value->span, "the value assigned to '" + v.name + "'")) return;
  ir::Stmt st;
  st.kind = ir::StmtKind::assign;
  st.variable = id;
  st.value = std::move(value_->scalar);
  st.span = s.span;
  out.push_back(std::move(st));
}

// v[i], A[i, j]: the entry stored there, a scalar of the container's element type (reading where
// nothing is stored fails at run time).
std::optional<Value> KernelChecker::element_read(const ast::Expr& e, ir::Block& out) {
  const ast::Expr& base = e.args[0];
  int id = base.kind == ast::ExprKind::name ? lookup(base.text) : -1;
  if (poisoned(id)) return std::nullopt;
  if (id < 0) {
    if (base.kind == ast::ExprKind::name) {
      a_.report_unknown(base.span, DiagnosticId::unknown_name, "variable", base.text, visible_names());
    } else {
      d_.error(base.span, DiagnosticId::element_access, "only a named container's element can be read");
    }
    return std::nullopt;
  }
  const ir::Variable& v = var(id);
  if (!v.type.is_container()) {
    d_.error(base.span, DiagnosticId::element_access, "'" + v.name + "' is " + to_string(v.type) + ", not a container");
    return std::nullopt;
  }
  if (!element_count_ok(v, e)) return std::nullopt;
  ir::Op op = new_op(ir::OpKind::element, Destination{}, e.span);
  op.inputs.push_back(id);
  for (size_t i = 1; i < e.args.size(); ++i) {
    auto index = shape_value(e.args[i], out, "an index");
    if (!index) return std::nullopt;
    op.shape.push_back(std::move(*index));
  }
  const Scalar t = v.type.element;
  const int temp = builder_.add_temporary(Type::scalar(t), e.span);
  out.push_back(ir::KernelBuilder::declare(temp, std::nullopt, e.span));
  op.outputs.push_back(temp);
  op.where = position(e.span);
  emit(std::move(op), out);
  Value result;
  result.type = Type::scalar(t);
  result.scalar = ir::KernelBuilder::variable_expr(var(temp), e.span);
  return result;
}

// An element of v takes one index for a vector, two for a graph or a matrix.
bool KernelChecker::element_count_ok(const ir::Variable& v, const ast::Expr& target) {
  const size_t want = v.type.is_two_dimensional() ? 2 : 1;
  if (target.args.size() - 1 == want) return true;
  d_.error(target.span, DiagnosticId::element_access,
           "a " + kind_name(v.type) + " element takes " + std::to_string(want) + " index" +
               (want == 1 ? "" : "es") + ", found " + std::to_string(target.args.size() - 1));
  return false;
}

void KernelChecker::element_assignment(const ast::Stmt& s, ir::Block& out) {
  const ast::Expr& target = *s.target;
  const ast::Expr& base = target.args[0];
  int id = base.kind == ast::ExprKind::name ? lookup(base.text) : -1;
  if (poisoned(id)) return;
  if (id < 0) {
    a_.report_unknown(base.span, DiagnosticId::unknown_name, "variable", base.text, visible_names());
    return;
  }
  const ir::Variable& v = var(id);
  if (!v.type.is_container()) {
    d_.error(base.span, DiagnosticId::element_access, "'" + v.name + "' is " + to_string(v.type) + ", not a container");
    return;
  }
  if (v.immutable) {
    d_.error(base.span, DiagnosticId::assign_immutable,
             "cannot assign to an element of '" + v.name + "': it is immutable");
    return;
  }
  if (!element_count_ok(v, target)) return;
  if (s.mask) {
    d_.error(s.mask->span, DiagnosticId::unmaskable, "an element assignment takes no mask");
    return;
  }
  ir::Op op = new_op(ir::OpKind::set_element, Destination{id, std::nullopt, false, s.label}, s.span);
  op.outputs.push_back(id);
  for (size_t i = 1; i < target.args.size(); ++i) {
    auto index = shape_value(target.args[i], out, "an index");
    if (!index) return;
    op.shape.push_back(std::move(*index));
  }
  auto stored = value(*s.value, out, 0);
  if (!stored) return;
  auto converted = convert_element(*stored, v.type.element, s.value->span);
  if (!converted) return;
  op.value = std::move(*converted);
  emit(std::move(op), out);
}

void KernelChecker::return_statement(const ast::Stmt& s, ir::Block& out) {
  auto v = value(*s.value, out, 0);
  if (!v || !results_ok_) return;
  std::vector<Value> members = v->type.kind == TypeKind::tuple ? v->members : std::vector<Value>{*v};
  if (members.size() != kernel_.results.size()) {
    d_.error(s.value->span, DiagnosticId::return_mismatch,
             "kernel '" + kernel_.name + "' returns " + result_text() + ", but this returns " +
                 std::to_string(members.size()) + " value" + (members.size() == 1 ? "" : "s"));
    return;
  }
  ir::Stmt r;
  r.kind = ir::StmtKind::return_;
  r.span = s.span;
  for (size_t i = 0; i < members.size(); ++i) {
    Value& m = members[i];
    const Type& want = kernel_.results[i];
    if (m.type.is_container()) {
      if (m.type != want) {
        d_.error(s.value->span, DiagnosticId::return_mismatch,
                 "return type mismatch: kernel '" + kernel_.name + "' returns " + result_text() +
                     ", found " + to_string(m.type) + (members.size() > 1 ? " as member " + std::to_string(i + 1) : ""));
        return;
      }
      r.results.push_back(m.variable);
      continue;
    }
    if (!want.is_scalar()) {
      d_.error(s.value->span, DiagnosticId::return_mismatch,
               "return type mismatch: kernel '" + kernel_.name + "' returns " + result_text() +
                   ", found " + (m.flexible ? std::string("a scalar literal") : to_string(m.type)));
      return;
    }
    if (!a_.coerce(m, want.element, s.value->span, "return type mismatch: the value returned by '" + kernel_.name + "'")) return;
    if (m.scalar->kind == ir::ExprKind::variable) {
      r.results.push_back(m.scalar->index);
      continue;
    }
    int temp = builder_.add_temporary(want, s.span);
    out.push_back(ir::KernelBuilder::declare(temp, std::move(m.scalar), s.span));
    r.results.push_back(temp);
  }
  out.push_back(std::move(r));
}

std::string KernelChecker::result_text() const {
  return kernel_.results.size() == 1 ? to_string(kernel_.results[0]) : to_string(Type::tuple(kernel_.results));
}

void Analyzer::check_kernel(const ast::Kernel& k) {
  KernelChecker checker(*this, k);
  auto kernel = checker.run();
  if (kernel) module_.kernels.push_back(std::move(*kernel));
}

}  // namespace gql::compiler::sema
