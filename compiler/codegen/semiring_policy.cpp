#include "codegen/semiring_policy.hpp"

#include "codegen/cpp_expr.hpp"

namespace gql::compiler::codegen {

std::string monoid_enumerator(gql::Monoid m) {
  return std::string("gql::Monoid::") + ir::to_string(m);
}

namespace {

std::string builtin_agg(gql::Monoid m, Scalar type) {
  const std::string v = cpp_scalar_type(type);
  switch (m) {
    case gql::Monoid::sum: return "return " + arithmetic(ir::BinaryOp::add, type, "x", "y") + ";";
    case gql::Monoid::prod: return "return " + arithmetic(ir::BinaryOp::mul, type, "x", "y") + ";";
    case gql::Monoid::min: return "return gql::builtin_min<" + v + ">(x, y);";
    case gql::Monoid::max: return "return gql::builtin_max<" + v + ">(x, y);";
    case gql::Monoid::lor: return "return " + v + "(x || y);";
    case gql::Monoid::land: return "return " + v + "(x && y);";
    case gql::Monoid::any: return "(void)y; return x;";  // any entry will do: keep the first
    case gql::Monoid::user: break;
  }
  return "";
}

ExprNames policy_names(const char* first, const char* second) {
  ExprNames names;
  names.operand = [first, second](int n) { return std::string(n == 0 ? first : second); };
  names.position = [](int n) { return std::string(n == 0 ? "i" : n == 1 ? "k" : "j"); };
  names.parameter = [](int n) { return "p" + std::to_string(n); };
  names.variable = [](int n) { return "v" + std::to_string(n); };
  return names;
}

}  // namespace

std::string emit_semiring_policy(const ir::SemiringInstance& s) {
  const std::string a = cpp_scalar_type(s.a_type), b = cpp_scalar_type(s.b_type), v = cpp_scalar_type(s.value_type);
  const ExprNames con_names = policy_names("a", "b");
  const ExprNames agg_names = policy_names("x", "y");
  std::string out;
  out += "// semiring " + s.semiring + " at (" + std::string(to_string(s.a_type)) + ", " +
         std::string(to_string(s.b_type)) + ") -> " + std::string(to_string(s.value_type)) + "\n";
  out += "struct " + s.name + " {\n";
  out += "  using a_type = " + a + ";\n  using b_type = " + b + ";\n  using value_type = " + v + ";\n";
  out += "  static constexpr gql::Monoid monoid = " + monoid_enumerator(s.monoid) + ";\n";
  out += "  static constexpr bool reads_values = " + std::string(s.reads_values ? "true" : "false") + ";\n";
  out += "  static constexpr bool positional = " + std::string(s.positional ? "true" : "false") + ";\n";
  out += "  static constexpr bool con_reads_k = " + std::string(ir::con_reads_k(s) ? "true" : "false") + ";\n";
  out += "  static constexpr bool has_terminal = " + std::string(s.terminal ? "true" : "false") + ";\n";
  if (ir::multiplies_operands(s)) out += "  static constexpr bool con_multiplies = true;  // con(a, b) = a * b\n";
  out += "  GQL_HD static value_type con([[maybe_unused]] a_type a, [[maybe_unused]] b_type b,\n"
         "                             [[maybe_unused]] long long i, [[maybe_unused]] long long k,\n"
         "                             [[maybe_unused]] long long j) {\n";
  out += "    return value_type(" + emit_expr(s.con, con_names) + ");\n  }\n";
  out += "  GQL_HD static value_type agg(value_type x, value_type y) { ";
  out += s.agg ? "return value_type(" + emit_expr(*s.agg, agg_names) + ");" : builtin_agg(s.monoid, s.value_type);
  out += " }\n";
  out += "  GQL_HD static value_type zero() { return value_type(" + emit_expr(s.zero, agg_names) + "); }\n";
  out += "  GQL_HD static value_type terminal() { return value_type(" +
         (s.terminal ? emit_expr(*s.terminal, agg_names) : emit_expr(s.zero, agg_names)) + "); }\n";
  out += "};\n";
  return out;
}

std::string emit_function(const ir::Function& f) {
  ExprNames names = policy_names("x", "y");
  names.parameter = [&f](int n) { return "p_" + f.parameter_names.at(static_cast<size_t>(n)); };
  std::string out = "GQL_HD " + cpp_scalar_type(f.result) + " fn_" + f.name + "(";
  for (size_t n = 0; n < f.parameter_names.size(); ++n)
    out += (n ? ", " : "") + cpp_scalar_type(f.parameter_types[n]) + " p_" + f.parameter_names[n];
  out += ") {\n  return " + cpp_scalar_type(f.result) + "(" + emit_expr(f.body, names) + ");\n}\n";
  return out;
}

}  // namespace gql::compiler::codegen
