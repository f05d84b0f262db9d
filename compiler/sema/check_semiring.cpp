// Semirings: the declaration's members (con, agg, zero, terminal) and their instantiation at the
// element types of a product's operands, with every builtin monoid's identity made explicit.
#include <algorithm>

#include "gql/error.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

const std::vector<std::string> member_names = {"con", "agg", "zero", "terminal"};

const ast::SemiringMember* find_member(const ast::Semiring& s, const std::string& name) {
  for (const ast::SemiringMember& m : s.members) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

bool is_builtin_agg(const ast::SemiringMember& agg) {
  return !agg.has_params && agg.body.value && agg.body.value->kind == ast::ExprKind::name && agg.body.value->over.empty();
}

void scan_operands(const ir::Expr& e, ir::SemiringInstance& s) {
  if (e.kind == ir::ExprKind::operand) (e.index == 0 ? s.reads_a : s.reads_b) = true;
  if (e.kind == ir::ExprKind::position) s.positional = true;
  for (const ir::Expr& o : e.operands) scan_operands(o, s);
}

ir::Expr infinity(Scalar t, bool negative) {
  ir::Expr e;
  e.kind = ir::ExprKind::infinity;
  e.type = t;
  e.negative = negative;
  return e;
}

ir::Expr constant_of(Scalar t, int64_t v) {
  ir::Value one = ir::convert(ir::Value{Scalar::i64, ir::Constant{false, v, 0, 0.0}}, t);
  return ir::make_constant(t, one.v);
}

}  // namespace

// The identity of a builtin monoid at type t, and its terminal (absorbing) value if it has one.
static ir::Expr monoid_identity(gql::Monoid m, Scalar t) {
  if (t == Scalar::bool_ && (m == gql::Monoid::min || m == gql::Monoid::max)) return constant_of(t, m == gql::Monoid::min);
  switch (m) {
    case gql::Monoid::prod: return constant_of(t, 1);
    case gql::Monoid::min: return infinity(t, false);
    case gql::Monoid::max: return infinity(t, true);
    case gql::Monoid::land: return constant_of(t, 1);
    default: return constant_of(t, 0);
  }
}
static std::optional<ir::Expr> monoid_terminal(gql::Monoid m, Scalar t) {
  if (t == Scalar::bool_ && (m == gql::Monoid::min || m == gql::Monoid::max)) return constant_of(t, m == gql::Monoid::max);
  switch (m) {
    case gql::Monoid::prod: if (is_integer(t)) return constant_of(t, 0); return std::nullopt;
    case gql::Monoid::min: return infinity(t, true);
    case gql::Monoid::max: return infinity(t, false);
    case gql::Monoid::lor: return constant_of(t, 1);
    case gql::Monoid::land: return constant_of(t, 0);
    default: return std::nullopt;
  }
}

// The builtin monoid a user-written agg spells, if it is one: x + y, x * y, min(x, y), max(x, y),
// x || y, x && y (either operand order), with zero that monoid's identity. Such an agg then takes the
// monoid's paths (the CPU's counting accumulator, the GPU's native atomics) instead of a user agg's.
static std::optional<gql::Monoid> monoid_spelled(const ir::Expr& agg, const ir::Expr& zero, const ir::Module& module,
                                                 Scalar t) {
  if (agg.operands.size() != 2) return std::nullopt;
  const ir::Expr& x = agg.operands[0];
  const ir::Expr& y = agg.operands[1];
  const bool operands = x.kind == ir::ExprKind::operand && y.kind == ir::ExprKind::operand && x.index != y.index &&
                        x.type == t && y.type == t && agg.type == t;
  if (!operands) return std::nullopt;
  std::optional<gql::Monoid> m;
  if (agg.kind == ir::ExprKind::binary) {
    switch (agg.binary) {
      case ir::BinaryOp::add: if (t != Scalar::bool_) m = gql::Monoid::sum; break;
      case ir::BinaryOp::mul: if (t != Scalar::bool_) m = gql::Monoid::prod; break;
      case ir::BinaryOp::logical_or: m = gql::Monoid::lor; break;
      case ir::BinaryOp::logical_and: m = gql::Monoid::land; break;
      default: break;
    }
  } else if (agg.kind == ir::ExprKind::builtin && (agg.builtin == ir::Builtin::min || agg.builtin == ir::Builtin::max)) {
    m = agg.builtin == ir::Builtin::min ? gql::Monoid::min : gql::Monoid::max;
  }
  if (!m) return std::nullopt;
  try {
    const ir::Value identity = ir::evaluate(monoid_identity(*m, t), module, {});
    const ir::Value stated = ir::evaluate(zero, module, {});
    const bool same = identity.type == stated.type && ir::as_double(identity) == ir::as_double(stated) &&
                      identity.v.signed_ == stated.v.signed_ && identity.v.unsigned_ == stated.v.unsigned_ &&
                      identity.v.boolean == stated.v.boolean;
    return same ? m : std::nullopt;
  } catch (const Error&) {
    return std::nullopt;
  }
}

