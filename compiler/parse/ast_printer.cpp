// `--emit ast`: one node per line with its source position (<line:column>), children indented by
// two spaces.
#include <cstdio>
#include <string>

#include "gql/compiler/ast.hpp"

namespace gql::compiler::ast {
namespace {

class Printer {
 public:
  explicit Printer(const SourceManager& sources) : sources_(sources) {}
  std::string out;

  void line(int depth, const std::string& text) {
    out.append(static_cast<size_t>(depth) * 2, ' ');
    out += text;
    out += '\n';
  }
  // A node: its text, then where it starts.
  void node(int depth, const std::string& text, Span span) {
    const LineColumn at = sources_.line_column(span.file, span.begin);
    line(depth, text + " <" + std::to_string(at.line) + ":" + std::to_string(at.column) + ">");
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
    node(depth, head, e.span);
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
        node(depth, head, s.span);
        if (s.value) expr(depth + 1, *s.value);
        return;
      case StmtKind::assign:
        head += "Assign";
        if (s.mask) {
          head += std::string(" mask=") + (s.mask->complement ? "!" : "") +
                  (s.mask->value ? "value(" + s.mask->name + ")" : s.mask->name);
          if (s.mask->replace) head += " replace";
        }
        node(depth, head, s.span);
        expr(depth + 1, *s.target, "target: ");
        expr(depth + 1, *s.value);
        return;
      case StmtKind::while_:
        node(depth, head + "While", s.span);
        expr(depth + 1, *s.value, "cond: ");
        stmts(depth + 1, s.body);
        return;
      case StmtKind::if_:
        node(depth, head + "If", s.span);
        expr(depth + 1, *s.value, "cond: ");
        stmts(depth + 1, s.body);
        if (!s.otherwise.empty()) {
          line(depth, "Else");
          stmts(depth + 1, s.otherwise);
        }
        return;
      case StmtKind::return_:
        node(depth, head + "Return", s.span);
        expr(depth + 1, *s.value);
        return;
      case StmtKind::require_:
        node(depth, head + "Require \"" + s.message + "\"", s.span);
        expr(depth + 1, *s.value, "cond: ");
        return;
    }
  }

  void params(int depth, const std::vector<Param>& list) {
    for (const Param& p : list) node(depth, "Param " + p.name + (p.type ? ": " + type(*p.type) : ""), p.span);
  }

  void body(int depth, const Body& b) {
    if (b.value) expr(depth, *b.value);
    stmts(depth, b.statements);
  }

  // `at`: where the line's node starts (a row class's name, else the value itself).
  void value(int depth, const DirectiveValue& v, const std::string& prefix, Span at) {
    std::string head = prefix;
    if (v.is_number) head += v.is_integer ? std::to_string(v.integer) : number(v.number);
    else head += v.ident;
    node(depth, head, at);
    for (size_t i = 0; i < v.arguments.size(); ++i) {
      const DirectiveValue& a = v.arguments[i];
      value(depth + 1, a, v.argument_names[i].empty() ? "" : v.argument_names[i] + " = ", a.span);
    }
  }

  void file(const File& f) {
    line(0, "File");
    for (const Import& i : f.imports) node(1, "Import \"" + i.path + "\"", i.span);
    for (const Const& c : f.consts) {
      node(1, "Const " + c.name + (c.type ? ": " + type(*c.type) : ""), c.span);
      expr(2, c.value);
    }
    for (const Function& fn : f.functions) {
      node(1, "Fn " + fn.name + (fn.result ? " -> " + type(*fn.result) : ""), fn.span);
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
      node(1, head, s.span);
      params(2, s.params);
      for (const SemiringMember& m : s.members) {
        std::string member = "Member " + m.name;
        if (m.has_params) {
          member += "(";
          for (size_t i = 0; i < m.params.size(); ++i) member += (i ? ", " : "") + m.params[i].name;
          member += ")";
        }
        node(2, member, m.span);
        body(3, m.body);
      }
    }
    for (const Kernel& k : f.kernels) {
      node(1, "Kernel " + k.name + (k.result ? " -> " + type(*k.result) : ""), k.span);
      params(2, k.params);
      stmts(2, k.body);
      for (const Schedule& s : k.schedules) {
        node(2, "Schedule " + s.target, s.span);
        for (const Directive& d : s.directives) {
          node(3, (d.label.empty() ? "" : "@" + d.label + " ") + "Directive " + d.name, d.span);
          for (const DirectiveValue& v : d.values) value(4, v, "", v.span);
          for (const RowClass& r : d.rows) {
            value(4, r.accumulator,
                  "Row " + r.name + (r.threshold ? " >= " + std::to_string(*r.threshold) : "") + ": ", r.span);
          }
        }
      }
    }
  }

 private:
  const SourceManager& sources_;
};

}  // namespace

std::string print(const File& file, const SourceManager& sources) {
  Printer p(sources);
  p.file(file);
  return p.out;
}

}  // namespace gql::compiler::ast
