// The typed, target-neutral IR that sema builds and the code generators walk.
//
// Everything a code generator needs is explicit here: every expression carries its type, every
// semiring use is a concrete instantiation (types, con/agg trees, zero, terminal, flags), every
// container operation is one statement with its output, inputs, mask, replace flag, statement label
// and the schedule for the selected target with every default filled in. Nested container
// expressions are flattened into temporaries, so operands of an Op are always variables.
//
// Printed by print_module() (`gqlc FILE --emit ir`) as stable text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gql/compiler/source.hpp"
#include "gql/compiler/types.hpp"
#include "gql/load_balance.hpp"
#include "gql/semiring.hpp"
#include "gql/target.hpp"

namespace gql::compiler::ir {

using Target = gql::Target;  // gql/target.hpp
inline const char* to_string(Target t) noexcept { return target_name(t); }

// ---------------------------------------------------------------------------------------------
// Scalar expressions

enum class ExprKind : uint8_t {
  constant,   // a literal of `type` (see Constant)
  infinity,   // +inf (negative = false) or -inf of `type`; for integers: numeric max / lowest
  variable,   // a kernel variable (scalar), by id: Expr::index
  parameter,  // a parameter of the enclosing pure function, by position: Expr::index
  operand,    // con: a (index 0) and b (index 1); user agg: x (index 0) and y (index 1)
  position,   // con only: i (index 0), k (index 1), j (index 2) as 0-based ids (i64)
  unary,      // op: UnaryOp, one operand
  binary,     // op: BinaryOp, two operands
  builtin,    // builtin call: Builtin, operands are the arguments
  call,       // call of the module's pure function `callee`, operands are the arguments
  cast,       // convert operands[0] to `type`
  select,     // operands[0] ? operands[1] : operands[2]
  dimension,  // rows/cols/nvals of the container variable Expr::index (i64), see Dimension
};

enum class UnaryOp : uint8_t { negate, logical_not };
enum class BinaryOp : uint8_t {
  add, sub, mul, div, mod,          // arithmetic in the result type (integer division truncates)
  eq, ne, lt, le, gt, ge,           // comparisons: operands share a type, the result is bool
  logical_and, logical_or,          // bool operands, short-circuit
};
enum class Builtin : uint8_t { min, max, abs, sqrt };
enum class Dimension : uint8_t { rows, cols, nvals };

// A literal's value; the field that matches Expr::type is meaningful (bool: boolean, signed and
// vertex: signed, unsigned: unsigned_, floats: floating).
struct Constant {
  bool boolean = false;
  int64_t signed_ = 0;
  uint64_t unsigned_ = 0;
  double floating = 0.0;
};

struct Expr {
  ExprKind kind = ExprKind::constant;
  Scalar type = Scalar::bool_;  // every expression is a scalar
  Constant value;               // constant
  bool negative = false;        // infinity: -inf
  int index = 0;                // variable id, parameter/operand/position index, dimension's variable
  UnaryOp unary = UnaryOp::negate;
  BinaryOp binary = BinaryOp::add;
  Builtin builtin = Builtin::min;
  Dimension dimension = Dimension::rows;
  std::string callee;           // call: name of a Module::functions entry
  std::vector<Expr> operands;
  Span span;
};

// ---------------------------------------------------------------------------------------------
// Module-level declarations

struct Function {  // pure scalar function: `fn name(params) -> result = body;`
  std::string name;
  std::vector<std::string> parameter_names;
  std::vector<Scalar> parameter_types;
  Scalar result = Scalar::bool_;
  Expr body;  // over ExprKind::parameter
  Span span;
};

struct ConstantDecl {  // `const NAME = value;` (folded: references become constant expressions)
  std::string name;
  Expr value;
  Span span;
};

// One semiring at one set of types; what gql/semiring.hpp's policy struct is generated from.
struct SemiringInstance {
  std::string name;       // unique in the module, a C++ identifier: "<semiring>_<a>_<b>_<value>"
  std::string semiring;   // the declared semiring's name: "min_plus"
  Scalar a_type = Scalar::bool_;      // left operand element (row i, column k)
  Scalar b_type = Scalar::bool_;      // right operand element (row k, column j)
  Scalar value_type = Scalar::bool_;  // what con makes and agg combines
  Expr con;                 // over operand a/b and position i/k/j; of value_type
  gql::Monoid monoid = gql::Monoid::user;  // builtin monoid, or user (then `agg` is the tree)
  std::optional<Expr> agg;  // user agg over operand x/y; absent for builtin monoids
  Expr zero;                // identity of agg, always explicit (builtin monoids: their identity)
  std::optional<Expr> terminal;  // agg(x, terminal) == terminal: lets kernels stop early
  bool reads_values = false;     // con reads a or b
  bool reads_a = false;
  bool reads_b = false;
  bool positional = false;       // con reads i, k or j
  Span span;                     // the semiring declaration
};

// Whether con(a, b) = a * b on operands of the value type: with agg = sum, a product over the
// instance is a GEMM (vendor BLAS when the values are floats).
bool multiplies_operands(const SemiringInstance& s);

// Whether con reads k, the position a product's terms run over (the policy's con_reads_k).
bool con_reads_k(const SemiringInstance& s);
// Whether every term of a product into one entry is the same value (con reads no operand and not k)
// and agg keeps it (min, max, or, and): the CPU's products keep the first term of each entry
// (gql/cpu/accumulator_policy.hpp decides the same from the policy).
bool first_term_decides(const SemiringInstance& s);

// ---------------------------------------------------------------------------------------------
// Schedules: the resolved directives of one op for the selected target, every default explicit.

enum class Accumulator : uint8_t { auto_, dense, hash, sort };
enum class Direction : uint8_t { push, pull, auto_ };
enum class FrontierFormat : uint8_t { auto_, sparse, dense };  // dense: a bitmap
// How a CUDA push step maps the frontier's out-edges to threads (the runtime's enum, gql/load_balance.hpp).
using gql::LoadBalance;
// The GPU algorithm of a loop recognized as one traversal: a frontier (BFS queue or bitmap,
// Bellman-Ford), the seed's edge-centric BFS, or delta-stepping for single-source paths.
enum class TraversalMethod : uint8_t { frontier, edge_centric, delta_stepping };
enum class Toggle : uint8_t { off, on, auto_ };
enum class ClosureParallelism : uint8_t { tasks, parallel_for, recursive };
enum class Gemm : uint8_t { vendor, native };
// How a product through a plain mask runs: by rows (every product, the mask filtering them), by the
// mask's entries (a join of A's row with B's column each), or whichever is less work for the operands.
enum class MaskedMethod : uint8_t { auto_, saxpy, dot };

// A CUDA row class of a product: rows whose work (products of the row) is >= min_work use
// `accumulator`; classes are ordered by decreasing min_work and the last one has min_work 0.
struct RowClass {
  std::string name;
  int64_t min_work = 0;
  Accumulator accumulator = Accumulator::sort;
  int64_t chunk = 0;  // sort: entries sorted per chunk; 0 for other accumulators
};

struct ProductSchedule {      // mxm
  // openmp
  int threads = 0;            // 0 = all available (omp_get_max_threads)
  Accumulator accumulator = Accumulator::auto_;
  MaskedMethod masked = MaskedMethod::auto_;
  // cuda
  std::vector<RowClass> rows;
  int block = 256;
};

struct TraversalSchedule {    // vxm, mxv
  Direction direction = Direction::auto_;
  double alpha = 15;          // auto: push -> pull when frontier edges > unvisited edges / alpha
  double beta = 18;           // auto: pull -> push when frontier vertices < n / beta
  TraversalMethod method = TraversalMethod::frontier;  // cuda, recognized traversals
  double delta = 0;           // delta_stepping's bucket width; 0: chosen from the weights and degrees
  FrontierFormat frontier = FrontierFormat::auto_;
  LoadBalance balance = LoadBalance::edge;  // cuda
  int threads = 0;            // openmp
  int block = 256;            // cuda
};

struct ClosureSchedule {      // closure
  int tile = 128;             // cuda register tiles: the k-block, 0 = auto (the runtime's, by size)
  int per_thread = 0;         // cuda: 0 = register tiles; N = the seed's shared tiles, N entries per thread
  int register_rows = 8;      // cuda register tiles: each thread's outputs, 8x8 or 8x16
  int register_cols = 8;
  bool spread = true;         // cuda shared tiles: a thread's entries strided (true) or contiguous (false)
  Toggle out_of_core = Toggle::off;
  int streams = 1;            // out_of_core on/auto: copy/compute streams
  ClosureParallelism parallelism = ClosureParallelism::tasks;  // openmp
  int recursive_base = 0;     // openmp recursive: size handled iteratively (0 unless recursive)
  int threads = 0;            // openmp
};

struct LuSchedule {           // lu
  int tile = 128;             // panel width
  Gemm gemm = Gemm::native;   // trailing update: vendor BLAS (cuBLAS / OpenBLAS) or generated
  int threads = 0;            // openmp
};

struct ElementwiseSchedule {  // ewise, apply, reduce, assign, transpose, copy
  int threads = 0;            // openmp
  int block = 256;            // cuda
};

using Schedule = std::variant<std::monostate, ProductSchedule, TraversalSchedule, ClosureSchedule,
                              LuSchedule, ElementwiseSchedule>;

// ---------------------------------------------------------------------------------------------
// Kernels

enum class VariableRole : uint8_t { parameter, local, temporary };

struct Variable {
  int id = 0;              // index into Kernel::variables
  std::string name;        // source name; temporaries are "%t<n>"
  Type type;               // a scalar or a container (never a tuple)
  VariableRole role = VariableRole::local;
  bool immutable = false;  // let, parameters
  Span span;
};

// A GraphBLAS mask: structural (an entry's presence counts, whatever its value), or a value mask
// (an entry counts when its value, cast to bool, is true), as the spec spells it: C<value(M)>.
struct Mask {
  int variable = -1;
  bool complement = false;
  bool value = false;
};

// A function applied element-wise (apply: one argument, union/intersect: two), as a tree over
// ExprKind::parameter 0 (and 1). Builtin names are lowered to trees too.
struct ElementFunction {
  std::string name;                  // as written: "clamp01", "min", "plus"
  std::vector<Scalar> parameter_types;
  Scalar result = Scalar::bool_;
  Expr body;
};

// An apply folded into the op that reads its result (plan::fuse_elementwise): the input's values pass
// through `function` and are stored as `stored`, as the apply would have stored them.
struct FoldedApply {
  ElementFunction function;
  Scalar stored = Scalar::bool_;
};

// The ops, one row each in the op table (gql/compiler/ops.def, which says what each computes);
// gql/compiler/op_table.hpp reads the rest of each row.
enum class OpKind : uint8_t {
#define GQL_OP(kind, ...) kind,
#include "gql/compiler/ops.def"
#undef GQL_OP
};

// A place in the spec, as a failure at run time reports it.
struct SourcePosition {
  std::string file;  // the spec file's name, without its folder
  uint32_t line = 0;
  uint32_t column = 0;
};

struct Op {
  OpKind kind = OpKind::construct;
  std::vector<int> outputs;            // variable ids written
  std::vector<int> inputs;             // container variable ids read
  std::optional<Mask> mask;
  bool replace = false;                // GraphBLAS replace: clear outputs[0] outside the mask first
  int semiring = -1;                   // index into Module::semirings (products, closure)
  gql::Monoid monoid = gql::Monoid::sum;  // reduce
  std::optional<ElementFunction> function;  // apply, ewise
  std::vector<Expr> shape;             // construct: dimensions; set_element, element: indices
  bool dense = false;                  // construct: dense storage filled with `value`
  std::optional<Expr> value;           // construct and densify (dense fill), assign_scalar, set_element
  std::string label;                   // the statement's @label, "" if none
  Schedule schedule;                   // resolved for Module::target
  SourcePosition where;                // element: the read's position
  // Set by plan::fuse_elementwise (the OpenMP target): input n's values pass through folded[n], in
  // order (applies whose results only this op read); empty, or one list per input. A union may
  // hold in `fused_product` the vxm whose result (one of its inputs, no longer written) only it read,
  // computed inside the union's pass.
  std::vector<std::vector<FoldedApply>> folded;
  std::vector<Op> fused_product;       // none, or the vxm
  Span span;
};

struct Stmt;
using Block = std::vector<Stmt>;

enum class StmtKind : uint8_t {
  declare,  // variable comes into scope (scalars: with initial value `value`)
  assign,   // scalar variable = value
  op,       // a container operation
  while_,   // loop: run `prelude`, stop unless `condition`, run `body`, repeat
  if_,      // if (condition) body else otherwise
  return_,  // return values (one per result member; containers are variable expressions)
  require_, // fail the kernel with `message` unless `condition` holds
};


struct Stmt {
  StmtKind kind = StmtKind::declare;
  int variable = -1;                 // declare, assign
  std::optional<Expr> value;         // declare (scalar initializer), assign
  Op op;                             // op
  Block prelude;                     // while_: statements that compute the condition's operands
  std::optional<Expr> condition;     // while_, if_, require_
  Block body;                        // while_, if_
  Block otherwise;                   // if_; op single_source_paths: the statements to run instead
  std::vector<int> results;          // return_: variable ids, one per result member
  std::string message;               // require_: what the error says, as the spec wrote it
  SourcePosition where;              // require_: the statement's position
  Span span;
};

// Calls visit(stmt) for each statement of `block`, then for those of the blocks inside it (a loop's
// prelude and body, an if's branches, a recognized op's fallback loop), depth first in program order.
// Block may be const or not; the walk is the one every pass that looks for ops shares.
template <class B, class Visit>
void for_each_stmt(B& block, Visit&& visit) {
  for (auto& s : block) {
    visit(s);
    for_each_stmt(s.prelude, visit);
    for_each_stmt(s.body, visit);
    for_each_stmt(s.otherwise, visit);
  }
}

// Whether some op of `block` (or of a block inside it) satisfies `matches`.
template <class Matches>
bool any_op(const Block& block, Matches&& matches) {
  bool found = false;
  for_each_stmt(block, [&](const Stmt& s) { found = found || (s.kind == StmtKind::op && matches(s.op)); });
  return found;
}

struct Kernel {
  std::string name;
  std::vector<int> parameters;       // variable ids, in order
  std::vector<Type> results;         // one, or the members of a tuple result
  std::vector<Variable> variables;   // parameters, locals and temporaries
  Block body;
  Span span;
};

struct Module {
  Target target = Target::openmp;
  // OpenMP, built for several processes (gqlc --mpi): the ops plan::distributed names run over the
  // MPI ranks of the program's run.
  bool distributed = false;
  // Such a module called through the JIT in each rank: every rank passes whole arguments and gets the
  // whole result, so no value is held split across the ranks (plan::split_parameter, split_matrix,
  // joined_on_root and uploaded_in_parts say no); the ops still divide their work among the ranks.
  bool whole_on_every_rank = false;
  std::vector<ConstantDecl> constants;
  std::vector<Function> functions;
  std::vector<SemiringInstance> semirings;
  std::vector<Kernel> kernels;