void Analyzer::check_semiring_declaration(const ast::Semiring& s) {
  size_t errors = diagnostics_.error_count();
  if (s.type_params.size() > 1) {
    diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                       "semiring '" + s.name + "' has more than one type parameter; one (T) is allowed");
  }
  if (!s.params.empty() && s.params.size() != 2) {
    diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                       "the signature of semiring '" + s.name + "' names two operands (a: A, b: B)");
  }
  if (!s.type_params.empty() && !s.params.empty()) {
    bool bound = false;
    for (const ast::Param& p : s.params) bound = bound || (p.type && p.type->name == s.type_params[0]);
    if (!bound) diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                                   "type parameter '" + s.type_params[0] + "' must be the type of an operand");
  }
  if (s.type_params.empty() && s.params.empty()) {
    diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                       "semiring '" + s.name + "' needs a type parameter <T> or a signature (a: A, b: B) -> V");
  }
  std::map<std::string, Span> seen;
  for (const ast::SemiringMember& m : s.members) {
    if (std::find(member_names.begin(), member_names.end(), m.name) == member_names.end()) {
      report_unknown(m.span, DiagnosticId::semiring_definition, "semiring member", m.name, member_names);
      continue;
    }
    if (auto it = seen.find(m.name); it != seen.end()) {
      if (Diagnostic* d = diagnostics_.error(m.span, DiagnosticId::redefinition,
                                             "semiring '" + s.name + "' defines '" + m.name + "' twice")) {
        d->notes.push_back({it->second, "first defined here"});
      }
      continue;
    }
    seen[m.name] = m.span;
    bool wants_params = m.name == "con" || (m.name == "agg" && m.has_params);
    if (wants_params && m.params.size() != 2) {
      diagnostics_.error(m.span, DiagnosticId::semiring_definition,
                         "'" + m.name + "' takes two operands, as in " + m.name +
                             (m.name == "con" ? "(a, b)" : "(x, y)"));
    }
    if (!wants_params && m.has_params) diagnostics_.error(m.span, DiagnosticId::semiring_definition,
                                                          "'" + m.name + "' takes no operands");
    if (m.name == "agg" && is_builtin_agg(m)) {
      const std::string& monoid = m.body.value->text;
      if (!monoid_named(monoid)) report_unknown(m.body.value->span, DiagnosticId::unknown_name,
                                                "monoid", monoid, monoid_words());
      continue;
    }
    if (m.name == "agg" && !m.has_params) {
      diagnostics_.error(m.span, DiagnosticId::semiring_definition,
                         "agg is a builtin monoid (agg = min) or a function of two operands (agg(x, y) = ...)");
      continue;
    }
    check_pure_body(m.body, m.name + " of semiring '" + s.name + "'");
  }
  const ast::SemiringMember* agg = find_member(s, "agg");
  if (!find_member(s, "con")) diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                                                 "semiring '" + s.name + "' has no 'con'");
  if (!agg) diagnostics_.error(s.name_span, DiagnosticId::semiring_definition,
                               "semiring '" + s.name + "' has no 'agg'");
  if (agg && agg->has_params && !find_member(s, "zero")) {
    if (Diagnostic* d = diagnostics_.error(agg->span, DiagnosticId::semiring_definition,
                                           "semiring '" + s.name + "' has a user-written agg but no 'zero'")) {
      d->notes.push_back({s.name_span, "add `zero = ...;`, the identity of agg"});
    }
  }
  semiring_ok_[s.name] = diagnostics_.error_count() == errors;
}

