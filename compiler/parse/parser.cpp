#include "parse/parser.hpp"

#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "parse/lexer.hpp"

namespace gql::compiler {
namespace {

// Thrown after a syntax error has been reported; caught where the parser can resynchronize.
struct SyntaxError {};

bool is_top_level_keyword(std::string_view s) {
  return s == "import" || s == "const" || s == "fn" || s == "semiring" || s == "kernel";
}

class Parser {
 public:
  Parser(std::vector<Token> tokens, uint32_t file, Diagnostics& diagnostics)
      : tokens_(std::move(tokens)), diagnostics_(diagnostics) {
    file_.source = file;
  }

  ast::File run() {
    while (!at_end() && !diagnostics_.saturated()) {
      size_t start = pos_;
      try {
        top_level();
      } catch (const SyntaxError&) {
        skip_to_top_level(start);
      }
    }
    return std::move(file_);
  }

 private:
  // ---- token access -------------------------------------------------------------------------
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < tokens_.size() ? tokens_[i] : tokens_.back();
  }
  bool at_end() const { return peek().kind == TokenKind::end; }
  bool at_top_level_keyword() const {
    return peek().kind == TokenKind::identifier && is_top_level_keyword(peek().text);
  }
  bool is(std::string_view punct, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::punct && t.text == punct;
  }
  bool is_word(std::string_view word, size_t ahead = 0) const {
    const Token& t = peek(ahead);
    return t.kind == TokenKind::identifier && t.text == word;
  }
  const Token& advance() {
    const Token& t = peek();
    if (pos_ < tokens_.size() - 1) ++pos_;
    return t;
  }
  bool accept(std::string_view punct) {
    if (!is(punct)) return false;
    advance();
    return true;
  }
  bool accept_word(std::string_view word) {
    if (!is_word(word)) return false;
    advance();
    return true;
  }
  Span previous_span() const { return pos_ > 0 ? tokens_[pos_ - 1].span : peek().span; }
  static Span join(Span a, Span b) { return Span{a.file, a.begin, b.end > a.begin ? b.end : a.end}; }

  std::string describe(const Token& t) const {
    switch (t.kind) {
      case TokenKind::end: return "end of file";
      case TokenKind::string: return "string \"" + std::string(t.text) + "\"";
      default: return "'" + std::string(t.text) + "'";
    }
  }
  [[noreturn]] void fail(DiagnosticId id, const std::string& message) {
    diagnostics_.error(peek().span, id, message);
    throw SyntaxError{};
  }
  [[noreturn]] void fail_expected(const std::string& what) {
    fail(DiagnosticId::syntax, "expected " + what + ", found " + describe(peek()));
  }
  void expect(std::string_view punct) {
    if (!accept(punct)) fail_expected("'" + std::string(punct) + "'");
  }
  void expect_word(std::string_view word) {
    if (!accept_word(word)) fail_expected("'" + std::string(word) + "'");
  }
  std::pair<std::string, Span> identifier(const char* what) {
    if (peek().kind != TokenKind::identifier) fail_expected(what);
    const Token& t = advance();
    return {std::string(t.text), t.span};
  }

  // Guards recursion: every nested construct passes through one of these.
  struct Nest {
    explicit Nest(Parser& p) : parser(p) {
      if (++parser.depth_ > max_nesting) {
        --parser.depth_;
        parser.fail(DiagnosticId::nesting_too_deep, "nesting deeper than " + std::to_string(max_nesting) + " levels");
      }
    }
    ~Nest() { --parser.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    Parser& parser;
  };

  // ---- recovery -----------------------------------------------------------------------------
  // Skips to the next top-level keyword outside braces; always moves past `start`.
  void skip_to_top_level(size_t start) {
    if (pos_ == start) advance();
    int depth = 0;
    while (!at_end()) {
      if (is("{")) ++depth;
      if (is("}")) depth = depth > 0 ? depth - 1 : 0;
      if (depth == 0 && peek().kind == TokenKind::identifier && is_top_level_keyword(peek().text)) return;
      advance();
    }
  }
  // Skips the rest of a broken statement: past the next ';' at this level, or up to the '}' that
  // closes the enclosing block. Always moves past `start`.
  void skip_statement(size_t start) {
    int depth = 0;
    if (pos_ == start && !is("}")) advance();
    while (!at_end()) {
      if (is("{")) ++depth;
      if (is("}")) {
        if (depth == 0) return;
        --depth;
        if (depth == 0) {
          advance();
          return;
        }
      }
      if (depth == 0 && is(";")) {
        advance();
        return;
      }
      if (depth == 0 && peek().kind == TokenKind::identifier && is_top_level_keyword(peek().text)) return;
      advance();
    }
  }

