// The compile-time evaluator against plain C++ arithmetic on the same types, and against the
// functions generated code computes the language's integer operators with (gql/integer_ops.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"
#include "gql/error.hpp"
#include "gql/integer_ops.hpp"

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

TEST(Evaluate, DivisionIsDefinedForEveryOperand) {
  Module m;
  auto quotient = [&](Scalar t, int64_t a, int64_t b) {
    Value q = evaluate(binary(BinaryOp::div, t), m, {of_signed(t, a), of_signed(t, b)});
    return is_signed(t) ? q.v.signed_ : static_cast<int64_t>(q.v.unsigned_);
  };
  auto remainder = [&](Scalar t, int64_t a, int64_t b) {
    return evaluate(binary(BinaryOp::mod, t), m, {of_signed(t, a), of_signed(t, b)}).v.signed_;
  };
  constexpr int64_t lowest = std::numeric_limits<int64_t>::min(), highest = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(quotient(Scalar::i64, 7, 0), highest);
  EXPECT_EQ(quotient(Scalar::i64, -7, 0), lowest);
  EXPECT_EQ(quotient(Scalar::i64, 0, 0), 0);
  EXPECT_EQ(quotient(Scalar::i64, lowest, -1), lowest);
  EXPECT_EQ(quotient(Scalar::i32, -5, 0), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(quotient(Scalar::i8, -128, -1), -128);
  EXPECT_EQ(quotient(Scalar::u8, 5, 0), 255);
  EXPECT_EQ(quotient(Scalar::u8, 0, 0), 0);
  EXPECT_EQ(remainder(Scalar::i64, -7, 0), -7);
  EXPECT_EQ(remainder(Scalar::i64, lowest, -1), 0);
  EXPECT_EQ(remainder(Scalar::i16, -32768, -1), 0);
  Value inf = evaluate(binary(BinaryOp::div, Scalar::f64), m,
                       {Value{Scalar::f64, {false, 0, 0, 1.0}}, Value{Scalar::f64, {false, 0, 0, 0.0}}});
  EXPECT_TRUE(std::isinf(inf.v.floating));
}

// Every operator of the language on T's operands, folded and as generated code computes it.
template <class T>
void expect_folding_agrees(Scalar t, const std::vector<T>& operands) {
  Module m;
  auto folded = [&](BinaryOp op, T a, T b) {
    Value r = evaluate(binary(op, t), m, {of_signed(t, static_cast<int64_t>(a)), of_signed(t, static_cast<int64_t>(b))});
    return is_signed(t) ? static_cast<T>(r.v.signed_) : static_cast<T>(r.v.unsigned_);
  };
  for (const T a : operands) {
    for (const T b : operands) {
      SCOPED_TRACE(std::to_string(a) + ", " + std::to_string(b));
      EXPECT_EQ(folded(BinaryOp::add, a, b), gql::wrapping_add(a, b));
      EXPECT_EQ(folded(BinaryOp::sub, a, b), gql::wrapping_sub(a, b));
      EXPECT_EQ(folded(BinaryOp::mul, a, b), gql::wrapping_mul(a, b));
      EXPECT_EQ(folded(BinaryOp::div, a, b), gql::integer_div(a, b));
      EXPECT_EQ(folded(BinaryOp::mod, a, b), gql::integer_rem(a, b));
    }
  }
}

TEST(Evaluate, FoldsIntegersAsGeneratedCodeComputesThem) {
  std::vector<int8_t> every_i8;
  std::vector<uint8_t> every_u8;
  for (int v = 0; v < 256; ++v) {
    every_i8.push_back(static_cast<int8_t>(v));
    every_u8.push_back(static_cast<uint8_t>(v));
  }
  expect_folding_agrees(Scalar::i8, every_i8);
  expect_folding_agrees(Scalar::u8, every_u8);
  constexpr int64_t lowest = std::numeric_limits<int64_t>::min(), highest = std::numeric_limits<int64_t>::max();
  expect_folding_agrees<int64_t>(Scalar::i64, {lowest, lowest + 1, -7, -2, -1, 0, 1, 2, 7, 3037000500, highest});
  expect_folding_agrees<int32_t>(Scalar::i32, {INT32_MIN, -7, -1, 0, 1, 7, 65536, INT32_MAX});
  expect_folding_agrees<uint64_t>(Scalar::u64, {0, 1, 7, uint64_t{1} << 63, UINT64_MAX});
}

TEST(Evaluate, ConvertsFloatsToIntegersAsGeneratedCodeDoes) {
  for (const double d : {0.0, -0.5, 2.9, -2.9, 127.5, 128.0, -129.0, 255.9, 300.0, 2147483647.5, 2147483648.0, -2147483649.0,
                         1e10, -1e10, 9223372036854775807.0, -9223372036854775808.0, 1e19, 1e20, -1e20,
                         static_cast<double>(INFINITY), -static_cast<double>(INFINITY), static_cast<double>(NAN)}) {
    SCOPED_TRACE(d);
    const Value v{Scalar::f64, {false, 0, 0, d}};
    EXPECT_EQ(convert(v, Scalar::i8).v.signed_, (gql::saturating_cast<int8_t, double>(d)));
    EXPECT_EQ(convert(v, Scalar::i32).v.signed_, (gql::saturating_cast<int32_t, double>(d)));
    EXPECT_EQ(convert(v, Scalar::i64).v.signed_, (gql::saturating_cast<int64_t, double>(d)));
    EXPECT_EQ(convert(v, Scalar::u8).v.unsigned_, (gql::saturating_cast<uint8_t, double>(d)));
    EXPECT_EQ(convert(v, Scalar::u64).v.unsigned_, (gql::saturating_cast<uint64_t, double>(d)));
    const float f = static_cast<float>(d);  // f32 values convert as their own value
    const Value single = convert(v, Scalar::f32);
    EXPECT_EQ(convert(single, Scalar::i32).v.signed_, (gql::saturating_cast<int32_t, float>(f)));
    EXPECT_EQ(convert(single, Scalar::u64).v.unsigned_, (gql::saturating_cast<uint64_t, float>(f)));
  }
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
