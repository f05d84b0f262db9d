// Loop recognition: a `while` loop of masked vector-matrix products that computes BFS levels (the
// shape of std/bfs.gql) becomes one bfs_levels op, the Bellman-Ford loop of std/sssp.gql one
// single_source_paths op, and the label-propagation loop of std/components.gql one component_labels
// op; the code generators lower them to the runtime's traversals instead of one product per level or
// round.
//
// Matching is exact and conservative: the variables, masks (structural ones only), replace flags, the
// loop condition, the order of the statements, how the loop's variables start and that nothing but the
// loop reads the frontier and the level counter. A loop that differs in any of these keeps its literal
// lowering, so recognition never changes a result.
#include <algorithm>
#include <functional>

#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {
namespace {

// ---- what statements and expressions touch ---------------------------------------------------

bool expr_references(const ir::Expr& e, int variable) {
  if ((e.kind == ir::ExprKind::variable || e.kind == ir::ExprKind::dimension) && e.index == variable) return true;
  return std::any_of(e.operands.begin(), e.operands.end(),
                     [&](const ir::Expr& o) { return expr_references(o, variable); });
}

bool block_references(const ir::Block& block, int variable);

// Reads or writes `variable` anywhere in the statement (its nested blocks included).
bool references(const ir::Stmt& s, int variable) {
  if (s.variable == variable && s.kind == ir::StmtKind::assign) return true;
  if (s.value && expr_references(*s.value, variable)) return true;
  if (s.condition && expr_references(*s.condition, variable)) return true;
  if (std::find(s.results.begin(), s.results.end(), variable) != s.results.end()) return true;
  if (s.kind == ir::StmtKind::op) {
    const ir::Op& o = s.op;
    auto has = [&](const std::vector<int>& ids) { return std::find(ids.begin(), ids.end(), variable) != ids.end(); };
    if (has(o.outputs) || has(o.inputs) || (o.mask && o.mask->variable == variable)) return true;
    for (const ir::Expr& e : o.shape)
      if (expr_references(e, variable)) return true;
    if (o.value && expr_references(*o.value, variable)) return true;
  }
  return block_references(s.prelude, variable) || block_references(s.body, variable) ||
         block_references(s.otherwise, variable);
}

bool block_references(const ir::Block& block, int variable) {
  return std::any_of(block.begin(), block.end(), [&](const ir::Stmt& s) { return references(s, variable); });
}

bool block_writes(const ir::Block& block, int variable);

// Gives `variable` a value (a scalar's declaration with an initializer counts) anywhere inside.
bool writes(const ir::Stmt& s, int variable) {
  switch (s.kind) {
    case ir::StmtKind::declare: return s.variable == variable && s.value.has_value();
    case ir::StmtKind::assign: return s.variable == variable;
    case ir::StmtKind::op:
      return std::find(s.op.outputs.begin(), s.op.outputs.end(), variable) != s.op.outputs.end() ||
             block_writes(s.otherwise, variable);
    default:
      return block_writes(s.prelude, variable) || block_writes(s.body, variable) ||
             block_writes(s.otherwise, variable);
  }
}

bool block_writes(const ir::Block& block, int variable) {
  return std::any_of(block.begin(), block.end(), [&](const ir::Stmt& s) { return writes(s, variable); });
}

// ---- small shape tests -----------------------------------------------------------------------

bool is_integer_constant(const ir::Expr& e, int64_t value) {
  if (e.kind != ir::ExprKind::constant || !is_integer(e.type)) return false;
  return is_signed(e.type) || e.type == Scalar::vertex ? e.value.signed_ == value : e.value.unsigned_ == static_cast<uint64_t>(value);
}

bool is_variable(const ir::Expr& e, int variable) {
  return e.kind == ir::ExprKind::variable && e.index == variable;
}

bool is_dimension(const ir::Expr& e, ir::Dimension d, int variable) {
  return e.kind == ir::ExprKind::dimension && e.dimension == d && e.index == variable;
}

// `nvals(v) > 0` or `nvals(v) != 0`.
bool is_nonempty_test(const ir::Expr& e, int v) {
  return e.kind == ir::ExprKind::binary && (e.binary == ir::BinaryOp::gt || e.binary == ir::BinaryOp::ne) &&
         is_dimension(e.operands[0], ir::Dimension::nvals, v) && is_integer_constant(e.operands[1], 0);
}

// `x + 1` or `1 + x`.
bool is_increment_of(const ir::Expr& e, int x) {
  if (e.kind != ir::ExprKind::binary || e.binary != ir::BinaryOp::add) return false;
  return (is_variable(e.operands[0], x) && is_integer_constant(e.operands[1], 1)) ||
         (is_integer_constant(e.operands[0], 1) && is_variable(e.operands[1], x));
}

// An expression whose value cannot change while the kernel runs: constants and immutable
// variables (parameters, lets) and their dimensions, combined by pure operators.
bool is_stable(const ir::Expr& e, const ir::Kernel& k) {
  if (e.kind == ir::ExprKind::variable || e.kind == ir::ExprKind::dimension) {
    if (!k.variables.at(static_cast<size_t>(e.index)).immutable) return false;
  }
  return std::all_of(e.operands.begin(), e.operands.end(), [&](const ir::Expr& o) { return is_stable(o, k); });
}

// A sparse construction of `v` with rows(G) entries.
bool is_empty_vector_of_rows(const ir::Stmt& s, int v, int G) {
  return s.kind == ir::StmtKind::op && s.op.kind == ir::OpKind::construct && s.op.outputs.at(0) == v &&
         !s.op.dense && !s.op.mask && s.op.shape.size() == 1 && is_dimension(s.op.shape[0], ir::Dimension::rows, G);
}

// The last top-level statement before `end` that writes `variable`, or -1 when none does.
int last_writer(const ir::Block& block, size_t end, int variable) {
  for (size_t n = end; n-- > 0;)
    if (writes(block[n], variable)) return static_cast<int>(n);
  return -1;
}

const ir::Stmt* op_statement(const ir::Stmt& s, ir::OpKind kind) {
  return s.kind == ir::StmtKind::op && s.op.kind == kind ? &s : nullptr;
}

// ---- the BFS-levels loop -----------------------------------------------------------------------
//
//   depth = vector<i32>(rows(G));  frontier = vector<T>(rows(G));  frontier[src] = x;  d = 0;
//   while (nvals(frontier) > 0) {
//     depth<frontier> = d;
//     frontier<!depth, replace> = frontier * G over S;    // any S: only the structure is used
//     d = d + 1;                                          // anywhere after depth's assignment
//   }
//
// with G an immutable graph, src stable, d an integer of 32 bits or more, and frontier and d read
// by nothing outside the loop and their initialization.

// A recognized loop's op and how many statements it replaces from the loop on.
struct Traversal {
  ir::Stmt stmt;
  size_t replaces = 1;
};

struct Recognizer {
  const ir::Module& module;
  ir::Kernel& kernel;

