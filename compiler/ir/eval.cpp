// Evaluation of closed scalar expressions: constant folding in sema and the agg-law sampler.
// Integer arithmetic wraps at the type's width and division is defined for every operand, as the
// generated code computes them (gql/integer_ops.hpp) and docs/language.md states.
#include <cmath>
#include <limits>

#include "gql/compiler/ir.hpp"
#include "gql/error.hpp"

namespace gql::compiler::ir {
namespace {

int64_t wrap_signed(int64_t v, int bits) {
  if (bits >= 64) return v;
  uint64_t mask = (uint64_t{1} << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (u >> (bits - 1)) u |= ~mask;  // sign-extend
  return static_cast<int64_t>(u);
}
uint64_t wrap_unsigned(uint64_t v, int bits) {
  return bits >= 64 ? v : v & ((uint64_t{1} << bits) - 1);
}

int64_t max_signed(int bits) { return bits >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1; }
int64_t min_signed(int bits) { return -max_signed(bits) - 1; }
uint64_t max_unsigned(int bits) { return bits >= 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1; }

Value make(Scalar t) { return Value{t, {}}; }

Value infinity_of(Scalar t, bool negative) {
  Value v = make(t);
  if (is_float(t)) v.v.floating = negative ? -HUGE_VAL : HUGE_VAL;
  else if (t == Scalar::bool_) v.v.boolean = !negative;
  else if (is_signed(t)) v.v.signed_ = negative ? min_signed(bit_width(t)) : max_signed(bit_width(t));
  else v.v.unsigned_ = negative ? 0 : max_unsigned(bit_width(t));
  return v;
}

[[noreturn]] void cannot(const char* what) {
  throw Error(ErrorKind::internal, std::string("cannot evaluate ") + what + " at compile time");
}

bool equal(const Value& a, const Value& b) {
  if (is_float(a.type)) return a.v.floating == b.v.floating;
  if (a.type == Scalar::bool_) return a.v.boolean == b.v.boolean;
  if (is_signed(a.type)) return a.v.signed_ == b.v.signed_;
  return a.v.unsigned_ == b.v.unsigned_;
}
bool less(const Value& a, const Value& b) {
  if (is_float(a.type)) return a.v.floating < b.v.floating;
  if (a.type == Scalar::bool_) return a.v.boolean < b.v.boolean;
  if (is_signed(a.type)) return a.v.signed_ < b.v.signed_;
  return a.v.unsigned_ < b.v.unsigned_;
}

Value arithmetic(BinaryOp op, const Value& a, const Value& b) {
  Scalar t = a.type;
  Value r = make(t);
  if (is_float(t)) {
    double x = a.v.floating, y = b.v.floating, z = 0;
    switch (op) {
      case BinaryOp::add: z = x + y; break;
      case BinaryOp::sub: z = x - y; break;
      case BinaryOp::mul: z = x * y; break;
      case BinaryOp::div: z = x / y; break;
      case BinaryOp::mod: z = std::fmod(x, y); break;
      default: cannot("this operator");
    }
    r.v.floating = t == Scalar::f32 ? static_cast<double>(static_cast<float>(z)) : z;
    return r;
  }
  int bits = bit_width(t);
  if (is_signed(t)) {
    const int64_t x = a.v.signed_, y = b.v.signed_;
    // The lowest value divided by -1 is the one quotient that overflows: it wraps, and x % -1 is 0.
    const int64_t quotient = y == 0 ? (x == 0 ? 0 : x > 0 ? max_signed(bits) : min_signed(bits))
                             : y == -1 ? static_cast<int64_t>(0 - static_cast<uint64_t>(x))
                                       : x / y;
    const int64_t remainder = y == 0 ? x : y == -1 ? 0 : x % y;
    const uint64_t ux = static_cast<uint64_t>(x), uy = static_cast<uint64_t>(y);
    uint64_t z = 0;
    switch (op) {
      case BinaryOp::add: z = ux + uy; break;
      case BinaryOp::sub: z = ux - uy; break;
      case BinaryOp::mul: z = ux * uy; break;
      case BinaryOp::div: z = static_cast<uint64_t>(quotient); break;
      case BinaryOp::mod: z = static_cast<uint64_t>(remainder); break;
      default: cannot("this operator");
    }
    r.v.signed_ = wrap_signed(static_cast<int64_t>(z), bits);
    return r;
  }
  uint64_t x = a.v.unsigned_, y = b.v.unsigned_, z = 0;
  switch (op) {
    case BinaryOp::add: z = x + y; break;
    case BinaryOp::sub: z = x - y; break;
    case BinaryOp::mul: z = x * y; break;
    case BinaryOp::div: z = y == 0 ? (x == 0 ? 0 : max_unsigned(bits)) : x / y; break;
    case BinaryOp::mod: z = y == 0 ? x : x % y; break;
    default: cannot("this operator");
  }
  r.v.unsigned_ = wrap_unsigned(z, bits);
  return r;
}

}  // namespace

Expr make_constant(Scalar type, Constant value, Span span) {
  Expr e;
  e.kind = ExprKind::constant;
  e.type = type;
  e.value = value;
  e.span = span;
  return e;
}

double as_double(const Value& value) {
  if (is_float(value.type)) return value.v.floating;
  if (value.type == Scalar::bool_) return value.v.boolean ? 1.0 : 0.0;
  if (is_signed(value.type)) return static_cast<double>(value.v.signed_);
  return static_cast<double>(value.v.unsigned_);
}

Value convert(const Value& value, Scalar to) {
  Value r = make(to);
  if (to == Scalar::bool_) {
    if (value.type == Scalar::bool_) r.v.boolean = value.v.boolean;
    else if (is_float(value.type)) r.v.boolean = value.v.floating != 0.0;
    else if (is_signed(value.type)) r.v.boolean = value.v.signed_ != 0;
    else r.v.boolean = value.v.unsigned_ != 0;
    return r;
  }
  if (is_float(to)) {
    double d = as_double(value);
    r.v.floating = to == Scalar::f32 ? static_cast<double>(static_cast<float>(d)) : d;
    return r;
  }
  int bits = bit_width(to);
  if (is_float(value.type)) {
    // Out-of-range and NaN conversions are undefined in C++; the compiler saturates them.
    double d = value.v.floating;
    if (std::isnan(d)) return r;
    if (is_signed(to)) {
      double hi = static_cast<double>(max_signed(bits)), lo = static_cast<double>(min_signed(bits));
      r.v.signed_ = d >= hi ? max_signed(bits) : d <= lo ? min_signed(bits) : static_cast<int64_t>(d);
    } else {
      double hi = static_cast<double>(max_unsigned(bits));
      r.v.unsigned_ = d >= hi ? max_unsigned(bits) : d <= 0 ? 0 : static_cast<uint64_t>(d);
    }
    return r;
  }
  uint64_t raw = value.type == Scalar::bool_ ? (value.v.boolean ? 1 : 0)
                 : is_signed(value.type)     ? static_cast<uint64_t>(value.v.signed_)
                                             : value.v.unsigned_;
  if (is_signed(to)) r.v.signed_ = wrap_signed(static_cast<int64_t>(raw), bits);
  else r.v.unsigned_ = wrap_unsigned(raw, bits);
  return r;
}

namespace {

// Calls of functions that call functions can blow up; a budget bounds every evaluation.
constexpr int64_t evaluation_budget = 1'000'000;

Value eval(const Expr& e, const Module& module, const std::vector<Value>& operands,
           const std::vector<Value>& parameters, int64_t& steps) {
  if (++steps > evaluation_budget) throw Error(ErrorKind::type, "expression too costly to evaluate at compile time");
  auto operand = [&](size_t i) { return eval(e.operands.at(i), module, operands, parameters, steps); };
  switch (e.kind) {
    case ExprKind::constant: return Value{e.type, e.value};
    case ExprKind::infinity: return infinity_of(e.type, e.negative);
    case ExprKind::operand:
      if (static_cast<size_t>(e.index) >= operands.size()) cannot("an operand");
      return convert(operands[static_cast<size_t>(e.index)], e.type);
    case ExprKind::parameter:
      if (static_cast<size_t>(e.index) >= parameters.size()) cannot("a parameter");
      return convert(parameters[static_cast<size_t>(e.index)], e.type);
    case ExprKind::variable: cannot("a kernel variable");
    case ExprKind::position: cannot("a position");
    case ExprKind::dimension: cannot("a container dimension");
    case ExprKind::cast: return convert(operand(0), e.type);
    case ExprKind::select: return operand(0).v.boolean ? operand(1) : operand(2);
    case ExprKind::unary: {
      Value x = operand(0);
      if (e.unary == UnaryOp::logical_not) {
        x.v.boolean = !x.v.boolean;
        return x;
      }
      Value zero = convert(Value{Scalar::i64, {}}, x.type);
      return arithmetic(BinaryOp::sub, zero, x);
    }
    case ExprKind::binary: {
      Value a = operand(0);
      if (e.binary == BinaryOp::logical_and || e.binary == BinaryOp::logical_or) {
        bool short_circuit = e.binary == BinaryOp::logical_and ? !a.v.boolean : a.v.boolean;
        if (short_circuit) return a;
        return operand(1);
      }
      Value b = operand(1);
      Value r = make(Scalar::bool_);
      switch (e.binary) {
        case BinaryOp::eq: r.v.boolean = equal(a, b); return r;
        case BinaryOp::ne: r.v.boolean = !equal(a, b); return r;
        case BinaryOp::lt: r.v.boolean = less(a, b); return r;
        case BinaryOp::le: r.v.boolean = !less(b, a); return r;
        case BinaryOp::gt: r.v.boolean = less(b, a); return r;
        case BinaryOp::ge: r.v.boolean = !less(a, b); return r;
        default: return arithmetic(e.binary, a, b);
      }
    }
    case ExprKind::builtin: {
      Value a = operand(0);
      switch (e.builtin) {
        case Builtin::min: {
          Value b = operand(1);
          return less(b, a) ? b : a;
        }
        case Builtin::max: {
          Value b = operand(1);
          return less(a, b) ? b : a;
        }
        case Builtin::abs: {
          if (is_float(a.type)) a.v.floating = std::fabs(a.v.floating);
          else if (is_signed(a.type) && a.v.signed_ < 0) {
            a.v.signed_ = wrap_signed(static_cast<int64_t>(0 - static_cast<uint64_t>(a.v.signed_)), bit_width(a.type));
          }
          return a;
        }
        case Builtin::sqrt: {
          Value r = make(e.type);
          double d = std::sqrt(as_double(a));
          r.v.floating = e.type == Scalar::f32 ? static_cast<double>(static_cast<float>(d)) : d;
          return r;
        }
      }
      cannot("a builtin");
    }
    case ExprKind::call: {
      for (const Function& f : module.functions) {
        if (f.name != e.callee) continue;
        std::vector<Value> args;
        for (size_t i = 0; i < e.operands.size(); ++i) args.push_back(operand(i));
        return convert(eval(f.body, module, operands, args, steps), e.type);
      }
      cannot("a call of an unknown function");
    }
  }
  cannot("this expression");
}

}  // namespace

Value evaluate(const Expr& expr, const Module& module, const std::vector<Value>& operands,
               const std::vector<Value>& parameters) {
  int64_t steps = 0;
  return eval(expr, module, operands, parameters, steps);
}

}  // namespace gql::compiler::ir