int Analyzer::instantiate(const std::string& name, Span use, Scalar a, Scalar b) {
  auto found = semirings_.find(name);
  if (found == semirings_.end()) {
    std::vector<std::string> names;
    for (const auto& [n, decl] : semirings_) names.push_back(n);
    report_unknown(use, DiagnosticId::unknown_name, "semiring", name, names);
    return -1;
  }
  const ast::Semiring& s = *found->second;
  if (!semiring_ok_[name]) return -1;

  // Operand types: the signature's (with T bound from the operands), or T x T.
  std::map<std::string, Scalar> bound;
  Scalar a_type = a, b_type = b;
  if (s.params.empty()) {
    if (a != b) {
      diagnostics_.error(use, DiagnosticId::semiring_operands,
                         "the operands of '" + name + "<" + s.type_params[0] + ">' must have one element type, found " +
                             std::string(to_string(a)) + " and " + std::string(to_string(b)));
      return -1;
    }
    bound[s.type_params[0]] = a;
  } else {
    Scalar actual[2] = {a, b};
    for (size_t i = 0; i < 2; ++i) {
      const ast::TypeExpr& t = *s.params[i].type;
      if (!s.type_params.empty() && t.name == s.type_params[0]) {
        if (auto it = bound.find(t.name); it != bound.end() && it->second != actual[i]) {
          diagnostics_.error(use, DiagnosticId::semiring_operands,
                             "the operands of '" + name + "' must share their element type " + t.name);
          return -1;
        }
        bound[t.name] = actual[i];
      }
    }
    std::optional<Type> declared[2] = {resolve_type(*s.params[0].type, bound), resolve_type(*s.params[1].type, bound)};
    if (!declared[0] || !declared[1]) return -1;
    if (!declared[0]->is_scalar() || !declared[1]->is_scalar()) {
      diagnostics_.error(s.name_span, DiagnosticId::semiring_definition, "the operands of a semiring are scalars");
      return -1;
    }
    a_type = declared[0]->element;
    b_type = declared[1]->element;
    if (a_type != a || b_type != b) {
      diagnostics_.error(use, DiagnosticId::semiring_operands,
                         "semiring '" + name + "' takes " + std::string(to_string(a_type)) + " x " +
                             std::string(to_string(b_type)) + " operands, but the product's elements are " +
                             std::string(to_string(a)) + " x " + std::string(to_string(b)));
      return -1;
    }
  }
  std::optional<Scalar> result;
  if (s.result) {
    auto t = resolve_type(*s.result, bound);
    if (!t) return -1;
    if (!t->is_scalar()) {
      diagnostics_.error(s.result->span, DiagnosticId::semiring_definition,
                         "a semiring's values are scalars, not " + to_string(*t));
      return -1;
    }
    result = t->element;
  }

  std::string key = name + "|" + std::string(to_string(a_type)) + "|" + std::string(to_string(b_type));
  if (auto it = instances_.find(key); it != instances_.end()) return it->second;
  instances_[key] = -1;  // an instantiation that fails reports once

  ir::SemiringInstance inst;
  inst.semiring = name;
  inst.a_type = a_type;
  inst.b_type = b_type;
  inst.span = s.span;
  const ast::SemiringMember& con = *find_member(s, "con");
  PureContext con_context;
  con_context.what = "con of semiring '" + name + "'";
  con_context.positions = true;
  for (int i = 0; i < 2; ++i) {
    ir::Expr operand;
    operand.kind = ir::ExprKind::operand;
    operand.index = i;
    operand.type = i == 0 ? a_type : b_type;
    con_context.names[con.params[static_cast<size_t>(i)].name] = operand;
  }
  const char* positions = "ikj";
  for (int i = 0; i < 3; ++i) {
    ir::Expr p;
    p.kind = ir::ExprKind::position;
    p.index = i;
    p.type = Scalar::i64;
    con_context.names.emplace(std::string(1, positions[i]), p);
  }
  auto con_expr = lower_pure_body(con.body, con_context, result);
  if (!con_expr) return -1;
  inst.value_type = con_expr->type;
  inst.con = std::move(*con_expr);
  scan_operands(inst.con, inst);
  inst.reads_values = inst.reads_a || inst.reads_b;

  Scalar v = inst.value_type;
  const ast::SemiringMember& agg = *find_member(s, "agg");
  auto value_of = [&](const char* member) -> std::optional<ir::Expr> {
    const ast::SemiringMember* m = find_member(s, member);
    PureContext context;
    context.what = std::string(member) + " of semiring '" + name + "'";
    return lower_pure_body(m->body, context, v);
  };
  if (is_builtin_agg(agg)) {
    inst.monoid = *monoid_named(agg.body.value->text);
    bool logical = inst.monoid == gql::Monoid::lor || inst.monoid == gql::Monoid::land;
    if (logical && v != Scalar::bool_) {
      diagnostics_.error(agg.span, DiagnosticId::monoid_type,
                         "monoid '" + agg.body.value->text + "' needs bool values, but con of '" + name +
                             "' makes " + std::string(to_string(v)));
      return -1;
    }
    if (!logical && inst.monoid != gql::Monoid::any && v == Scalar::bool_ &&
        (inst.monoid == gql::Monoid::sum || inst.monoid == gql::Monoid::prod)) {
      diagnostics_.error(agg.span, DiagnosticId::monoid_type,
                         "monoid '" + agg.body.value->text + "' needs numbers, but con of '" + name +
                             "' makes bool; use 'or' or 'and'");
      return -1;
    }
    inst.zero = monoid_identity(inst.monoid, v);
    inst.terminal = monoid_terminal(inst.monoid, v);
    if (const ast::SemiringMember* zero = find_member(s, "zero")) {
      auto z = value_of("zero");
      if (!z) return -1;
      bool same = false;
      try {
        same = ir::as_double(ir::evaluate(*z, module_, {})) == ir::as_double(ir::evaluate(inst.zero, module_, {}));
      } catch (const Error&) {
        same = false;
      }
      if (!same) {
        diagnostics_.error(zero->span, DiagnosticId::zero_not_monoid_identity,
                           "zero of semiring '" + name + "' is not the identity of the builtin monoid '" +
                               agg.body.value->text + "'; leave it out, it is implied");
        return -1;
      }
    }
  } else {
    inst.monoid = gql::Monoid::user;
    PureContext context;
    context.what = "agg of semiring '" + name + "'";
    for (int i = 0; i < 2; ++i) {
      ir::Expr operand;
      operand.kind = ir::ExprKind::operand;
      operand.index = i;
      operand.type = v;
      context.names[agg.params[static_cast<size_t>(i)].name] = operand;
    }
    auto agg_expr = lower_pure_body(agg.body, context, v);
    if (!agg_expr) return -1;
    inst.agg = std::move(*agg_expr);
    auto z = value_of("zero");
    if (!z) return -1;
    inst.zero = std::move(*z);
    if (const auto spelled = monoid_spelled(inst.agg.value(), inst.zero, module_, v)) {
      inst.monoid = *spelled;
      inst.agg.reset();
      inst.terminal = monoid_terminal(inst.monoid, v);
    }
  }
  if (const ast::SemiringMember* terminal = find_member(s, "terminal")) {
    auto t = value_of("terminal");
    if (!t) return -1;
    if (inst.monoid != gql::Monoid::user && inst.monoid != gql::Monoid::any) {
      // A builtin monoid's absorbing value is known (any value absorbs under 'any'): a stated one must be it.
      const std::string monoid = monoid_word(inst.monoid);
      bool same = false;
      try {
        same = inst.terminal &&
               ir::as_double(ir::evaluate(*t, module_, {})) == ir::as_double(ir::evaluate(*inst.terminal, module_, {}));
      } catch (const Error&) {
        same = false;
      }
      if (!same) {
        diagnostics_.error(terminal->span, DiagnosticId::terminal_not_absorbing,
                           "terminal of semiring '" + name + "' does not absorb under the builtin monoid '" +
                               monoid + "'" + (inst.terminal ? "; leave it out, its terminal is implied"
                                                             : ", which has no absorbing value; leave it out"));
        return -1;
      }
    }
    inst.terminal = std::move(*t);
  }
  inst.name = name + "_" + std::string(to_string(a_type)) + "_" + std::string(to_string(b_type)) + "_" +
              std::string(to_string(v));
  if (inst.monoid == gql::Monoid::user) {
    check_laws(inst);
    if (inst.terminal && !check_terminal(inst, find_member(s, "terminal")->span)) return -1;
  }
  int index = static_cast<int>(module_.semirings.size());
  module_.semirings.push_back(std::move(inst));
  instances_[key] = index;
  return index;
}

}  // namespace gql::compiler::sema