  const ir::Variable& variable(int id) const { return kernel.variables.at(static_cast<size_t>(id)); }

  // Every statement of the kernel that references `variable`, other than `loop` and `allowed`.
  bool referenced_elsewhere(int variable, const ir::Stmt* loop, const std::vector<const ir::Stmt*>& allowed) const {
    std::function<bool(const ir::Block&)> walk = [&](const ir::Block& block) {
      for (const ir::Stmt& s : block) {
        if (&s == loop || std::find(allowed.begin(), allowed.end(), &s) != allowed.end()) continue;
        if (s.kind == ir::StmtKind::declare && s.variable == variable && !s.value) continue;
        if (s.kind == ir::StmtKind::declare || s.kind == ir::StmtKind::assign || s.kind == ir::StmtKind::op ||
            s.kind == ir::StmtKind::return_) {
          if (references(s, variable)) return true;
          continue;
        }
        if ((s.condition && expr_references(*s.condition, variable)) || walk(s.prelude) || walk(s.body) ||
            walk(s.otherwise))
          return true;
      }
      return false;
    };
    return walk(kernel.body);
  }

  std::optional<ir::Stmt> bfs_levels(const ir::Block& block, size_t at) const {
    const ir::Stmt& loop = block[at];
    if (loop.kind != ir::StmtKind::while_ || !loop.prelude.empty() || loop.body.size() != 3) return std::nullopt;
    // The product: frontier<!depth, replace> = frontier * G.
    const ir::Stmt* product = nullptr;
    size_t product_at = 0;
    for (size_t n = 0; n < loop.body.size(); ++n)
      if (const ir::Stmt* p = op_statement(loop.body[n], ir::OpKind::vxm)) product = p, product_at = n;
    if (!product) return std::nullopt;
    const ir::Op& vxm = product->op;
    const int frontier = vxm.outputs.at(0), G = vxm.inputs.at(1);
    // Value masks are not matched: a depth of 0 (the source's) would not mask the source out.
    if (vxm.inputs.at(0) != frontier || !vxm.mask || !vxm.mask->complement || vxm.mask->value || !vxm.replace)
      return std::nullopt;
    const int depth = vxm.mask->variable;
    if (depth == frontier || G == frontier || G == depth) return std::nullopt;
    if (variable(G).type.kind != TypeKind::graph || !variable(G).immutable) return std::nullopt;
    if (variable(depth).type != Type::vector(Scalar::i32)) return std::nullopt;
    if (!is_nonempty_test(*loop.condition, frontier)) return std::nullopt;
    // depth<frontier> = d before the product, d = d + 1 after that assignment.
    const ir::Stmt* level = nullptr;
    size_t level_at = 0;
    for (size_t n = 0; n < loop.body.size(); ++n)
      if (const ir::Stmt* p = op_statement(loop.body[n], ir::OpKind::assign_scalar)) level = p, level_at = n;
    if (!level || level_at > product_at) return std::nullopt;
    const ir::Op& assign = level->op;
    if (assign.outputs.at(0) != depth || !assign.mask || assign.mask->variable != frontier || assign.mask->complement ||
        assign.mask->value || assign.replace)
      return std::nullopt;
    const ir::Expr* stored = &*assign.value;
    if (stored->kind == ir::ExprKind::cast && stored->type == Scalar::i32) stored = &stored->operands.at(0);
    if (stored->kind != ir::ExprKind::variable) return std::nullopt;
    const int d = stored->index;
    const Scalar d_type = variable(d).type.element;
    if (!variable(d).type.is_scalar() || d == depth || d == frontier ||
        (d_type != Scalar::i32 && d_type != Scalar::i64 && d_type != Scalar::u32 && d_type != Scalar::u64))
      return std::nullopt;
    const size_t increment_at = 3 - product_at - level_at;  // the body's remaining statement
    const ir::Stmt& increment = loop.body[increment_at];
    if (increment_at < level_at || increment.kind != ir::StmtKind::assign || increment.variable != d ||
        !is_increment_of(*increment.value, d))
      return std::nullopt;

    // How the loop starts: depth empty, frontier = {src}, d = 0 (the last writes before the loop).
    const int depth_init = last_writer(block, at, depth);
    if (depth_init < 0 || !is_empty_vector_of_rows(block[static_cast<size_t>(depth_init)], depth, G)) return std::nullopt;
    const int seed = last_writer(block, at, frontier);
    if (seed < 0) return std::nullopt;
    const ir::Stmt& seed_stmt = block[static_cast<size_t>(seed)];
    if (!op_statement(seed_stmt, ir::OpKind::set_element) || seed_stmt.op.shape.size() != 1 ||
        !is_stable(seed_stmt.op.shape[0], kernel))
      return std::nullopt;
    const int frontier_init = last_writer(block, static_cast<size_t>(seed), frontier);
    if (frontier_init < 0 || !is_empty_vector_of_rows(block[static_cast<size_t>(frontier_init)], frontier, G))
      return std::nullopt;
    const int d_init = last_writer(block, at, d);
    if (d_init < 0) return std::nullopt;
    const ir::Stmt& d_stmt = block[static_cast<size_t>(d_init)];
    if ((d_stmt.kind != ir::StmtKind::declare && d_stmt.kind != ir::StmtKind::assign) || !d_stmt.value ||
        !is_integer_constant(*d_stmt.value, 0))
      return std::nullopt;

    // The traversal leaves frontier and d as they were seeded, not as the loop leaves them.
    const std::vector<const ir::Stmt*> inits = {&block[static_cast<size_t>(frontier_init)], &seed_stmt, &d_stmt};
    if (referenced_elsewhere(frontier, &loop, inits) || referenced_elsewhere(d, &loop, inits)) return std::nullopt;

    ir::Stmt out;
    out.kind = ir::StmtKind::op;
    out.span = loop.span;
    out.op.kind = ir::OpKind::bfs_levels;
    out.op.outputs = {depth};
    out.op.inputs = {G};
    out.op.shape = {seed_stmt.op.shape[0]};
    out.op.semiring = vxm.semiring;
    out.op.label = vxm.label;
    out.op.schedule = vxm.schedule;
    out.op.span = loop.span;
    return out;
  }

