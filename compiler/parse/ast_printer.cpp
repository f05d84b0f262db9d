// `--emit ast`: one node per line, children indented by two spaces.
#include <cstdio>
#include <string>

#include "gql/compiler/ast.hpp"

namespace gql::compiler::ast {
namespace {

class Printer {
 public:
  std::string out;

  void line(int depth, const std::string& text) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    out += '\n';
  }

  static std::string type(const TypeExpr& t) {
    if (t.name.empty()) {
      std::string s = "(";
      for (size_t i = 0; i < t.args.size(); ++i) s += (i ? ", " : "") + type(t.args[i]);
      return s + ")";
    }
    if (t.args.empty()) return t.name;
    return t.name + "<" + type(t.args[0]) + ">";
  }

  static std::string number(double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.17g", v);
    return buffer;
  }

  void expr(int depth, const Expr& e, const std::string& prefix = "") {
    std::string head = prefix;
    switch (e.kind) {
      case ExprKind::integer: head += "Int " + std::to_string(e.int_value); break;
      case ExprKind::floating: head += "Float " + number(e.float_value); break;
      case ExprKind::boolean: head += std::string("Bool ") + (e.bool_value ? "true" : "false"); break;
      case ExprKind::infinity: head += "Inf"; break;
      case ExprKind::name: head += "Name " + e.text; break;
      case ExprKind::unary: head += "Unary " + e.text; break;
      case ExprKind::binary: head += "Binary " + e.text; break;
      case ExprKind::call:
        head += "Call " + e.text;
        if (e.type_arg) head += " " + type(*e.type_arg);
        break;
      case ExprKind::index: head += "Index"; break;
      case ExprKind::tuple: head += "Tuple"; break;
    }
    if (!e.over.empty()) head += " over " + e.over;
    line(depth, head);
    for (size_t i = 0; i < e.args.size(); ++i) {
      std::string name = i < e.arg_names.size() && !e.arg_names[i].empty() ? e.arg_names[i] + " = " : "";
      expr(depth + 1, e.args[i], name);
    }
  }

  void stmts(int depth, const std::vector<Stmt>& list) {
    for (const Stmt& s : list) stmt(depth, s);
  }

  void stmt(int depth, const Stmt& s) {
    std::string head = s.label.empty() ? "" : "@" + s.label + " ";
    switch (s.kind) {
      case StmtKind::var_decl:
      case StmtKind::let_decl:
        head += (s.kind == StmtKind::var_decl ? "Var " : "Let ") + s.name;
        if (s.type) head += ": " + type(*s.type);
        line(depth, head);
        if (s.value) expr(depth + 1, *s.value);
        return;
      case StmtKind::assign:
        head += "Assign";
        if (s.mask) {
          head += std::string(" mask=") + (s.mask->complement ? "!" : "") + s.mask->name;
          if (s.mask->replace) head += " replace";
        }
        line(depth, head);
        expr(depth + 1, *s.target, "target: ");
        expr(depth + 1, *s.value);
        return;
      case StmtKind::while_:
        line(depth, head + "While");
        expr(depth + 1, *s.value, "cond: ");
        stmts(depth + 1, s.body);
        return;
      case StmtKind::if_:
        line(depth, head + "If");
        expr(depth + 1, *s.value, "cond: ");
        stmts(depth + 1, s.body);
        if (!s.otherwise.empty()) {
          line(depth, "Else");
          stmts(depth + 1, s.otherwise);
        }
        return;
      case StmtKind::return_:
        line(depth, head + "Return");
        expr(depth + 1, *s.value);
        return;
      case StmtKind::require_:
        line(depth, head + "Require \"" + s.message + "\"");
        expr(depth + 1, *s.value, "cond: ");
        return;
    }
  }

  void params(int depth, const std::vector<Param>& list) {
    for (const Param& p : list) line(depth, "Param " + p.name + (p.type ? ": " + type(*p.type) : ""));
  }

  void body(int depth, const Body& b) {
    if (b.value) expr(depth, *b.value);
    stmts(depth, b.statements);
  }

  void value(int depth, const DirectiveValue& v, const std::string& prefix) {
    std::string head = prefix;
    if (v.is_number) head += v.is_integer ? std::to_string(v.integer) : number(v.number);
    else head += v.ident;
    line(depth, head);
    for (size_t i = 0; i < v.arguments.size(); ++i) {
      value(depth + 1, v.arguments[i], v.argument_names[i].empty() ? "" : v.argument_names[i] + " = ");
    }
  }

  void file(const File& f) {
    line(0, "File");
    for (const Import& i : f.imports) line(1, "Import \"" + i.path + "\"");
    for (const Const& c : f.consts) {
      line(1, "Const " + c.name + (c.type ? ": " + type(*c.type) : ""));
      expr(2, c.value);
    }
    for (const Function& fn : f.functions) {
      line(1, "Fn " + fn.name + (fn.result ? " -> " + type(*fn.result) : ""));
      params(2, fn.params);
      body(2, fn.body);
    }
    for (const Semiring& s : f.semirings) {
      std::string head = "Semiring " + s.name;
      if (!s.type_params.empty()) {
        head += "<";
        for (size_t i = 0; i < s.type_params.size(); ++i) head += (i ? ", " : "") + s.type_params[i];
        head += ">";
      }
      if (s.result) head += " -> " + type(*s.result);
      line(1, head);
      params(2, s.params);
      for (const SemiringMember& m : s.members) {
        std::string member = "Member " + m.name;
        if (m.has_params) {
          member += "(";
          for (size_t i = 0; i < m.params.size(); ++i) member += (i ? ", " : "") + m.params[i].name;
          member += ")";
        }
        line(2, member);
        body(3, m.body);
      }
    }
    for (const Kernel& k : f.kernels) {
      line(1, "Kernel " + k.name + (k.result ? " -> " + type(*k.result) : ""));
      params(2, k.params);
      stmts(2, k.body);
      for (const Schedule& s : k.schedules) {
        line(2, "Schedule " + s.target);
        for (const Directive& d : s.directives) {
          line(3, (d.label.empty() ? "" : "@" + d.label + " ") + "Directive " + d.name);
          for (const DirectiveValue& v : d.values) value(4, v, "");
          for (const RowClass& r : d.rows) {
            value(4, r.accumulator,
                  "Row " + r.name + (r.threshold ? " >= " + std::to_string(*r.threshold) : "") + ": ");
          }
        }
      }
    }
  }
};

}  // namespace

std::string print(const File& file) {
  Printer p;
  p.file(file);
  return p.out;
}

}  // namespace gql::compiler::ast