  const Kernel* find_kernel(const std::string& name) const;
};

// ---------------------------------------------------------------------------------------------
// Printing and evaluation

// The stable text form (`--emit ir`).
std::string print_module(const Module& module);
// operand_names: how ExprKind::operand 0 and 1 print ("ab" in con, "xy" in a user agg).
std::string print_expr(const Expr& expr, const Kernel* kernel = nullptr, const char* operand_names = "ab");
const char* to_string(OpKind kind) noexcept;
const char* to_string(gql::Monoid monoid) noexcept;
const char* to_string(Accumulator a) noexcept;
const char* to_string(MaskedMethod m) noexcept;

// A scalar value as the evaluator sees it; `type` says which Constant field holds it.
struct Value {
  Scalar type = Scalar::bool_;
  Constant v;
};

// Evaluates a closed expression tree (constants, operands, parameters, builtins, casts, calls of
// `module` functions). operands/parameters are the values of ExprKind::operand / parameter.
// Throws gql::Error(internal) on a node it cannot evaluate (variables, dimensions, positions).
Value evaluate(const Expr& expr, const Module& module, const std::vector<Value>& operands,
               const std::vector<Value>& parameters = {});

// Literal helpers used by sema and the code generators.
Expr make_constant(Scalar type, Constant value, Span span = {});
Value convert(const Value& value, Scalar to);
double as_double(const Value& value);

}  // namespace gql::compiler::ir