  // ---- the Bellman-Ford loop (std/sssp.gql) ----------------------------------------------------
  //
  //   dist = vector<V>(rows(G));  dist[src] = x;  changed = true;  rounds = 0;
  //   while (changed && rounds < rows(G)) {
  //     reached = dist * G over S;                  // S: con = a + b, agg = min, on f32 or f64
  //     better = union(dist, reached, min);
  //     changed = nvals(better) != nvals(dist) || reduce(intersect(better, dist, f), or);  // f: a != b
  //     dist = better;
  //     rounds = rounds + 1;
  //   }
  //   require(!changed, "...");                   // optional
  //
  // The traversal reaches the loop's fixed point; the generated code checks the conditions under
  // which that is the loop's result (see plan_module's lines) and runs the loop otherwise (with a
  // `require(!changed, ...)` that follows it).

  bool is_min_plus(const ir::SemiringInstance& s) const {
    const ir::Expr& con = s.con;
    return s.monoid == gql::Monoid::min && is_float(s.value_type) && s.a_type == s.value_type &&
           s.b_type == s.value_type && !s.positional && con.kind == ir::ExprKind::binary &&
           con.binary == ir::BinaryOp::add && con.operands[0].kind == ir::ExprKind::operand &&
           con.operands[0].index == 0 && con.operands[1].kind == ir::ExprKind::operand && con.operands[1].index == 1;
  }