  // ---- declarations -------------------------------------------------------------------------
  void top_level() {
    const Token& t = peek();
    if (is_word("import")) return import_decl();
    if (is_word("const")) return const_decl();
    if (is_word("fn")) return function_decl();
    if (is_word("semiring")) return semiring_decl();
    if (is_word("kernel")) return kernel_decl();
    if (is_word("schedule")) fail(DiagnosticId::syntax, "a schedule must follow a kernel's body");
    fail(DiagnosticId::syntax, "expected a declaration (import, const, fn, semiring, kernel), found " + describe(t));
  }

  void import_decl() {
    Span begin = advance().span;
    if (peek().kind != TokenKind::string) fail_expected("a quoted file name after 'import'");
    std::string path(advance().text);
    expect(";");
    file_.imports.push_back({std::move(path), join(begin, previous_span())});
  }

  void const_decl() {
    ast::Const c;
    Span begin = advance().span;
    std::tie(c.name, c.name_span) = identifier("a constant name");
    if (accept(":")) c.type = type_expr();
    expect("=");
    c.value = expression();
    expect(";");
    c.span = join(begin, previous_span());
    file_.consts.push_back(std::move(c));
  }

  std::vector<ast::Param> params(bool types_required) {
    std::vector<ast::Param> list;
    expect("(");
    if (accept(")")) return list;
    do {
      ast::Param p;
      std::tie(p.name, p.span) = identifier("a parameter name");
      if (accept(":")) p.type = type_expr();
      else if (types_required) fail_expected("':' and the type of parameter '" + p.name + "'");
      p.span = join(p.span, previous_span());
      list.push_back(std::move(p));
    } while (accept(","));
    expect(")");
    return list;
  }

  ast::Body body_after_signature() {
    ast::Body body;
    Span begin = peek().span;
    if (accept("=")) {
      body.value = expression();
      expect(";");
    } else if (is("{")) {
      body.statements = block();
    } else {
      fail_expected("'=' or '{'");
    }
    body.span = join(begin, previous_span());
    return body;
  }

  void function_decl() {
    ast::Function f;
    Span begin = advance().span;
    std::tie(f.name, f.name_span) = identifier("a function name");
    f.params = params(true);
    if (accept("->")) f.result = type_expr();
    f.body = body_after_signature();
    f.span = join(begin, previous_span());
    file_.functions.push_back(std::move(f));
  }

  void semiring_decl() {
    ast::Semiring s;
    Span begin = advance().span;
    std::tie(s.name, s.name_span) = identifier("a semiring name");
    if (accept("<")) {
      do s.type_params.push_back(identifier("a type parameter").first);
      while (accept(","));
      expect(">");
    }
    if (is("(")) {
      s.params = params(true);
      expect("->");
      s.result = type_expr();
    }
    expect("{");
    while (!is("}") && !at_end() && !at_top_level_keyword()) {
      size_t start = pos_;
      try {
        s.members.push_back(semiring_member());
      } catch (const SyntaxError&) {
        skip_statement(start);
      }
    }
    expect("}");
    s.span = join(begin, previous_span());
    file_.semirings.push_back(std::move(s));
  }

  ast::SemiringMember semiring_member() {
    ast::SemiringMember m;
    std::tie(m.name, m.span) = identifier("a semiring member (con, agg, zero, terminal)");
    if (is("(")) {
      m.has_params = true;
      m.params = params(false);
    }
    m.body = body_after_signature();
    m.span = join(m.span, previous_span());
    return m;
  }

  void kernel_decl() {
    ast::Kernel k;
    Span begin = advance().span;
    std::tie(k.name, k.name_span) = identifier("a kernel name");
    k.params = params(true);
    expect("->");
    k.result = type_expr();
    k.body = block();
    while (is_word("schedule")) k.schedules.push_back(schedule());
    k.span = join(begin, previous_span());
    file_.kernels.push_back(std::move(k));
  }

