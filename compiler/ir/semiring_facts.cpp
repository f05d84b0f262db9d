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

}  // namespace gql::compiler::ir
