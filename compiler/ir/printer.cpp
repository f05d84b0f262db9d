// `--emit ir`: the stable text form of the IR. Expressions print fully parenthesized with typed
// constants (`1:u64`); every op prints its schedule for the module's target on the next line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::ir {

const char* to_string(gql::Monoid monoid) noexcept {
  switch (monoid) {
    case gql::Monoid::sum: return "sum";
    case gql::Monoid::prod: return "prod";
    case gql::Monoid::min: return "min";
    case gql::Monoid::max: return "max";
    case gql::Monoid::lor: return "lor";
    case gql::Monoid::land: return "land";
    case gql::Monoid::any: return "any";
    case gql::Monoid::user: return "user";
  }
  return "?";
}

const char* to_string(Accumulator a) noexcept {
  switch (a) {
    case Accumulator::auto_: return "auto";
    case Accumulator::dense: return "dense";
    case Accumulator::hash: return "hash";
    case Accumulator::sort: return "sort";
  }
  return "?";
}

const char* to_string(MaskedMethod m) noexcept {
  switch (m) {
    case MaskedMethod::auto_: return "auto";
    case MaskedMethod::saxpy: return "saxpy";
    case MaskedMethod::dot: return "dot";
  }
  return "?";
}

const Kernel* Module::find_kernel(const std::string& name) const {
  for (const Kernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

namespace {

// The shortest text that reads back as the same double.
std::string number(double v) {
  char buffer[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, v);
    if (std::strtod(buffer, nullptr) == v || std::isnan(v)) break;
  }
  std::string s = buffer;
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string constant_text(Scalar type, const Constant& c) {
  std::string v;
  if (type == Scalar::bool_) v = c.boolean ? "true" : "false";
  else if (is_float(type)) v = number(c.floating);
  else if (is_signed(type)) v = std::to_string(c.signed_);
  else v = std::to_string(c.unsigned_);
  return v + ":" + std::string(to_string(type));
}

const char* binary_text(BinaryOp op) {
  switch (op) {
    case BinaryOp::add: return "+";
    case BinaryOp::sub: return "-";
    case BinaryOp::mul: return "*";
    case BinaryOp::div: return "/";
    case BinaryOp::mod: return "%";
    case BinaryOp::eq: return "==";
    case BinaryOp::ne: return "!=";
    case BinaryOp::lt: return "<";
    case BinaryOp::le: return "<=";
    case BinaryOp::gt: return ">";
    case BinaryOp::ge: return ">=";
    case BinaryOp::logical_and: return "&&";
    case BinaryOp::logical_or: return "||";
  }
  return "?";
}

std::string threads_text(int threads) { return threads == 0 ? "auto" : std::to_string(threads); }

std::string schedule_text(const Schedule& schedule, Target target) {
  bool cuda = target == Target::cuda;
  std::string s = std::string("schedule ") + to_string(target) + ": ";
  if (const auto* p = std::get_if<ProductSchedule>(&schedule)) {
    if (!cuda)
      return s + "threads " + threads_text(p->threads) + ", accumulator " + to_string(p->accumulator) + ", masked " +
             to_string(p->masked);
    s += "rows {";
    for (size_t i = 0; i < p->rows.size(); ++i) {
      const RowClass& r = p->rows[i];
      s += (i ? "; " : "") + r.name + " >= " + std::to_string(r.min_work) + ": " + to_string(r.accumulator);
      if (r.accumulator == Accumulator::sort) s += "(chunk = " + std::to_string(r.chunk) + ")";
    }
    return s + "}, block " + std::to_string(p->block) + ", masked " + to_string(p->masked);
  }
  if (const auto* t = std::get_if<TraversalSchedule>(&schedule)) {
    static const char* directions[] = {"push", "pull", "auto"};
    static const char* formats[] = {"auto", "sparse", "dense"};
    s += std::string("direction ") + directions[static_cast<int>(t->direction)];
    if (t->direction == Direction::auto_) s += "(alpha = " + number(t->alpha) + ", beta = " + number(t->beta) + ")";
    s += std::string(", frontier ") + formats[static_cast<int>(t->frontier)];
    if (t->method == TraversalMethod::edge_centric) s += ", method edge_centric";
    if (t->method == TraversalMethod::delta_stepping) s += ", method delta_stepping(delta = " + number(t->delta) + ")";
    if (t->balance != LoadBalance::edge) s += std::string(", balance ") + balance_name(t->balance);
    return s + (cuda ? ", block " + std::to_string(t->block) : ", threads " + threads_text(t->threads));
  }
  if (const auto* c = std::get_if<ClosureSchedule>(&schedule)) {
    s += "tile " + (c->tile == 0 ? std::string("auto") : std::to_string(c->tile));
    if (cuda) {
      static const char* toggles[] = {"off", "on", "auto"};
      if (c->per_thread > 0) s += ", shared tiles, per_thread " + std::to_string(c->per_thread) + (c->spread ? " spread" : " packed");
      else s += ", register tiles " + std::to_string(c->register_rows) + "x" + std::to_string(c->register_cols);
      s += std::string(", out_of_core ") + toggles[static_cast<int>(c->out_of_core)];
      if (c->out_of_core != Toggle::off) s += "(streams = " + std::to_string(c->streams) + ")";
      return s;
    }
    static const char* modes[] = {"tasks", "parallel_for", "recursive"};
    s += std::string(", ") + modes[static_cast<int>(c->parallelism)];
    if (c->parallelism == ClosureParallelism::recursive) s += "(base = " + std::to_string(c->recursive_base) + ")";
    return s + ", threads " + threads_text(c->threads);
  }
  if (const auto* l = std::get_if<LuSchedule>(&schedule)) {
    s += "tile " + std::to_string(l->tile) + ", gemm " + (l->gemm == Gemm::vendor ? "vendor" : "native");
    return cuda ? s : s + ", threads " + threads_text(l->threads);
  }
  if (const auto* e = std::get_if<ElementwiseSchedule>(&schedule)) {
    return s + (cuda ? "block " + std::to_string(e->block) : "threads " + threads_text(e->threads));
  }
  return "";
}

class Printer {
 public:
  Printer(const Module& m, std::string& out) : module_(m), out_(out) {}

  void line(int depth, const std::string& text) {
    out_.append(static_cast<size_t>(depth) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }

  std::string var(int id) const {
    if (!kernel_ || id < 0 || static_cast<size_t>(id) >= kernel_->variables.size()) return "?";
    return kernel_->variables[static_cast<size_t>(id)].name;
  }

  void block(int depth, const Block& b) {
    for (const Stmt& s : b) stmt(depth, s);
  }

  void stmt(int depth, const Stmt& s) {
    switch (s.kind) {
      case StmtKind::declare: {
        const Variable& v = kernel_->variables.at(static_cast<size_t>(s.variable));
        std::string text = std::string(v.immutable ? "let " : "var ") + v.name + ": " + to_string(v.type);
        if (s.value) text += " = " + print_expr(*s.value, kernel_);
        line(depth, text);
        return;
      }
      case StmtKind::assign: line(depth, var(s.variable) + " = " + print_expr(*s.value, kernel_)); return;
      case StmtKind::op:
        op(depth, s.op);
        if (!s.otherwise.empty()) {  // a recognized loop keeps the loop it replaces as its fallback
          line(depth + 1, "unless exact, instead {");
          block(depth + 2, s.otherwise);
          line(depth + 1, "}");
        }
        return;
      case StmtKind::while_:
        if (s.prelude.empty()) {
          line(depth, "while " + print_expr(*s.condition, kernel_) + " {");
        } else {
          line(depth, "while {");
          block(depth + 1, s.prelude);
          line(depth + 1, "break unless " + print_expr(*s.condition, kernel_));
        }
        block(depth + 1, s.body);
        line(depth, "}");
        return;
      case StmtKind::if_:
        line(depth, "if " + print_expr(*s.condition, kernel_) + " {");
        block(depth + 1, s.body);
        if (!s.otherwise.empty()) {
          line(depth, "} else {");
          block(depth + 1, s.otherwise);
        }
        line(depth, "}");
        return;
      case StmtKind::require_:
        line(depth, "require " + print_expr(*s.condition, kernel_) + ", \"" + s.message + "\"");
        return;
      case StmtKind::return_: {
        std::string text = "return ";
        for (size_t i = 0; i < s.results.size(); ++i) text += (i ? ", " : "") + var(s.results[i]);
        line(depth, text);
        return;
      }
    }
  }

  void op(int depth, const Op& o) {
    std::string text;
    if (!o.label.empty()) text += "@" + o.label + " ";
    for (size_t i = 0; i < o.outputs.size(); ++i) text += (i ? ", " : "") + var(o.outputs[i]);
    if (o.mask) {
      const std::string m = o.mask->value ? "value(" + var(o.mask->variable) + ")" : var(o.mask->variable);
      text += std::string("<") + (o.mask->complement ? "!" : "") + m + (o.replace ? ", replace" : "") + ">";
    }
    text += std::string(" = ") + to_string(o.kind) + "(";
    std::string args;
    auto arg = [&](const std::string& a) { args += (args.empty() ? "" : ", ") + a; };
    for (size_t n = 0; n < o.inputs.size(); ++n) {  // an input read through folded applies: f(g(x))
      std::string read = var(o.inputs[n]);
      if (!o.folded.empty())
        for (const FoldedApply& a : o.folded[n]) read = "apply " + a.function.name + "(" + read + ")";
      arg(read);
    }
    for (const Expr& e : o.shape) arg(print_expr(e, kernel_));
    if (o.kind == OpKind::construct) arg(o.dense ? "dense" : "sparse");
    if (o.value) arg(print_expr(*o.value, kernel_));
    if (o.kind == OpKind::reduce) arg(to_string(o.monoid));
    if (o.function) {
      std::string f = o.function->name + "(";
      for (size_t i = 0; i < o.function->parameter_types.size(); ++i) {
        f += (i ? ", " : "") + std::string(to_string(o.function->parameter_types[i]));
      }
      arg("fn " + f + ") -> " + std::string(to_string(o.function->result)) + " = " + print_expr(o.function->body));
    }
    text += args + ")";
    if (o.semiring >= 0) text += " over " + module_.semirings.at(static_cast<size_t>(o.semiring)).name;
    line(depth, text);
    if (!std::holds_alternative<std::monostate>(o.schedule)) line(depth + 2, schedule_text(o.schedule, module_.target));
    for (const Op& fused : o.fused_product) {
      line(depth + 2, "fused, computed in this op's pass:");
      op(depth + 3, fused);
    }
  }

  void semiring(const SemiringInstance& s) {
    line(0, "semiring " + s.name + " = " + s.semiring + "(a: " + std::string(to_string(s.a_type)) + ", b: " +
                std::string(to_string(s.b_type)) + ") -> " + std::string(to_string(s.value_type)) + " {");
    line(1, "con = " + print_expr(s.con));
    line(1, std::string("agg = ") + (s.agg ? "user " + print_expr(*s.agg, nullptr, "xy") : to_string(s.monoid)));
    line(1, "zero = " + print_expr(s.zero));
    line(1, "terminal = " + (s.terminal ? print_expr(*s.terminal) : std::string("none")));
    line(1, std::string("reads_values = ") + (s.reads_values ? "true" : "false") + ", reads_a = " +
                (s.reads_a ? "true" : "false") + ", reads_b = " + (s.reads_b ? "true" : "false") +
                ", positional = " + (s.positional ? "true" : "false"));
    line(0, "}");
  }

  void kernel(const Kernel& k) {
    kernel_ = &k;
    std::string head = "kernel " + k.name + "(";
    for (size_t i = 0; i < k.parameters.size(); ++i) {
      const Variable& v = k.variables.at(static_cast<size_t>(k.parameters[i]));
      head += (i ? ", " : "") + v.name + ": " + to_string(v.type);
    }
    head += ") -> ";
    head += k.results.size() == 1 ? to_string(k.results[0]) : to_string(Type::tuple(k.results));
    line(0, head + " {");
    block(1, k.body);
    line(0, "}");
    kernel_ = nullptr;
  }

  void module() {
    line(0, std::string("module target ") + to_string(module_.target));
    for (const ConstantDecl& c : module_.constants) {
      line(0, "const " + c.name + ": " + std::string(to_string(c.value.type)) + " = " + print_expr(c.value));
    }
    for (const Function& f : module_.functions) {
      std::string head = "fn " + f.name + "(";
      for (size_t i = 0; i < f.parameter_names.size(); ++i) {
        head += (i ? ", " : "") + f.parameter_names[i] + ": " + std::string(to_string(f.parameter_types[i]));
      }
      line(0, head + ") -> " + std::string(to_string(f.result)) + " = " + print_expr(f.body));
    }
    for (const SemiringInstance& s : module_.semirings) semiring(s);
    for (const Kernel& k : module_.kernels) kernel(k);
  }

 private:
  const Module& module_;
  std::string& out_;
  const Kernel* kernel_ = nullptr;
};

}  // namespace

std::string print_expr(const Expr& e, const Kernel* kernel, const char* operand_names) {
  auto sub = [&](size_t i) { return print_expr(e.operands.at(i), kernel, operand_names); };
  auto args = [&]() {
    std::string s;
    for (size_t i = 0; i < e.operands.size(); ++i) s += (i ? ", " : "") + sub(i);
    return s;
  };
  switch (e.kind) {
    case ExprKind::constant: return constant_text(e.type, e.value);
    case ExprKind::infinity: return std::string(e.negative ? "-inf:" : "inf:") + std::string(to_string(e.type));
    case ExprKind::variable:
      if (kernel && e.index >= 0 && static_cast<size_t>(e.index) < kernel->variables.size()) {
        return kernel->variables[static_cast<size_t>(e.index)].name;
      }
      return "%v" + std::to_string(e.index);
    case ExprKind::parameter: return "%p" + std::to_string(e.index);
    case ExprKind::operand: return "%" + std::string(1, operand_names[e.index == 0 ? 0 : 1]);
    case ExprKind::position: return std::string("%") + "ikj"[e.index % 3];
    case ExprKind::unary: return std::string(e.unary == UnaryOp::negate ? "-" : "!") + sub(0);
    case ExprKind::binary: return "(" + sub(0) + " " + binary_text(e.binary) + " " + sub(1) + ")";
    case ExprKind::builtin: {
      static const char* names[] = {"min", "max", "abs", "sqrt"};
      return std::string(names[static_cast<int>(e.builtin)]) + "(" + args() + ")";
    }
    case ExprKind::call: return e.callee + "(" + args() + ")";
    case ExprKind::cast: return std::string(to_string(e.type)) + "(" + sub(0) + ")";
    case ExprKind::select: return "(" + sub(0) + " ? " + sub(1) + " : " + sub(2) + ")";
    case ExprKind::dimension: {
      static const char* names[] = {"rows", "cols", "nvals"};
      std::string name = kernel && e.index >= 0 && static_cast<size_t>(e.index) < kernel->variables.size()
                             ? kernel->variables[static_cast<size_t>(e.index)].name
                             : "%v" + std::to_string(e.index);
      return std::string(names[static_cast<int>(e.dimension)]) + "(" + name + ")";
    }
  }
  return "?";
}

std::string print_module(const Module& module) {
  std::string out;
  Printer(module, out).module();
  return out;
}

}  // namespace gql::compiler::ir