  // ---- schedules ----------------------------------------------------------------------------
  ast::Schedule schedule() {
    ast::Schedule s;
    s.span = advance().span;
    std::tie(s.target, s.target_span) = identifier("a target (cuda or openmp) after 'schedule'");
    expect("{");
    std::string label;
    Span label_span;
    while (!is("}") && !at_end() && !at_top_level_keyword()) {
      size_t start = pos_;
      try {
        if (accept("@")) {
          std::tie(label, label_span) = identifier("a statement label after '@'");
          label_span = join(previous_span(), label_span);
          expect(":");
          continue;
        }
        ast::Directive d = directive();
        d.label = label;
        d.label_span = label_span;
        s.directives.push_back(std::move(d));
      } catch (const SyntaxError&) {
        skip_statement(start);
      }
    }
    expect("}");
    s.span = join(s.span, previous_span());
    return s;
  }

  ast::Directive directive() {
    ast::Directive d;
    std::tie(d.name, d.name_span) = identifier("a schedule directive");
    // `recursive(base = 64)`: arguments of the directive itself, kept as a value named like it.
    if (accept("(")) {
      ast::DirectiveValue v;
      v.span = d.name_span;
      v.ident = d.name;
      arguments(v);
      v.span = join(v.span, previous_span());
      d.values.push_back(std::move(v));
    }
    while (!is(";") && !is("{") && !is("}") && !at_end()) d.values.push_back(directive_value());
    if (accept("{")) {
      d.has_block = true;
      while (!is("}") && !at_end()) {
        ast::RowClass r;
        std::tie(r.name, r.span) = identifier("a row class name");
        if (accept(">=")) {
          if (peek().kind != TokenKind::integer) fail_expected("an integer threshold");
          r.threshold_span = peek().span;
          r.threshold = static_cast<int64_t>(advance().integer);
        }
        expect(":");
        r.accumulator = directive_value();
        expect(";");
        r.span = join(r.span, previous_span());
        d.rows.push_back(std::move(r));
      }
      expect("}");
      accept(";");
    } else {
      expect(";");
    }
    d.span = join(d.name_span, previous_span());
    return d;
  }

  // `(name = value, value, ...)` after a word, the "(" already read.
  void arguments(ast::DirectiveValue& v) {
    v.has_arguments = true;
    named_items(v.argument_names, [&] { v.arguments.push_back(directive_value()); });
  }

  // `[name =] item, ...)` with the "(" already read: each item's name ("" when it has none) goes to
  // `names`, and parse_item reads the item. Directive and call arguments share this shape.
  template <class ParseItem>
  void named_items(std::vector<std::string>& names, ParseItem&& parse_item) {
    if (!is(")")) {
      do {
        std::string name;
        if (peek().kind == TokenKind::identifier && is("=", 1)) {
          name = std::string(advance().text);
          advance();
        }
        names.push_back(std::move(name));
        parse_item();
      } while (accept(","));
    }
    expect(")");
  }

  ast::DirectiveValue directive_value() {
    Nest nest(*this);
    ast::DirectiveValue v;
    v.span = peek().span;
    bool negative = accept("-");
    const Token& t = peek();
    if (t.kind == TokenKind::integer || t.kind == TokenKind::floating) {
      advance();
      v.is_number = true;
      v.is_integer = t.kind == TokenKind::integer;
      v.integer = static_cast<int64_t>(negative ? 0 - t.integer : t.integer);  // wraps, never overflows
      v.number = (v.is_integer ? static_cast<double>(t.integer) : t.floating) * (negative ? -1 : 1);
    } else if (t.kind == TokenKind::identifier && !negative) {
      v.ident = std::string(advance().text);
      if (accept("(")) arguments(v);
    } else {
      fail_expected("a directive value (a number or a word)");
    }
    v.span = join(v.span, previous_span());
    return v;
  }

  // ---- types --------------------------------------------------------------------------------
  ast::TypeExpr type_expr() {
    Nest nest(*this);
    ast::TypeExpr t;
    t.span = peek().span;
    if (accept("(")) {
      do t.args.push_back(type_expr());
      while (accept(","));
      expect(")");
    } else {
      t.name = identifier("a type").first;
      if (accept("<")) {
        t.args.push_back(type_expr());
        expect(">");
      }
    }
    t.span = join(t.span, previous_span());
    return t;
  }

