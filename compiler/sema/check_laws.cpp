// The laws of a semiring, sampled on every compile (gqlc check, -o, --emit, the JIT): a user-written
// agg that is visibly not associative, not commutative, or whose zero is not an identity gets a
// warning (the result may then depend on the schedule); a stated terminal that does not absorb is an
// error, since every op stops aggregating at it (a builtin monoid's is checked where it is implied,
// check_semiring.cpp). Exact for integers, relative 1e-6 for floats.
#include <cmath>
#include <cstdio>

#include "gql/error.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

std::vector<ir::Value> samples(Scalar t) {
  std::vector<ir::Value> out;
  if (t == Scalar::bool_) {
    for (bool b : {false, true}) out.push_back(ir::convert(ir::Value{Scalar::bool_, {b, 0, 0, 0.0}}, t));
    return out;
  }
  if (is_float(t)) {
    for (double d : {0.0, 1.0, -1.0, 0.5, 2.25, 3.0, -7.5, 1000.0, 1e-3}) {
      out.push_back(ir::convert(ir::Value{Scalar::f64, {false, 0, 0, d}}, t));
    }
    return out;
  }
  for (int64_t i : {0, 1, 2, 3, 5, 7, 42, 100, -1, -3}) {
    if (i < 0 && !is_signed(t)) continue;
    out.push_back(ir::convert(ir::Value{Scalar::i64, {false, i, 0, 0.0}}, t));
  }
  return out;
}

bool same(const ir::Value& x, const ir::Value& y) {
  if (!is_float(x.type)) return ir::as_double(x) == ir::as_double(y) && x.v.signed_ == y.v.signed_ &&
                                x.v.unsigned_ == y.v.unsigned_ && x.v.boolean == y.v.boolean;
  double a = x.v.floating, b = y.v.floating;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (a == b) return true;
  return std::fabs(a - b) <= 1e-6 * std::max(std::fabs(a), std::fabs(b));
}

std::string text(const ir::Value& v) {
  if (v.type == Scalar::bool_) return v.v.boolean ? "true" : "false";
  if (is_float(v.type)) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%g", v.v.floating);
    return buffer;
  }
  return is_signed(v.type) ? std::to_string(v.v.signed_) : std::to_string(v.v.unsigned_);
}

}  // namespace

void Analyzer::check_laws(const ir::SemiringInstance& s) {
  const ir::Expr& agg = *s.agg;
  auto apply = [&](const ir::Value& x, const ir::Value& y) { return ir::evaluate(agg, module_, {x, y}); };
  std::vector<ir::Value> values = samples(s.value_type);
  const std::string who = "agg of semiring '" + s.semiring + "' (at " + std::string(to_string(s.value_type)) + ")";
  bool commutative = true, associative = true, identity = true;
  try {
    ir::Value zero = ir::evaluate(s.zero, module_, {});
    for (const ir::Value& x : values) {
      if (identity && (!same(apply(zero, x), x) || !same(apply(x, zero), x))) {
        identity = false;
        diagnostics_.warning(s.zero.span, DiagnosticId::agg_zero_not_identity,
                             "zero " + text(zero) + " is not an identity of the " + who + ": agg(" +
                                 text(zero) + ", " + text(x) + ") = " + text(apply(zero, x)));
      }
      for (const ir::Value& y : values) {
        if (commutative && !same(apply(x, y), apply(y, x))) {
          commutative = false;
          diagnostics_.warning(agg.span, DiagnosticId::agg_not_commutative,
                               who + " is not commutative: agg(" + text(x) + ", " + text(y) + ") = " +
                                   text(apply(x, y)) + " but agg(" + text(y) + ", " + text(x) +
                                   ") = " + text(apply(y, x)));
        }
        for (const ir::Value& z : values) {
          if (!associative) break;
          ir::Value left = apply(apply(x, y), z), right = apply(x, apply(y, z));
          if (!same(left, right)) {
            associative = false;
            diagnostics_.warning(agg.span, DiagnosticId::agg_not_associative,
                                 who + " is not associative: agg(agg(" + text(x) + ", " + text(y) + "), " +
                                     text(z) + ") = " + text(left) + " but agg(" + text(x) + ", agg(" +
                                     text(y) + ", " + text(z) + ")) = " + text(right));
          }
        }
      }
    }
  } catch (const Error& error) {
    diagnostics_.warning(agg.span, DiagnosticId::agg_unsampled, "could not sample the " + who + ": " + error.reason());
  }
}

bool Analyzer::check_terminal(const ir::SemiringInstance& s, Span span) {
  const std::string who = "terminal of semiring '" + s.semiring + "' (at " + std::string(to_string(s.value_type)) + ")";
  try {
    const ir::Value terminal = ir::evaluate(*s.terminal, module_, {});
    for (const ir::Value& x : samples(s.value_type)) {
      for (const bool left : {true, false}) {
        const ir::Value got = ir::evaluate(*s.agg, module_, left ? std::vector{terminal, x} : std::vector{x, terminal});
        if (same(got, terminal)) continue;
        const std::string call = "agg(" + text(left ? terminal : x) + ", " + text(left ? x : terminal) + ")";
        diagnostics_.error(span, DiagnosticId::terminal_not_absorbing,
                           who + ", " + text(terminal) + ", does not absorb: " + call + " = " + text(got) +
                               "; an op stops aggregating once it reaches its terminal");
        return false;
      }
    }
  } catch (const Error& error) {
    diagnostics_.error(span, DiagnosticId::terminal_not_absorbing,
                       "could not check the " + who + ": " + error.reason());
    return false;
  }
  return true;
}

}  // namespace gql::compiler::sema