  static bool is_parameter_pair(const ir::Expr& e) {
    if (e.operands.size() != 2) return false;
    const ir::Expr &x = e.operands[0], &y = e.operands[1];
    return x.kind == ir::ExprKind::parameter && y.kind == ir::ExprKind::parameter && x.index != y.index;
  }

  // `a != b` on the two parameters, written directly or as a call of a function that says so.
  bool is_differs(const ir::Expr& e) const {
    if (e.kind == ir::ExprKind::binary && e.binary == ir::BinaryOp::ne) return is_parameter_pair(e);
    if (e.kind != ir::ExprKind::call || e.operands.size() != 2 || e.operands[0].kind != ir::ExprKind::parameter ||
        e.operands[0].index != 0 || e.operands[1].kind != ir::ExprKind::parameter || e.operands[1].index != 1)
      return false;
    for (const ir::Function& f : module.functions)
      if (f.name == e.callee) return is_differs(f.body);
    return false;
  }

  // `require(!changed, ...)`: the loop ended without a change.
  static bool requires_unchanged(const ir::Stmt& s, int changed) {
    if (s.kind != ir::StmtKind::require_) return false;
    const ir::Expr& c = *s.condition;
    return c.kind == ir::ExprKind::unary && c.unary == ir::UnaryOp::logical_not && is_variable(c.operands[0], changed);
  }