  // ---- statements ---------------------------------------------------------------------------
  std::vector<ast::Stmt> block() {
    Nest nest(*this);
    std::vector<ast::Stmt> list;
    expect("{");
    while (!is("}") && !at_end() && !diagnostics_.saturated()) {
      if (at_top_level_keyword()) break;
      size_t start = pos_;
      try {
        list.push_back(statement());
      } catch (const SyntaxError&) {
        skip_statement(start);
      }
    }
    expect("}");
    return list;
  }

  ast::Stmt statement() {
    Nest nest(*this);
    ast::Stmt s;
    s.span = peek().span;
    if (accept("@")) {
      std::tie(s.label, s.label_span) = identifier("a statement label after '@'");
      s.label_span = join(s.span, s.label_span);
      accept(":");
    }
    if (is_word("var") || is_word("let")) {
      s.kind = is_word("var") ? ast::StmtKind::var_decl : ast::StmtKind::let_decl;
      advance();
      std::tie(s.name, std::ignore) = identifier("a variable name");
      if (accept(":")) s.type = type_expr();
      if (accept("=")) s.value = expression();
      else if (s.kind == ast::StmtKind::let_decl) fail_expected("'=' and the value of 'let " + s.name + "'");
      expect(";");
    } else if (accept_word("while")) {
      s.kind = ast::StmtKind::while_;
      s.value = expression();
      s.body = block();
    } else if (accept_word("if")) {
      s.kind = ast::StmtKind::if_;
      s.value = expression();
      s.body = block();
      if (accept_word("else")) {
        if (is_word("if")) s.otherwise.push_back(statement());
        else s.otherwise = block();
      }
    } else if (accept_word("return")) {
      s.kind = ast::StmtKind::return_;
      s.value = expression();
      expect(";");
    } else if (is_word("require") && is("(", 1)) {  // a name `require` stays assignable
      advance();
      advance();
      s.kind = ast::StmtKind::require_;
      s.value = expression();
      expect(",");
      if (peek().kind != TokenKind::string) fail_expected("a quoted message after the condition of 'require'");
      s.message = std::string(advance().text);
      expect(")");
      expect(";");
    } else if (peek().kind == TokenKind::identifier) {
      s.kind = ast::StmtKind::assign;
      assignment(s);
    } else {
      fail_expected("a statement");
    }
    s.span = join(s.span, previous_span());
    return s;
  }

  void assignment(ast::Stmt& s) {
    ast::Expr target;
    target.kind = ast::ExprKind::name;
    target.span = peek().span;
    target.text = std::string(advance().text);
    if (accept("<")) {
      ast::Mask m;
      m.span = previous_span();
      m.complement = accept("!");
      // value(M): a value mask; `value` alone is still a variable's name.
      if (is_word("value") && is("(", 1)) {
        advance();
        advance();
        m.value = true;
        m.name = identifier("a mask variable").first;
        expect(")");
      } else {
        m.name = identifier("a mask variable").first;
      }
      while (accept(",")) {
        if (!accept_word("replace")) fail_expected("'replace'");
        m.replace = true;
      }
      expect(">");
      m.span = join(m.span, previous_span());
      s.mask = std::move(m);
    }
    if (accept("[")) {
      ast::Expr index;
      index.kind = ast::ExprKind::index;
      index.args.push_back(std::move(target));
      do index.args.push_back(expression());
      while (accept(","));
      expect("]");
      index.span = join(index.args.front().span, previous_span());
      target = std::move(index);
    }
    s.target = std::move(target);
    if (is("==")) fail(DiagnosticId::syntax, "expected '=' in an assignment; a comparison is not a statement");
    expect("=");
    s.value = expression();
    expect(";");
  }

  // ---- expressions --------------------------------------------------------------------------
  ast::Expr expression() {
    Nest nest(*this);
    ast::Expr e = binary(0);
    if (accept_word("over")) {
      std::tie(e.over, e.over_span) = identifier("a semiring name after 'over'");
      e.span = join(e.span, previous_span());
    }
    return e;
  }

  static int precedence(std::string_view op) {
    if (op == "||") return 1;
    if (op == "&&") return 2;
    if (op == "==" || op == "!=") return 3;
    if (op == "<" || op == "<=" || op == ">" || op == ">=") return 4;
    if (op == "+" || op == "-") return 5;
    if (op == "*" || op == "/" || op == "%") return 6;
    return 0;
  }

