// The compile-time evaluator against plain C++ arithmetic on the same types.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gql/compiler/ir.hpp"
#include "gql/error.hpp"

namespace gql::compiler::ir {
namespace {

Expr binary(BinaryOp op, Scalar t) {
  Expr e;
  e.kind = ExprKind::binary;
  e.binary = op;
  e.type = t;
  for (int i = 0; i < 2; ++i) {
    Expr o;
    o.kind = ExprKind::operand;
    o.index = i;
    o.type = t;
    e.operands.push_back(o);
  }
  return e;
}

Value of_signed(Scalar t, int64_t v) { return convert(Value{Scalar::i64, {false, v, 0, 0.0}}, t); }

TEST(Evaluate, IntegerArithmeticWrapsLikeCpp) {
  Module m;
  for (int a = -128; a < 128; a += 5) {
    for (int b = -128; b < 128; b += 7) {
      Value r = evaluate(binary(BinaryOp::add, Scalar::u8), m, {of_signed(Scalar::u8, a), of_signed(Scalar::u8, b)});
      EXPECT_EQ(r.v.unsigned_, static_cast<uint8_t>(static_cast<uint8_t>(a) + static_cast<uint8_t>(b)));
      Value p = evaluate(binary(BinaryOp::mul, Scalar::i16), m, {of_signed(Scalar::i16, a * 97), of_signed(Scalar::i16, b * 89)});
      EXPECT_EQ(p.v.signed_, static_cast<int16_t>(static_cast<uint16_t>(a * 97) * static_cast<uint16_t>(b * 89)));
      if (b != 0) {
        Value q = evaluate(binary(BinaryOp::div, Scalar::i32), m, {of_signed(Scalar::i32, a), of_signed(Scalar::i32, b)});
        EXPECT_EQ(q.v.signed_, a / b);
        Value rem = evaluate(binary(BinaryOp::mod, Scalar::i32), m, {of_signed(Scalar::i32, a), of_signed(Scalar::i32, b)});
        EXPECT_EQ(rem.v.signed_, a % b);
      }
    }
  }
}

TEST(Evaluate, DivisionByZeroIsAnError) {
  Module m;
  EXPECT_THROW(evaluate(binary(BinaryOp::div, Scalar::u32), m, {of_signed(Scalar::u32, 1), of_signed(Scalar::u32, 0)}), gql::Error);
  Value inf = evaluate(binary(BinaryOp::div, Scalar::f64), m,
                       {Value{Scalar::f64, {false, 0, 0, 1.0}}, Value{Scalar::f64, {false, 0, 0, 0.0}}});
  EXPECT_TRUE(std::isinf(inf.v.floating));
}

TEST(Evaluate, FloatToIntegerConversionSaturates) {
  EXPECT_EQ(convert(Value{Scalar::f64, {false, 0, 0, 1e10}}, Scalar::i32).v.signed_, std::numeric_limits<int32_t>::max());
  EXPECT_EQ(convert(Value{Scalar::f64, {false, 0, 0, -5.7}}, Scalar::i32).v.signed_, -5);
  EXPECT_EQ(convert(Value{Scalar::f64, {false, 0, 0, -5.7}}, Scalar::u8).v.unsigned_, 0u);
  EXPECT_EQ(convert(Value{Scalar::f64, {false, 0, 0, NAN}}, Scalar::i64).v.signed_, 0);
  EXPECT_EQ(convert(Value{Scalar::f64, {false, 0, 0, 0.1}}, Scalar::f32).v.floating, static_cast<double>(0.1f));
}

TEST(Evaluate, ComparisonsAndBuiltins) {
  Module m;
  Value two = of_signed(Scalar::i64, 2), minus_three = of_signed(Scalar::i64, -3);
  EXPECT_TRUE(evaluate(binary(BinaryOp::gt, Scalar::i64), m, {two, minus_three}).v.boolean);
  Expr mn = binary(BinaryOp::add, Scalar::i64);
  mn.kind = ExprKind::builtin;
  mn.builtin = Builtin::min;
  EXPECT_EQ(evaluate(mn, m, {two, minus_three}).v.signed_, -3);
  Expr abs;
  abs.kind = ExprKind::builtin;
  abs.builtin = Builtin::abs;
  abs.type = Scalar::i64;
  abs.operands.push_back(mn.operands[1]);
  EXPECT_EQ(evaluate(abs, m, {two, minus_three}).v.signed_, 3);
}

}  // namespace
}  // namespace gql::compiler::ir