  std::optional<Traversal> single_source_paths(const ir::Block& block, size_t at) const {
    const ir::Stmt& loop = block[at];
    if (loop.kind != ir::StmtKind::while_ || !loop.prelude.empty()) return std::nullopt;
    // The body without its declarations (of the temporaries and loop-local variables).
    std::vector<const ir::Stmt*> body;
    for (const ir::Stmt& s : loop.body)
      if (s.kind != ir::StmtKind::declare || s.value) body.push_back(&s);
    if (body.size() != 7) return std::nullopt;
    for (size_t n : {0, 1, 2, 3, 5})
      if (body[n]->kind != ir::StmtKind::op || body[n]->op.mask) return std::nullopt;
    const ir::Op &relax = body[0]->op, &merge = body[1]->op, &compare = body[2]->op, &any = body[3]->op,
                 &copy = body[5]->op;
    if (relax.kind != ir::OpKind::vxm || merge.kind != ir::OpKind::ewise_union ||
        compare.kind != ir::OpKind::ewise_intersect || any.kind != ir::OpKind::reduce || copy.kind != ir::OpKind::copy)
      return std::nullopt;
    const int dist = relax.inputs.at(0), G = relax.inputs.at(1), reached = relax.outputs.at(0);
    const int better = merge.outputs.at(0), differ = compare.outputs.at(0), some = any.outputs.at(0);
    const ir::SemiringInstance& S = module.semirings.at(static_cast<size_t>(relax.semiring));
    if (!is_min_plus(S) || variable(G).type != Type::graph(S.b_type) || !variable(G).immutable ||
        variable(dist).type != Type::vector(S.value_type) || variable(reached).type != variable(dist).type ||
        variable(better).type != variable(dist).type)
      return std::nullopt;
    const std::vector<int> distinct = {dist, G, reached, better, differ, some};
    for (size_t a = 0; a < distinct.size(); ++a)
      for (size_t b = a + 1; b < distinct.size(); ++b)
        if (distinct[a] == distinct[b]) return std::nullopt;
    // better = union(dist, reached, min); differ = intersect(better, dist, !=); some = reduce(differ, or)
    const ir::Expr& min = merge.function->body;
    if (merge.inputs != std::vector<int>{dist, reached} || min.kind != ir::ExprKind::builtin ||
        min.builtin != ir::Builtin::min || !is_parameter_pair(min))
      return std::nullopt;
    if (compare.inputs != std::vector<int>{better, dist} || !is_differs(compare.function->body)) return std::nullopt;
    if (any.inputs != std::vector<int>{differ} || any.monoid != gql::Monoid::lor) return std::nullopt;
    // changed = nvals(better) != nvals(dist) || some;  dist = better;  rounds = rounds + 1
    const ir::Stmt &test = *body[4], &count = *body[6];
    if (test.kind != ir::StmtKind::assign || count.kind != ir::StmtKind::assign) return std::nullopt;
    const int changed = test.variable, rounds = count.variable;
    const ir::Expr& t = *test.value;
    if (t.kind != ir::ExprKind::binary || t.binary != ir::BinaryOp::logical_or || !is_variable(t.operands[1], some))
      return std::nullopt;
    const ir::Expr& sizes = t.operands[0];
    if (sizes.kind != ir::ExprKind::binary || sizes.binary != ir::BinaryOp::ne ||
        !is_dimension(sizes.operands[0], ir::Dimension::nvals, better) ||
        !is_dimension(sizes.operands[1], ir::Dimension::nvals, dist))
      return std::nullopt;
    if (copy.outputs.at(0) != dist || copy.inputs != std::vector<int>{better} || !is_increment_of(*count.value, rounds) ||
        !is_integer(variable(rounds).type.element) || changed == rounds)
      return std::nullopt;
    // while (changed && rounds < rows(G))
    const ir::Expr& c = *loop.condition;
    if (c.kind != ir::ExprKind::binary || c.binary != ir::BinaryOp::logical_and || !is_variable(c.operands[0], changed))
      return std::nullopt;
    const ir::Expr& limit = c.operands[1];
    if (limit.kind != ir::ExprKind::binary || limit.binary != ir::BinaryOp::lt || !is_variable(limit.operands[0], rounds) ||
        !is_dimension(limit.operands[1], ir::Dimension::rows, G))
      return std::nullopt;

    // How the loop starts: dist = {src: x}, changed = true, rounds = 0.
    const int seed = last_writer(block, at, dist);
    if (seed < 0) return std::nullopt;
    const ir::Stmt& seed_stmt = block[static_cast<size_t>(seed)];
    if (!op_statement(seed_stmt, ir::OpKind::set_element) || seed_stmt.op.shape.size() != 1 ||
        !is_stable(seed_stmt.op.shape[0], kernel) || !is_stable(*seed_stmt.op.value, kernel))
      return std::nullopt;
    const int dist_init = last_writer(block, static_cast<size_t>(seed), dist);
    if (dist_init < 0 || !is_empty_vector_of_rows(block[static_cast<size_t>(dist_init)], dist, G)) return std::nullopt;
    const int changed_init = last_writer(block, at, changed), rounds_init = last_writer(block, at, rounds);
    if (changed_init < 0 || rounds_init < 0) return std::nullopt;
    const ir::Stmt &c0 = block[static_cast<size_t>(changed_init)], &r0 = block[static_cast<size_t>(rounds_init)];
    if (c0.kind == ir::StmtKind::op || !c0.value || c0.value->kind != ir::ExprKind::constant ||
        c0.value->type != Scalar::bool_ || !c0.value->value.boolean)
      return std::nullopt;
    if (r0.kind == ir::StmtKind::op || !r0.value || !is_integer_constant(*r0.value, 0)) return std::nullopt;
    // A `require(!changed, ...)` right after the loop (std/sssp.gql's negative-cycle check) joins the
    // fallback: the traversal's result is kept only when no weight is negative, and then the loop
    // ends unchanged within rows(G) rounds, so the requirement holds.
    const ir::Stmt* check =
        at + 1 < block.size() && requires_unchanged(block[at + 1], changed) ? &block[at + 1] : nullptr;
    std::vector<const ir::Stmt*> inits = {&c0, &r0};
    if (check) inits.push_back(check);
    if (referenced_elsewhere(changed, &loop, inits) || referenced_elsewhere(rounds, &loop, inits)) return std::nullopt;

    ir::Stmt out;
    out.kind = ir::StmtKind::op;
    out.span = loop.span;
    out.op.kind = ir::OpKind::single_source_paths;
    out.op.outputs = {dist};
    out.op.inputs = {G};
    out.op.shape = {seed_stmt.op.shape[0]};
    out.op.value = seed_stmt.op.value;
    out.op.semiring = relax.semiring;
    out.op.label = relax.label;
    out.op.schedule = relax.schedule;
    out.op.span = loop.span;
    out.otherwise = {loop};
    if (check) out.otherwise.push_back(*check);
    return Traversal{std::move(out), check ? 2u : 1u};
  }

