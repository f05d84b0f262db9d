// Purity of con, agg, zero, terminal and fn bodies: only `let` and `return` statements, no
// assignment, no container operations, no calls of kernels, no indexing.
#include <set>

#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

class PurityChecker {
 public:
  PurityChecker(Diagnostics& diagnostics, const std::string& what,
                const std::map<std::string, const ast::Kernel*>& kernels)
      : diagnostics_(diagnostics), what_(what), kernels_(kernels) {}

  bool ok = true;

  void fail(Span span, const std::string& why) {
    ok = false;
    diagnostics_.error(span, DiagnosticId::impure_body, what_ + " must be pure: " + why);
  }

  void expr(const ast::Expr& e) {
    if (!e.over.empty()) fail(e.over_span, "it cannot contain a product over a semiring");
    switch (e.kind) {
      case ast::ExprKind::call:
        if (is_container_operation(e.text)) fail(e.span, "it calls the container operation '" + e.text + "'");
        else if (kernels_.count(e.text)) fail(e.span, "it calls kernel '" + e.text + "'");
        break;
      case ast::ExprKind::index: fail(e.span, "it reads a container element"); break;
      default: break;
    }
    for (const ast::Expr& a : e.args) expr(a);
  }

  void statements(const std::vector<ast::Stmt>& list) {
    bool returned = false;
    for (const ast::Stmt& s : list) {
      if (returned) {
        fail(s.span, "statements after 'return' never run");
        return;
      }
      switch (s.kind) {
        case ast::StmtKind::let_decl: expr(*s.value); break;
        case ast::StmtKind::return_:
          expr(*s.value);
          returned = true;
          break;
        case ast::StmtKind::var_decl: fail(s.span, "'var " + s.name + "' declares mutable state; use 'let'"); break;
        case ast::StmtKind::assign: fail(s.span, "it assigns to '" + (s.target->kind == ast::ExprKind::index ? s.target->args[0].text : s.target->text) + "'"); break;
        case ast::StmtKind::while_: fail(s.span, "it loops; only 'let' and 'return' are allowed"); break;
        case ast::StmtKind::if_: fail(s.span, "it branches with 'if'; only 'let' and 'return' are allowed"); break;
        case ast::StmtKind::require_:
          fail(s.span, "it checks with 'require'; only 'let' and 'return' are allowed");
          break;
      }
    }
  }

 private:
  Diagnostics& diagnostics_;
  const std::string& what_;
  const std::map<std::string, const ast::Kernel*>& kernels_;
};

}  // namespace

bool Analyzer::check_pure_body(const ast::Body& body, const std::string& what) {
  PurityChecker checker(diagnostics_, what, kernels_);
  if (body.value) checker.expr(*body.value);
  checker.statements(body.statements);
  return checker.ok;
}

}  // namespace gql::compiler::sema
