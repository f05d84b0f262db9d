// The syntax tree of a .gql file, as the parser builds it. Every node keeps its source span.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gql/compiler/source.hpp"

namespace gql::compiler::ast {

// A written type: `u64`, `graph<T>`, `(matrix<f64>, vector<i32>)`, or a type parameter `T`.
struct TypeExpr {
  std::string name;              // "u64", "graph", "T"; "" for a tuple
  std::vector<TypeExpr> args;    // container element (one) or tuple members
  Span span;
};

enum class ExprKind {
  integer,    // int_value
  floating,   // float_value
  boolean,    // bool_value
  infinity,   // inf (a leading '-' makes a unary negate)
  name,       // text
  unary,      // text: "-" or "!"; args[0]
  binary,     // text: the operator; args[0], args[1]
  call,       // text: callee; args (arg_names[i] non-empty for `name = value` arguments);
              // type_arg for constructors `graph<u64>(...)`
  index,      // args[0][args[1..]]
  tuple,      // (args...)
};

struct Expr {
  ExprKind kind = ExprKind::integer;
  Span span;
  std::string text;
  uint64_t int_value = 0;
  double float_value = 0.0;
  bool bool_value = false;
  std::vector<Expr> args;
  std::vector<std::string> arg_names;
  std::optional<TypeExpr> type_arg;
  // `expr over semiring`: the semiring of a product or a closure
  std::string over;
  Span over_span;
};

struct Mask {
  std::string name;
  bool complement = false;
  bool value = false;  // C<value(M)>: selects M's entries whose value is true, not every entry
  bool replace = false;
  Span span;
};

enum class StmtKind { var_decl, let_decl, assign, while_, if_, return_, require_ };

struct Stmt {
  StmtKind kind = StmtKind::var_decl;
  Span span;
  std::string label;                 // @label (without '@'), "" if none
  Span label_span;
  std::string name;                  // declared name
  std::optional<TypeExpr> type;      // declared type, if written
  std::optional<Expr> target;        // assign: a name or an index expression
  std::optional<Mask> mask;          // assign: C<M> = ...
  std::optional<Expr> value;         // initializer, assigned value, condition, returned value
  std::string message;               // require_: what the error says when the condition is false
  std::vector<Stmt> body;
  std::vector<Stmt> otherwise;
};

struct Param {
  std::string name;
  std::optional<TypeExpr> type;
  Span span;
};

// A body written `= expr;` (value) or `{ let ...; return expr; }` (statements).
struct Body {
  std::optional<Expr> value;
  std::vector<Stmt> statements;
  Span span;
};

struct DirectiveValue {
  Span span;
  bool is_number = false;
  bool is_integer = false;
  int64_t integer = 0;
  double number = 0.0;
  std::string ident;                         // a word: auto, dense, spread, ...
  bool has_arguments = false;                // auto(alpha = 15), sort(chunk = 512)
  std::vector<std::string> argument_names;   // "" for a positional argument
  std::vector<DirectiveValue> arguments;
};

struct RowClass {
  Span span;
  std::string name;
  std::optional<int64_t> threshold;  // `>= N`
  Span threshold_span;
  DirectiveValue accumulator;
};

struct Directive {
  Span span;
  std::string label;                 // the @label section it sits in, "" for kernel-wide
  Span label_span;
  std::string name;
  Span name_span;
  std::vector<DirectiveValue> values;
  bool has_block = false;            // rows { ... }
  std::vector<RowClass> rows;
};

struct Schedule {
  std::string target;
  Span span;
  Span target_span;
  std::vector<Directive> directives;
};

struct SemiringMember {
  std::string name;              // con, agg, zero, terminal (or anything: sema reports it)
  Span span;
  std::vector<Param> params;     // con(a, b), agg(x, y)
  bool has_params = false;
  Body body;                     // the value after '=' or the block
};

struct Semiring {
  std::string name;
  Span span;
  Span name_span;
  std::vector<std::string> type_params;   // <T>
  std::vector<Param> params;              // explicit signature (a: bool, b: bool)
  std::optional<TypeExpr> result;         // -> u64
  std::vector<SemiringMember> members;
};

struct Function {
  std::string name;
  Span span;
  Span name_span;
  std::vector<Param> params;
  std::optional<TypeExpr> result;
  Body body;
};

struct Kernel {
  std::string name;
  Span span;
  Span name_span;
  std::vector<Param> params;
  std::optional<TypeExpr> result;
  std::vector<Stmt> body;
  std::vector<Schedule> schedules;
};

struct Const {
  std::string name;
  Span span;
  Span name_span;
  std::optional<TypeExpr> type;
  Expr value;
};

struct Import {
  std::string path;
  Span span;
};

// One parsed file; imports are resolved by the driver into further Files.
struct File {
  uint32_t source = 0;
  std::vector<Import> imports;
  std::vector<Const> consts;
  std::vector<Function> functions;
  std::vector<Semiring> semirings;
  std::vector<Kernel> kernels;
};

// The stable text form (`--emit ast`), each node with its position in `sources`.
std::string print(const File& file, const SourceManager& sources);

}  // namespace gql::compiler::ast