  // ---- the label-propagation loop (std/components.gql) ------------------------------------------
  //
  //   changed = true;
  //   while (changed) {
  //     neighbours = G * label over S;              // S: con = b, agg = min (or label * G, con = a)
  //     next = union(label, neighbours, min);
  //     changed = reduce(intersect(next, label, f), or);   // f: a != b
  //     label = next;
  //   }
  //
  // with integer labels. The loop stops at the smallest starting label of each component when G's
  // structure is symmetric and label starts with an entry exactly at G's non-empty rows; the runtime
  // checks both (cpu::component_labels) and runs the loop as written otherwise.

  // con returns the operand that carries the label (operand `index`), agg = min, on integers.
  bool is_min_label(const ir::SemiringInstance& s, int index) const {
    const Scalar carried = index == 0 ? s.a_type : s.b_type;
    return s.monoid == gql::Monoid::min && is_integer(s.value_type) && s.value_type != Scalar::bool_ &&
           carried == s.value_type && !s.positional && s.con.kind == ir::ExprKind::operand && s.con.index == index;
  }

  std::optional<Traversal> component_labels(const ir::Block& block, size_t at) const {
    const ir::Stmt& loop = block[at];
    if (loop.kind != ir::StmtKind::while_ || !loop.prelude.empty()) return std::nullopt;
    std::vector<const ir::Stmt*> body;
    for (const ir::Stmt& s : loop.body)
      if (s.kind != ir::StmtKind::declare || s.value) body.push_back(&s);
    if (body.size() != 6) return std::nullopt;
    for (size_t n : {0, 1, 2, 3, 5})
      if (body[n]->kind != ir::StmtKind::op || body[n]->op.mask) return std::nullopt;
    const ir::Op &spread = body[0]->op, &merge = body[1]->op, &compare = body[2]->op, &any = body[3]->op,
                 &copy = body[5]->op;
    if ((spread.kind != ir::OpKind::mxv && spread.kind != ir::OpKind::vxm) || merge.kind != ir::OpKind::ewise_union ||
        compare.kind != ir::OpKind::ewise_intersect || any.kind != ir::OpKind::reduce || copy.kind != ir::OpKind::copy)
      return std::nullopt;
    // neighbours = G * label (con = b) or label * G (con = a)
    const bool by_rows = spread.kind == ir::OpKind::mxv;
    const int G = spread.inputs.at(by_rows ? 0 : 1), label = spread.inputs.at(by_rows ? 1 : 0);
    const int neighbours = spread.outputs.at(0), next = merge.outputs.at(0), differ = compare.outputs.at(0),
              some = any.outputs.at(0);
    const ir::SemiringInstance& S = module.semirings.at(static_cast<size_t>(spread.semiring));
    if (!is_min_label(S, by_rows ? 1 : 0) || variable(G).type.kind != TypeKind::graph ||
        variable(label).type != Type::vector(S.value_type) || variable(neighbours).type != variable(label).type ||
        variable(next).type != variable(label).type)
      return std::nullopt;
    const std::vector<int> distinct = {G, label, neighbours, next, differ, some};
    for (size_t a = 0; a < distinct.size(); ++a)
      for (size_t b = a + 1; b < distinct.size(); ++b)
        if (distinct[a] == distinct[b]) return std::nullopt;
    // next = union(label, neighbours, min); differ = intersect(next, label, !=); some = reduce(differ, or)
    const auto either_order = [](const std::vector<int>& inputs, int x, int y) {
      return inputs == std::vector<int>{x, y} || inputs == std::vector<int>{y, x};
    };
    const ir::Expr& min = merge.function->body;
    if (!either_order(merge.inputs, label, neighbours) || min.kind != ir::ExprKind::builtin ||
        min.builtin != ir::Builtin::min || !is_parameter_pair(min))
      return std::nullopt;
    if (!either_order(compare.inputs, next, label) || !is_differs(compare.function->body)) return std::nullopt;
    if (any.inputs != std::vector<int>{differ} || any.monoid != gql::Monoid::lor) return std::nullopt;
    // changed = some; label = next; while (changed)
    const ir::Stmt& test = *body[4];
    if (test.kind != ir::StmtKind::assign || !is_variable(*test.value, some)) return std::nullopt;
    const int changed = test.variable;
    if (copy.outputs.at(0) != label || copy.inputs != std::vector<int>{next} || !is_variable(*loop.condition, changed) ||
        std::find(distinct.begin(), distinct.end(), changed) != distinct.end())
      return std::nullopt;
    // changed = true before the loop, and read by nothing else; the loop's temporaries neither.
    const int changed_init = last_writer(block, at, changed);
    if (changed_init < 0) return std::nullopt;
    const ir::Stmt& c0 = block[static_cast<size_t>(changed_init)];
    if (c0.kind == ir::StmtKind::op || !c0.value || c0.value->kind != ir::ExprKind::constant ||
        c0.value->type != Scalar::bool_ || !c0.value->value.boolean)
      return std::nullopt;
    if (referenced_elsewhere(changed, &loop, {&c0})) return std::nullopt;
    for (int v : {neighbours, next, differ, some})
      if (referenced_elsewhere(v, &loop, {})) return std::nullopt;

    ir::Stmt out;
    out.kind = ir::StmtKind::op;
    out.span = loop.span;
    out.op.kind = ir::OpKind::component_labels;
    out.op.outputs = {label};
    out.op.inputs = {G, label};
    out.op.semiring = spread.semiring;
    out.op.label = spread.label;
    out.op.schedule = spread.schedule;
    out.op.span = loop.span;
    out.otherwise = {loop};
    return Traversal{std::move(out)};
  }

  void block(ir::Block& stmts) {
    for (size_t n = 0; n < stmts.size(); ++n) {
      std::optional<Traversal> traversal;
      if (auto levels = bfs_levels(stmts, n)) traversal = Traversal{std::move(*levels)};
      else if (auto paths = single_source_paths(stmts, n)) traversal = std::move(paths);
      else traversal = component_labels(stmts, n);
      if (traversal) {
        stmts[n] = std::move(traversal->stmt);
        stmts.erase(stmts.begin() + static_cast<std::ptrdiff_t>(n + 1),
                    stmts.begin() + static_cast<std::ptrdiff_t>(n + traversal->replaces));
        continue;
      }
      block(stmts[n].prelude);
      block(stmts[n].body);
      block(stmts[n].otherwise);
    }
  }
};

}  // namespace

void recognize_traversals(ir::Module& module) {
  for (ir::Kernel& k : module.kernels) Recognizer{module, k}.block(k.body);
}

}  // namespace gql::compiler::plan
