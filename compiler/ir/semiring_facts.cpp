// Facts of a semiring instance that the plan and the code generators share.
#include "gql/compiler/ir.hpp"

namespace gql::compiler::ir {

bool multiplies_operands(const SemiringInstance& s) {
  const Expr& con = s.con;
  const auto is_operand = [](const Expr& e, int index) { return e.kind == ExprKind::operand && e.index == index; };
  return s.a_type == s.value_type && s.b_type == s.value_type && con.kind == ExprKind::binary &&
         con.binary == BinaryOp::mul && con.operands.size() == 2 && is_operand(con.operands[0], 0) &&
         is_operand(con.operands[1], 1);
}

namespace {
bool reads_position(const Expr& e, int index) {
  if (e.kind == ExprKind::position && e.index == index) return true;
  for (const Expr& o : e.operands)
    if (reads_position(o, index)) return true;
  return false;
}
}  // namespace

bool con_reads_k(const SemiringInstance& s) { return reads_position(s.con, 1); }

bool first_term_decides(const SemiringInstance& s) {
  const bool idempotent = s.monoid == gql::Monoid::min || s.monoid == gql::Monoid::max ||
                          s.monoid == gql::Monoid::lor || s.monoid == gql::Monoid::land;
  return idempotent && !s.reads_values && !con_reads_k(s);
}

}  // namespace gql::compiler::ir
