// Semantic analysis: resolves names, checks types, instantiates semirings, checks purity and
// schedules, and lowers the checked program into an ir::Module. The checks live in one file per
// family (names.cpp, check_types.cpp, check_semiring.cpp, check_purity.cpp, check_kernel.cpp,
// check_schedule.cpp, check_laws.cpp); this header is the state they share.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gql/compiler/ast.hpp"
#include "gql/compiler/diagnostic.hpp"
#include "gql/compiler/ir.hpp"
#include "ir/builder.hpp"

namespace gql::compiler::sema {

struct AnalyzeOptions {
  ir::Target target = ir::Target::openmp;
};

// The files of one compilation; `main` is the one whose kernels make up the module.
struct Program {
  std::vector<const ast::File*> files;  // imports first, in dependency order
  const ast::File* main = nullptr;
  // For each file (by source id), every file it imports, directly or through other imports: a
  // declaration hides same-named ones of those files only.
  std::map<uint32_t, std::set<uint32_t>> imports;
  const SourceManager* sources = nullptr;  // the declarations' text, to tell copies from conflicts
};

ir::Module analyze(const Program& program, const AnalyzeOptions& options, Diagnostics& diagnostics);

// ---- shared between the check files ---------------------------------------------------------

// Edit distance for "did you mean"; returns the closest candidate within a small distance, or "".
std::string closest_name(const std::string& name, const std::vector<std::string>& candidates);

// Whether a call or an op's function argument of this name is the language's own (min, rows, apply,
// plus, the casts i64 ..., inf): no fn, const or kernel may take it.
bool is_builtin_name(const std::string& name);
const std::vector<std::string>& builtin_names();  // those words but the casts and inf
// The calls that make a container (transpose, apply, closure, the constructors, ...): one table, which
// the kernel checker lowers and the purity checker refuses in fn bodies with the container queries.
const std::set<std::string>& container_producing_calls();
bool is_container_operation(const std::string& name);  // those calls, and rows, cols, nvals, reduce
// Why a kernel cannot be named `name` in generated C++ (a keyword, a macro of the C library, gql's
// prefix, a reserved identifier), or "" when it can.
std::string reserved_in_generated_code(const std::string& name);

// The builtin monoids by the words a spec writes for them (`or` and `lor`, `and` and `land` alike).
const std::vector<std::string>& monoid_words();
std::optional<gql::Monoid> monoid_named(const std::string& word);
std::string monoid_word(gql::Monoid m);  // the word a spec writes for a builtin monoid

// A lowered value: a scalar expression, a container variable, or a tuple of values.
struct Value {
  Type type;
  std::optional<ir::Expr> scalar;
  int variable = -1;          // containers (and scalars held in a variable)
  bool flexible = false;      // an untyped literal (or constant expression of them): adapts to context
  std::vector<Value> members; // tuple
};

// Where a container result goes: a variable, with an optional mask and replace flag.
struct Destination {
  int variable = -1;
  std::optional<ir::Mask> mask;
  bool replace = false;
  std::string label;
};

// What a pure body (fn, con, agg, zero, terminal) may refer to.
struct PureContext {
  std::string what;                          // "con of semiring 'paths'", for messages
  std::map<std::string, ir::Expr> names;     // parameters, operands, positions, lets
  bool positions = false;                    // i, k, j allowed
  // A name's value is copied where it is used, so chained lets can double a body's size at each
  // step: the operations copied so far in this body (lower_pure_body), bounded by max_inlined_nodes.
  size_t* inlined_nodes = nullptr;
};

// The most operations one pure body may hold once its lets are copied where they are used.
inline constexpr size_t max_inlined_nodes = size_t{1} << 16;

class Analyzer {
 public:
  Analyzer(const AnalyzeOptions& options, Diagnostics& diagnostics)
      : options_(options), diagnostics_(diagnostics) {}

  ir::Module run(const Program& program);

  // names.cpp
  void declare_globals(const ast::File& file, const Program& program);
  std::vector<std::string> global_value_names() const;
  // "unknown KIND 'NAME'", with the closest candidate as a guess; `id` says what the name was to be
  // (unknown-name, or an unknown directive, member or named argument).
  void report_unknown(Span span, DiagnosticId id, const std::string& kind, const std::string& name,
                      const std::vector<std::string>& candidates);

  // check_types.cpp: types and pure scalar expressions
  std::optional<Type> resolve_type(const ast::TypeExpr& t, const std::map<std::string, Scalar>& type_params);
  std::optional<ir::Expr> lower_pure(const ast::Expr& e, PureContext& context, std::optional<Scalar> expected);
  std::optional<ir::Expr> lower_pure_body(const ast::Body& body, PureContext& context,
                                          std::optional<Scalar> expected);
  std::optional<Value> pure_value(const ast::Expr& e, PureContext& context, int depth);
  bool coerce(Value& v, Scalar to, Span span, const std::string& what);
  std::optional<Value> scalar_binary(const std::string& op, Value left, Value right, Span span);
  std::optional<Value> scalar_unary(const std::string& op, Value operand, Span span);
  std::optional<Value> negated_big_literal(const ir::Expr& literal, Span span);
  std::optional<Value> builtin_call(const std::string& name, std::vector<Value> args, Span span);
  void check_constant(const ast::Const& c);
  void check_function(const ast::Function& f);

  // check_purity.cpp
  bool check_pure_body(const ast::Body& body, const std::string& what);

  // check_semiring.cpp
  void check_semiring_declaration(const ast::Semiring& s);
  // The instance of semiring `name` for operands of element types a and b; -1 after an error.
  int instantiate(const std::string& name, Span use, Scalar a, Scalar b);

  // check_kernel.cpp
  void check_kernel(const ast::Kernel& k);

  // check_schedule.cpp
  void resolve_schedules(const ast::Kernel& k, ir::Kernel& kernel);

  // check_laws.cpp
  void check_laws(const ir::SemiringInstance& instance);
  // False (after an error at `span`) when the stated terminal of an instance with a user-written agg
  // does not absorb on the sampled values.
  bool check_terminal(const ir::SemiringInstance& instance, Span span);

  // state
  const AnalyzeOptions& options_;
  Diagnostics& diagnostics_;
  const SourceManager* sources_ = nullptr;  // the files' text: where a failed require says it is
  ir::Module module_;
  std::map<std::string, const ast::Semiring*> semirings_;
  std::map<std::string, const ast::Function*> function_decls_;
  std::map<std::string, int> functions_;          // checked functions: index into module_.functions
  std::map<std::string, ir::Expr> constants_;      // checked constants: folded value
  std::map<std::string, bool> constant_flexible_;
  std::map<std::string, const ast::Const*> constant_decls_;
  std::map<std::string, const ast::Kernel*> kernels_;
  std::map<std::string, bool> semiring_ok_;        // declaration checked without errors
  std::map<std::string, int> instances_;           // "name|a|b" -> index into module_.semirings
};

}  // namespace gql::compiler::sema