  // A left-leaning chain (a + b + c ...) nests one level per operator, however it was written.
  void chain_link(int& links) {
    if (depth_ + ++links > max_nesting)
      fail(DiagnosticId::nesting_too_deep, "expression nested deeper than " + std::to_string(max_nesting) + " levels");
  }

  ast::Expr binary(int min_precedence) {
    ast::Expr left = unary();
    int links = 0;
    for (;;) {
      const Token& t = peek();
      int p = t.kind == TokenKind::punct ? precedence(t.text) : 0;
      if (p == 0 || p <= min_precedence) return left;
      chain_link(links);
      Nest nest(*this);
      std::string op(advance().text);
      ast::Expr right = binary(p);
      ast::Expr e;
      e.kind = ast::ExprKind::binary;
      e.text = std::move(op);
      e.span = join(left.span, right.span);
      e.args.push_back(std::move(left));
      e.args.push_back(std::move(right));
      left = std::move(e);
    }
  }

  ast::Expr unary() {
    Nest nest(*this);
    if (is("-") || is("!")) {
      ast::Expr e;
      e.kind = ast::ExprKind::unary;
      e.span = peek().span;
      e.text = std::string(advance().text);
      e.args.push_back(unary());
      e.span = join(e.span, e.args.back().span);
      return e;
    }
    return postfix();
  }

  ast::Expr postfix() {
    ast::Expr e = primary();
    int links = 0;
    while (is("[")) {
      chain_link(links);
      Nest nest(*this);
      advance();
      ast::Expr index;
      index.kind = ast::ExprKind::index;
      index.args.push_back(std::move(e));
      do index.args.push_back(expression());
      while (accept(","));
      expect("]");
      index.span = join(index.args.front().span, previous_span());
      e = std::move(index);
    }
    return e;
  }

  void call_arguments(ast::Expr& call) {
    expect("(");
    named_items(call.arg_names, [&] { call.args.push_back(expression()); });
  }

  ast::Expr primary() {
    const Token& t = peek();
    ast::Expr e;
    e.span = t.span;
    switch (t.kind) {
      case TokenKind::integer:
        e.kind = ast::ExprKind::integer;
        e.int_value = advance().integer;
        return e;
      case TokenKind::floating:
        e.kind = ast::ExprKind::floating;
        e.float_value = advance().floating;
        return e;
      case TokenKind::identifier: break;
      default:
        if (accept("(")) {
          ast::Expr inner = expression();
          if (!is(",")) {
            expect(")");
            return inner;
          }
          e.kind = ast::ExprKind::tuple;
          e.args.push_back(std::move(inner));
          while (accept(",")) e.args.push_back(expression());
          expect(")");
          e.span = join(e.span, previous_span());
          return e;
        }
        fail_expected("an expression");
    }
    std::string word(advance().text);
    if (word == "true" || word == "false") {
      e.kind = ast::ExprKind::boolean;
      e.bool_value = word == "true";
      return e;
    }
    if (word == "inf") {
      e.kind = ast::ExprKind::infinity;
      return e;
    }
    bool container = word == "graph" || word == "matrix" || word == "vector";
    if (container && is("<")) {
      advance();
      ast::TypeExpr element = type_expr();
      expect(">");
      ast::TypeExpr type;
      type.name = word;
      type.span = join(e.span, previous_span());
      type.args.push_back(std::move(element));
      e.type_arg = std::move(type);
      if (!is("(")) fail_expected("'(' and the shape of the new " + word);
    }
    e.text = std::move(word);
    if (is("(")) {
      e.kind = ast::ExprKind::call;
      call_arguments(e);
      e.span = join(e.span, previous_span());
      return e;
    }
    e.kind = ast::ExprKind::name;
    return e;
  }

  std::vector<Token> tokens_;
  Diagnostics& diagnostics_;
  ast::File file_;
  size_t pos_ = 0;
  int depth_ = 0;
};

}  // namespace

ast::File parse_file(const SourceManager& sources, uint32_t file, Diagnostics& diagnostics) {
  return Parser(lex(sources, file, diagnostics), file, diagnostics).run();
}

}  // namespace gql::compiler
