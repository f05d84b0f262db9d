// Kernels: variables and scopes, statements, container operations (products, element-wise ops,
// reductions, masks), return types; lowered into IR statements as they are checked.
#include <filesystem>
#include <functional>
#include <set>

#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {


bool is_container_op(const ast::Expr& e) {
  if (e.kind == ast::ExprKind::binary && e.text == "*" && !e.over.empty()) return true;
  return e.kind == ast::ExprKind::call && e.over.empty() && container_producing_calls().count(e.text);
}

bool always_returns(const std::vector<ast::Stmt>& block) {
  if (block.empty()) return false;
  const ast::Stmt& last = block.back();
  if (last.kind == ast::StmtKind::return_) return true;
  return last.kind == ast::StmtKind::if_ && always_returns(last.body) && always_returns(last.otherwise);
}

ir::Expr param_expr(int index, Scalar t) {
  ir::Expr e;
  e.kind = ir::ExprKind::parameter;
  e.index = index;
  e.type = t;
  return e;
}

std::string kind_name(const Type& t) {
  switch (t.kind) {
    case TypeKind::graph: return "graph";
    case TypeKind::matrix: return "matrix";
    case TypeKind::vector: return "vector";
    default: return to_string(t);
  }
}

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

  std::optional<ir::Kernel> run() {
    size_t errors = d_.error_count();
    scopes_.emplace_back();
    for (const ast::Param& p : ast_.params) {
      auto t = a_.resolve_type(*p.type, {});
      bool ok = t.has_value();
      if (ok && t->kind == TypeKind::tuple) {
        d_.error(p.type->span, "a kernel parameter cannot be a tuple");
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
      d_.error(ast_.name_span, "kernel '" + ast_.name + "' can reach its end without returning a value");
    }
    if (d_.error_count() != errors) return std::nullopt;
    a_.resolve_schedules(ast_, kernel_);
    if (d_.error_count() != errors) return std::nullopt;
    return std::move(kernel_);
  }

 private:
  // ---- names --------------------------------------------------------------------------------
  int lookup(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (auto found = it->find(name); found != it->end()) return found->second;
    }
    return -1;
  }
  bool declare_name(const std::string& name, int id, Span span) {
    if (int previous = lookup(name); previous >= 0) {
      if (Diagnostic* diag = d_.error(span, "'" + name + "' is already declared")) {
        diag->notes.push_back({builder_.variable(previous).span, "previous declaration"});
      }
      return false;
    }
    scopes_.back()[name] = id;
    return true;
  }
  // A name whose declaration failed: later uses stay quiet instead of reporting it unknown.
  void poison(const std::string& name, Span span) {
    if (lookup(name) >= 0) return;
    int id = builder_.add_variable(name, Type::invalid(), ir::VariableRole::local, true, span);
    scopes_.back()[name] = id;
  }
  bool poisoned(int id) const { return id >= 0 && !var(id).type.is_valid(); }

  std::vector<std::string> visible_names() const {
    std::vector<std::string> names = a_.global_value_names();
    for (const auto& scope : scopes_) {
      for (const auto& [name, id] : scope) names.push_back(name);
    }
    return names;
  }
  const ir::Variable& var(int id) const { return builder_.variable(id); }

  // ---- statements ---------------------------------------------------------------------------
  void block(const std::vector<ast::Stmt>& list, ir::Block& out) {
    scopes_.emplace_back();
    for (const ast::Stmt& s : list) {
      if (d_.saturated()) break;
      statement(s, out);
    }
    scopes_.pop_back();
  }

  void statement(const ast::Stmt& s, ir::Block& out) {
    if (!s.label.empty()) {
      if (auto it = labels_.find(s.label); it != labels_.end()) {
        if (Diagnostic* diag = d_.error(s.label_span, "duplicate statement label '@" + s.label + "'")) {
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
      d_.error(s.label_span, "label '@" + s.label + "' marks no container operation to schedule");
    }
  }

  // require(cond, "message"): the condition's container work runs before it, as an if's does.
  void requirement(const ast::Stmt& s, ir::Block& out) {
    auto c = condition(*s.value, out);
    if (s.message.empty()) {
      d_.error(s.span, "the message of 'require' is empty; say what the failure means");
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
  ir::SourcePosition position(Span span) const {
    if (!a_.sources_ || span.file >= a_.sources_->size()) return {};
    const LineColumn at = a_.sources_->line_column(span.file, span.begin);
    return {std::filesystem::path(a_.sources_->file(span.file).path).filename().string(), at.line, at.column};
  }

  std::optional<ir::Expr> condition(const ast::Expr& e, ir::Block& out) {
    auto v = value(e, out, 0);
    if (!v) return std::nullopt;
    if (!a_.coerce(*v, Scalar::bool_, e.span, "a condition")) return std::nullopt;
    return std::move(v->scalar);
  }

  OpOutput new_variable_target(const ast::Stmt& s, std::optional<Type> declared, bool immutable, ir::Block& out) {
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

  void declaration(const ast::Stmt& s, ir::Block& out) {
    size_t errors = d_.error_count();
    declare_checked(s, out);
    if (d_.error_count() != errors) poison(s.name, s.span);
  }

  void declare_checked(const ast::Stmt& s, ir::Block& out) {
    bool immutable = s.kind == ast::StmtKind::let_decl;
    std::optional<Type> declared;
    if (s.type) {
      declared = a_.resolve_type(*s.type, {});
      if (!declared) return;
      if (declared->kind == TypeKind::tuple) {
        d_.error(s.type->span, "a variable cannot hold a tuple; tuples can only be returned");
        return;
      }
    }
    if (!s.value) {
      if (!declared || !declared->is_scalar()) {
        d_.error(s.span, "'" + s.name + "' needs a type and a value" +
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
      d_.error(s.value->span, "a variable cannot hold a tuple; tuples can only be returned");
      return;
    }
    if (v->type.is_container()) {
      if (declared && *declared != v->type) {
        d_.error(s.value->span, "'" + s.name + "' is declared " + to_string(*declared) + " but its value is " + to_string(v->type));
        return;
      }
      OpOutput t = new_variable_target(s, declared, immutable, out);
      copy_into(v->variable, t, s.value->span, out);
      return;
    }
    Scalar type = declared ? declared->element : v->scalar->type;
    if (declared && !declared->is_scalar()) {
      d_.error(s.value->span, "'" + s.name + "' is declared " + to_string(*declared) + " but its value is a scalar");
      return;
    }
    if (!a_.coerce(*v, type, s.value->span, "the value of '" + s.name + "'")) return;
    int id = builder_.add_variable(s.name, Type::scalar(type), ir::VariableRole::local, immutable, s.span);
    if (declare_name(s.name, id, s.span)) out.push_back(ir::KernelBuilder::declare(id, std::move(v->scalar), s.span));
  }

  std::optional<ir::Mask> mask(const ast::Mask& m, const Type& output) {
    int id = lookup(m.name);
    if (poisoned(id)) return std::nullopt;
    if (id < 0) {
      a_.report_unknown(m.span, "mask", m.name, visible_names());
      return std::nullopt;
    }
    const ir::Variable& mv = var(id);
    if (!mv.type.is_container()) {
      d_.error(m.span, "a mask must be a graph, matrix or vector, but '" + m.name + "' is " + to_string(mv.type));
      return std::nullopt;
    }
    if (mv.type.is_two_dimensional() != output.is_two_dimensional()) {
      d_.error(m.span, "mask '" + m.name + "' (" + to_string(mv.type) + ") does not have the shape of the " +
                           to_string(output) + " it masks");
      return std::nullopt;
    }
    // A dense matrix has an entry at every position: as a mask it would select everything, and as an
    // output it cannot lose the entries a masked assignment removes.
    if (mv.type.kind == TypeKind::matrix) {
      d_.error(m.span, "mask '" + m.name + "' is a dense " + to_string(mv.type) +
                           ", which has an entry everywhere and so masks nothing; mask with a graph");
      return std::nullopt;
    }
    if (output.kind == TypeKind::matrix) {
      d_.error(m.span, "a dense " + to_string(output) +
                           " cannot be written through a mask (it has an entry at every position); assign it whole, "
                           "or write a graph through the mask");
      return std::nullopt;
    }
    return ir::Mask{id, m.complement, m.value};
  }

  void assignment(const ast::Stmt& s, ir::Block& out) {
    const ast::Expr& target = *s.target;
    if (target.kind == ast::ExprKind::index) return element_assignment(s, out);
    int id = lookup(target.text);
    if (poisoned(id)) return;
    if (id < 0) {
      a_.report_unknown(target.span, "variable", target.text, visible_names());
      return;
    }
    const ir::Variable& v = var(id);
    if (v.immutable) {
      d_.error(target.span, "cannot assign to '" + v.name + "': " +
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
        d_.error(s.mask->span, "only containers can be masked; '" + v.name + "' is " + to_string(type));
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
      d_.error(s.value->span, "a tuple can only be returned");
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
  std::optional<Value> element_read(const ast::Expr& e, ir::Block& out) {
    const ast::Expr& base = e.args[0];
    int id = base.kind == ast::ExprKind::name ? lookup(base.text) : -1;
    if (poisoned(id)) return std::nullopt;
    if (id < 0) {
      if (base.kind == ast::ExprKind::name) a_.report_unknown(base.span, "variable", base.text, visible_names());
      else d_.error(base.span, "only a named container's element can be read");
      return std::nullopt;
    }
    const ir::Variable& v = var(id);
    if (!v.type.is_container()) {
      d_.error(base.span, "'" + v.name + "' is " + to_string(v.type) + ", not a container");
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
  bool element_count_ok(const ir::Variable& v, const ast::Expr& target) {
    const size_t want = v.type.is_two_dimensional() ? 2 : 1;
    if (target.args.size() - 1 == want) return true;
    d_.error(target.span, "a " + kind_name(v.type) + " element takes " + std::to_string(want) + " index" +
                              (want == 1 ? "" : "es") + ", found " + std::to_string(target.args.size() - 1));
    return false;
  }

  void element_assignment(const ast::Stmt& s, ir::Block& out) {
    const ast::Expr& target = *s.target;
    const ast::Expr& base = target.args[0];
    int id = base.kind == ast::ExprKind::name ? lookup(base.text) : -1;
    if (poisoned(id)) return;
    if (id < 0) {
      a_.report_unknown(base.span, "variable", base.text, visible_names());
      return;
    }
    const ir::Variable& v = var(id);
    if (!v.type.is_container()) {
      d_.error(base.span, "'" + v.name + "' is " + to_string(v.type) + ", not a container");
      return;
    }
    if (v.immutable) {
      d_.error(base.span, "cannot assign to an element of '" + v.name + "': it is immutable");
      return;
    }
    if (!element_count_ok(v, target)) return;
    if (s.mask) {
      d_.error(s.mask->span, "an element assignment takes no mask");
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

  void return_statement(const ast::Stmt& s, ir::Block& out) {
    auto v = value(*s.value, out, 0);
    if (!v || !results_ok_) return;
    std::vector<Value> members = v->type.kind == TypeKind::tuple ? v->members : std::vector<Value>{*v};
    if (members.size() != kernel_.results.size()) {
      d_.error(s.value->span, "kernel '" + kernel_.name + "' returns " + result_text() + ", but this returns " +
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
          d_.error(s.value->span, "return type mismatch: kernel '" + kernel_.name + "' returns " + result_text() +
                                      ", found " + to_string(m.type) + (members.size() > 1 ? " as member " + std::to_string(i + 1) : ""));
          return;
        }
        r.results.push_back(m.variable);
        continue;
      }
      if (!want.is_scalar()) {
        d_.error(s.value->span, "return type mismatch: kernel '" + kernel_.name + "' returns " + result_text() +
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

  std::string result_text() const {
    return kernel_.results.size() == 1 ? to_string(kernel_.results[0]) : to_string(Type::tuple(kernel_.results));
  }

  // ---- expressions --------------------------------------------------------------------------
  std::optional<ir::Expr> convert_element(Value v, Scalar to, Span span) {
    if (!v.type.is_scalar()) {
      d_.error(span, "expected a " + std::string(to_string(to)) + " value, found " + to_string(v.type));
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

  std::optional<ir::Expr> shape_value(const ast::Expr& e, ir::Block& out, const std::string& what) {
    auto v = value(e, out, 0);
    if (!v) return std::nullopt;
    if (!v->type.is_scalar() || !is_integer(v->type.element)) {
      d_.error(e.span, what + " must be an integer, found " + (v->type.is_scalar() ? to_string(v->type) : to_string(v->type)));
      return std::nullopt;
    }
    if (v->flexible) {
      if (!a_.coerce(*v, Scalar::i64, e.span, what)) return std::nullopt;
      return std::move(v->scalar);
    }
    return convert_element(std::move(*v), Scalar::i64, e.span);
  }

  std::optional<Value> value(const ast::Expr& e, ir::Block& out, int depth) {
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
      d_.error(e.over_span, "'over' applies only to a product of containers (A * B over S) or a closure");
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
          d_.error(e.span, "the product of " + to_string(l->type) + " and " + to_string(r->type) +
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
            d_.error(m.span, "tuples cannot be nested");
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

  std::optional<Value> name_value(const ast::Expr& e) {
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
      d_.error(e.span, "'" + e.text + "' is a semiring; use it after 'over', as in A * B over " + e.text);
      return std::nullopt;
    }
    if (a_.function_decls_.count(e.text) || a_.kernels_.count(e.text)) {
      d_.error(e.span, "'" + e.text + "' is a " + std::string(a_.kernels_.count(e.text) ? "kernel" : "function") + ", not a value");
      return std::nullopt;
    }
    a_.report_unknown(e.span, "name", e.text, visible_names());
    return std::nullopt;
  }

  std::optional<Value> container_argument(const ast::Expr& e, ir::Block& out, int depth, const std::string& what) {
    auto v = value(e, out, depth + 1);
    if (!v) return std::nullopt;
    if (!v->type.is_container()) {
      d_.error(e.span, what + " must be a graph, matrix or vector, found " +
                           (v->flexible ? std::string("a literal") : to_string(v->type)));
      return std::nullopt;
    }
    return v;
  }

  bool positional_arguments(const ast::Expr& e, size_t min, size_t max) {
    for (size_t i = 0; i < e.args.size(); ++i) {
      if (!e.arg_names[i].empty()) {
        d_.error(e.args[i].span, "'" + e.text + "' takes no named argument '" + e.arg_names[i] + "'");
        return false;
      }
    }
    if (e.args.size() < min || e.args.size() > max) {
      std::string count = min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max);
      d_.error(e.span, "'" + e.text + "' takes " + count + " argument" + (max == 1 ? "" : "s") + ", found " +
                           std::to_string(e.args.size()));
      return false;
    }
    return true;
  }

  std::optional<Value> call_value(const ast::Expr& e, ir::Block& out, int depth) {
    const std::string& name = e.text;
    if (name == "rows" || name == "cols" || name == "nvals") {
      if (!positional_arguments(e, 1, 1)) return std::nullopt;
      auto c = container_argument(e.args[0], out, depth, "the argument of '" + name + "'");
      if (!c) return std::nullopt;
      if (name == "cols" && c->type.kind == TypeKind::vector) {
        d_.error(e.span, "a vector has no columns; use rows(v) for its length");
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
        a_.report_unknown(m.span, "monoid", m.kind == ast::ExprKind::name ? m.text : "expression", monoid_words());
        return std::nullopt;
      }
      Scalar t = c->type.element;
      bool logical = *monoid == gql::Monoid::lor || *monoid == gql::Monoid::land;
      if (logical != (t == Scalar::bool_) && *monoid != gql::Monoid::any &&
          !(t == Scalar::bool_ && (*monoid == gql::Monoid::min || *monoid == gql::Monoid::max))) {
        d_.error(m.span, "monoid '" + m.text + "' does not apply to " + std::string(to_string(t)) + " elements");
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
      d_.error(e.span, "a kernel cannot call kernel '" + name + "'");
      return std::nullopt;
    }
    std::vector<Value> args;
    for (size_t i = 0; i < e.args.size(); ++i) {
      if (!e.arg_names[i].empty()) {
        d_.error(e.args[i].span, "'" + name + "' takes no named argument '" + e.arg_names[i] + "'");
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
      a_.report_unknown(e.span, "function", name, candidates);
      return std::nullopt;
    }
    return a_.builtin_call(name, std::move(args), e.span);
  }

  // ---- container operations ----------------------------------------------------------------
  ir::Op new_op(ir::OpKind kind, const Destination& destination, Span span) {
    ir::Op op;
    op.kind = kind;
    op.mask = destination.mask;
    op.replace = destination.replace;
    op.label = destination.label;
    op.span = span;
    return op;
  }

  void emit(ir::Op op, ir::Block& out) {
    if (!op.label.empty()) ++labelled_ops_;
    out.push_back(ir::KernelBuilder::op_statement(std::move(op)));
  }

  // The output variable for a result of type `result`; checks an existing destination's type.
  std::optional<int> output(OpOutput& t, const Type& result, Span span) {
    if (t.destination.variable < 0) {
      int id = t.make(result);
      if (var(id).type != result) {
        d_.error(span, "'" + var(id).name + "' is declared " + to_string(var(id).type) + " but its value is " + to_string(result));
        return std::nullopt;
      }
      return id;
    }
    const ir::Variable& v = var(t.destination.variable);
    if (v.type != result) {
      d_.error(span, "cannot assign " + to_string(result) + " to '" + v.name + "' of type " + to_string(v.type));
      return std::nullopt;
    }
    return v.id;
  }

  bool unmaskable(const OpOutput& t, const std::string& what, Span span) {
    if (!t.destination.mask) return true;
    d_.error(span, what + " cannot be written through a mask");
    return false;
  }

  void copy_into(int source, OpOutput& t, Span span, ir::Block& out) {
    auto id = output(t, var(source).type, span);
    if (!id) return;
    ir::Op op = new_op(ir::OpKind::copy, t.destination, span);
    op.outputs.push_back(*id);
    op.inputs.push_back(source);
    emit(std::move(op), out);
  }

  std::optional<Value> produced(int id) {
    Value v;
    v.type = var(id).type;
    v.variable = id;
    return v;
  }

  std::optional<Value> container_op(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
    if (e.kind == ast::ExprKind::binary) return product(e, t, out, depth);
    const std::string& name = e.text;
    if (name == "graph" || name == "matrix" || name == "vector") return construct(e, t, out);
    if (name == "transpose") {
      if (!positional_arguments(e, 1, 1)) return std::nullopt;
      auto x = container_argument(e.args[0], out, depth, "the argument of 'transpose'");
      if (!x) return std::nullopt;
      if (x->type.kind == TypeKind::vector) {
        d_.error(e.span, "transpose takes a graph or matrix; a vector is its own transpose");
        return std::nullopt;
      }
      auto id = output(t, x->type, e.span);
      if (!id) return std::nullopt;
      ir::Op op = new_op(ir::OpKind::transpose, t.destination, e.span);
      op.outputs.push_back(*id);
      op.inputs.push_back(x->variable);
      emit(std::move(op), out);
      return produced(*id);
    }
    if (name == "tril" || name == "triu") {  // tril(G[, k]): j - i <= k; triu(G[, k]): j - i >= k; k = 0 by default
      if (!positional_arguments(e, 1, 2)) return std::nullopt;
      auto x = container_argument(e.args[0], out, depth, "the first argument of '" + name + "'");
      if (!x) return std::nullopt;
      if (x->type.kind != TypeKind::graph) {
        d_.error(e.args[0].span, name + " takes a graph, found " + to_string(x->type));
        return std::nullopt;
      }
      std::optional<ir::Expr> diagonal = ir::make_constant(Scalar::i64, ir::Constant{}, e.span);
      if (e.args.size() == 2) diagonal = shape_value(e.args[1], out, "the diagonal of '" + name + "'");
      if (!diagonal) return std::nullopt;
      auto id = output(t, x->type, e.span);
      if (!id) return std::nullopt;
      ir::Op op = new_op(name == "tril" ? ir::OpKind::tril : ir::OpKind::triu, t.destination, e.span);
      op.outputs.push_back(*id);
      op.inputs.push_back(x->variable);
      op.value = std::move(*diagonal);
      emit(std::move(op), out);
      return produced(*id);
    }
    if (name == "apply") {
      if (!positional_arguments(e, 2, 2)) return std::nullopt;
      auto x = container_argument(e.args[0], out, depth, "the first argument of 'apply'");
      if (!x) return std::nullopt;
      auto fn = element_function(e.args[1], {x->type.element});
      if (!fn) return std::nullopt;
      Type result = x->type;
      result.element = fn->result;
      auto id = output(t, result, e.span);
      if (!id) return std::nullopt;
      ir::Op op = new_op(ir::OpKind::apply, t.destination, e.span);
      op.outputs.push_back(*id);
      op.inputs.push_back(x->variable);
      op.function = std::move(fn);
      emit(std::move(op), out);
      return produced(*id);
    }
    if (name == "union" || name == "intersect") {
      if (!positional_arguments(e, 3, 3)) return std::nullopt;
      auto x = container_argument(e.args[0], out, depth, "the first argument of '" + name + "'");
      auto y = container_argument(e.args[1], out, depth, "the second argument of '" + name + "'");
      if (!x || !y) return std::nullopt;
      if (x->type.kind != y->type.kind) {
        d_.error(e.span, "'" + name + "' combines containers of one kind, found " + to_string(x->type) + " and " + to_string(y->type));
        return std::nullopt;
      }
      auto fn = element_function(e.args[2], {x->type.element, y->type.element});
      if (!fn) return std::nullopt;
      if (name == "union" && (x->type.element != y->type.element || fn->result != x->type.element)) {
        d_.error(e.args[2].span, "union keeps the entries found in only one operand, so its operands and '" + fn->name +
                                     "' must share one element type");
        return std::nullopt;
      }
      Type result = x->type;
      result.element = fn->result;
      auto id = output(t, result, e.span);
      if (!id) return std::nullopt;
      ir::Op op = new_op(name == "union" ? ir::OpKind::ewise_union : ir::OpKind::ewise_intersect, t.destination, e.span);
      op.outputs.push_back(*id);
      op.inputs = {x->variable, y->variable};
      op.function = std::move(fn);
      emit(std::move(op), out);
      return produced(*id);
    }
    if (name == "closure") return closure(e, t, out, depth);
    if (name == "lu") return lu(e, t, out, depth);
    if (name == "dense") return densify(e, t, out, depth);
    return std::nullopt;
  }

  std::optional<Value> construct(const ast::Expr& e, OpOutput& t, ir::Block& out) {
    if (!e.type_arg) {  // graph(...) without <T>: neither a constructor nor a conversion
      d_.error(e.span, "a new " + e.text + " needs its element type: " + e.text + "<T>(" +
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
          a_.report_unknown(e.args[i].span, "argument", e.arg_names[i], {"fill"});
          return std::nullopt;
        }
        if (type->kind == TypeKind::graph) {
          d_.error(e.args[i].span, "a new graph starts empty; it takes no fill (use matrix<T> for dense storage)");
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
      d_.error(e.span, "a new " + kind_name(*type) + " takes " + (dims == 1 ? "its length" : "rows and columns") +
                           ", found " + std::to_string(shape.size()) + " dimension" + (shape.size() == 1 ? "" : "s"));
      return std::nullopt;
    }
    auto id = output(t, *type, e.span);
    if (!id) return std::nullopt;
    ir::Op op = new_op(ir::OpKind::construct, t.destination, e.span);
    op.outputs.push_back(*id);
    op.shape = std::move(shape);
    bool dense = type->kind == TypeKind::matrix || fill.has_value();
    if (dense && !fill) fill = ir::make_constant(type->element, {}, e.span);  // a new matrix is all zero
    op.dense = dense;
    op.value = std::move(fill);
    emit(std::move(op), out);
    return produced(*id);
  }

  std::optional<Value> product(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
    auto l = container_argument(e.args[0], out, depth, "the left operand of a product");
    auto r = container_argument(e.args[1], out, depth, "the right operand of a product");
    if (!l || !r) return std::nullopt;
    ir::OpKind kind;
    Type result;
    if (l->type.kind == TypeKind::vector && r->type.kind == TypeKind::vector) {
      d_.error(e.span, "a product of two vectors is not supported; use reduce(intersect(u, v, times), sum)");
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
    auto id = output(t, result, e.span);
    if (!id) return std::nullopt;
    ir::Op op = new_op(kind, t.destination, e.span);
    op.outputs.push_back(*id);
    op.inputs = {l->variable, r->variable};
    op.semiring = s;
    emit(std::move(op), out);
    return produced(*id);
  }

  std::optional<Value> closure(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
    for (const std::string& n : e.arg_names) {
      if (!n.empty()) {
        d_.error(e.span, "'closure' takes no named argument '" + n + "'");
        return std::nullopt;
      }
    }
    bool paths = e.args.size() == 2 && e.args[1].kind == ast::ExprKind::name && e.args[1].text == "paths";
    if (e.args.empty() || e.args.size() > 2 || (e.args.size() == 2 && !paths)) {
      d_.error(e.span, "closure takes a matrix and its semiring, as in closure(D over min_plus) or closure(D over min_plus, paths)");
      return std::nullopt;
    }
    const ast::Expr& arg = e.args[0];
    if (arg.over.empty()) {
      d_.error(arg.span, "closure needs a semiring: write closure(D over SEMIRING)");
      return std::nullopt;
    }
    ast::Expr operand = arg;
    operand.over.clear();
    auto d = container_argument(operand, out, depth, "the argument of 'closure'");
    if (!d) return std::nullopt;
    if (!d->type.is_two_dimensional()) {
      d_.error(arg.span, "closure takes a square graph or matrix, found " + to_string(d->type));
      return std::nullopt;
    }
    if (!unmaskable(t, "a closure", e.span)) return std::nullopt;
    int s = a_.instantiate(arg.over, arg.over_span, d->type.element, d->type.element);
    if (s < 0) return std::nullopt;
    const ir::SemiringInstance& inst = a_.module_.semirings[static_cast<size_t>(s)];
    if (inst.value_type != d->type.element) {
      d_.error(arg.over_span, "closure needs a semiring whose values have its operands' type; '" + arg.over + "' maps " +
                                  std::string(to_string(d->type.element)) + " to " + std::string(to_string(inst.value_type)));
      return std::nullopt;
    }
    ir::Op op = new_op(paths ? ir::OpKind::closure_paths : ir::OpKind::closure, t.destination, e.span);
    op.inputs.push_back(d->variable);
    op.semiring = s;
    if (!paths) {
      auto id = output(t, d->type, e.span);
      if (!id) return std::nullopt;
      op.outputs.push_back(*id);
      emit(std::move(op), out);
      return produced(*id);
    }
    Type predecessors = d->type;
    predecessors.element = Scalar::i32;
    return tuple_result(std::move(op), {d->type, predecessors}, t, e.span, out);
  }

  // dense(G, fill = v): the graph as a matrix of its element type, v where G has no entry. The fill
  // is required: no value is right for every use (0 for sums, inf for distances).
  std::optional<Value> densify(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
    const bool shaped = e.args.size() == 2 && e.arg_names[0].empty() && e.arg_names[1] == "fill";
    if (!shaped) {
      if (e.args.size() == 2 && !e.arg_names[1].empty() && e.arg_names[1] != "fill") {
        a_.report_unknown(e.args[1].span, "argument", e.arg_names[1], {"fill"});
        return std::nullopt;
      }
      d_.error(e.span, "dense takes a graph and the value of its absent entries, as in dense(G, fill = inf)");
      return std::nullopt;
    }
    auto g = container_argument(e.args[0], out, depth, "the argument of 'dense'");
    if (!g) return std::nullopt;
    if (g->type.kind != TypeKind::graph) {
      d_.error(e.args[0].span, "dense converts a graph to a matrix, found " + to_string(g->type));
      return std::nullopt;
    }
    auto v = value(e.args[1], out, depth + 1);
    if (!v) return std::nullopt;
    if (!v->type.is_scalar()) {
      d_.error(e.args[1].span, "the fill of 'dense' is a scalar, found " + to_string(v->type));
      return std::nullopt;
    }
    auto fill = convert_element(std::move(*v), g->type.element, e.args[1].span);
    if (!fill) return std::nullopt;
    auto id = output(t, Type::matrix(g->type.element), e.span);
    if (!id) return std::nullopt;
    ir::Op op = new_op(ir::OpKind::densify, t.destination, e.span);
    op.outputs.push_back(*id);
    op.inputs.push_back(g->variable);
    op.value = std::move(fill);
    emit(std::move(op), out);
    return produced(*id);
  }

  std::optional<Value> lu(const ast::Expr& e, OpOutput& t, ir::Block& out, int depth) {
    if (!positional_arguments(e, 1, 1)) return std::nullopt;
    auto a = container_argument(e.args[0], out, depth, "the argument of 'lu'");
    if (!a) return std::nullopt;
    if (a->type.kind != TypeKind::matrix || !is_float(a->type.element)) {
      d_.error(e.args[0].span, "lu factors a dense matrix<f32> or matrix<f64>, found " + to_string(a->type));
      return std::nullopt;
    }
    ir::Op op = new_op(ir::OpKind::lu, t.destination, e.span);
    op.inputs.push_back(a->variable);
    return tuple_result(std::move(op), {a->type, Type::vector(Scalar::i32)}, t, e.span, out);
  }

  // An op with two outputs can only feed a return (or a tuple); its outputs are temporaries.
  std::optional<Value> tuple_result(ir::Op op, std::vector<Type> types, OpOutput& t, Span span, ir::Block& out) {
    if (t.destination.variable >= 0 || !t.destination.label.empty() || t.destination.mask) {
      d_.error(span, std::string(ir::to_string(op.kind)) + " makes a tuple " + to_string(Type::tuple(types)) +
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

  std::optional<ir::ElementFunction> element_function(const ast::Expr& e, const std::vector<Scalar>& params) {
    if (e.kind != ast::ExprKind::name || !e.over.empty()) {
      d_.error(e.span, "expected the name of a function (a fn, or a builtin such as min, plus, abs)");
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
      d_.error(e.span, "'" + e.text + "' needs operands of one type, found " + std::string(to_string(params[0])) +
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
      a_.report_unknown(e.span, binary ? "binary function" : "unary function", e.text, candidates);
      return std::nullopt;
    }
    const ir::Function& fn = a_.module_.functions[static_cast<size_t>(it->second)];
    if (fn.parameter_types != params) {
      std::string want = "(";
      for (size_t i = 0; i < params.size(); ++i) want += (i ? ", " : "") + std::string(to_string(params[i]));
      d_.error(e.span, "function '" + fn.name + "' does not take the elements " + want + ")");
      return std::nullopt;
    }
    f.result = fn.result;
    f.body.kind = ir::ExprKind::call;
    f.body.callee = fn.name;
    f.body.type = fn.result;
    for (size_t i = 0; i < params.size(); ++i) f.body.operands.push_back(param_expr(static_cast<int>(i), params[i]));
    return f;
  }

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

}  // namespace

void Analyzer::check_kernel(const ast::Kernel& k) {
  KernelChecker checker(*this, k);
  auto kernel = checker.run();
  if (kernel) module_.kernels.push_back(std::move(*kernel));
}

}  // namespace gql::compiler::sema
