// Element-wise fusion for the OpenMP target: an op whose result only the next op reads computes inside
// that op, so the vector between them is never made and the pass over it never runs.
//
//   t = apply(x, f); w = op(..., t, ...)    op is a vector union, intersect or apply: it reads x
//                                           through f (Op::folded), as gql/cpu/elementwise.hpp's readers
//   p = v * G over S; w = union(d, p, fn)   the union holds the vxm (Op::fused_product): a pull step
//                                           over a dense d writes w as it gathers (gql/cpu/vxm.hpp)
//
// Both ops must sit next to each other in one block (only declarations between them), the first
// without a mask, and its result read nowhere else in the kernel; then running them as one reads the
// same values and makes the same result.
#include <map>
#include <vector>

#include "gql/compiler/op_table.hpp"
#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {
namespace {

void count_expr(const ir::Expr& e, std::map<int, int>& reads) {
  if (e.kind == ir::ExprKind::variable || e.kind == ir::ExprKind::dimension) ++reads[e.index];
  for (const ir::Expr& operand : e.operands) count_expr(operand, reads);
}

void count_op(const ir::Op& o, std::map<int, int>& reads) {
  for (int in : o.inputs) ++reads[in];
  if (o.mask) ++reads[o.mask->variable];
  for (const ir::Expr& e : o.shape) count_expr(e, reads);
  if (o.value) count_expr(*o.value, reads);
  for (const ir::Op& inner : o.fused_product) count_op(inner, reads);
}

// How many times each variable is read anywhere in the kernel: by ops (inputs, masks, indices,
// values), scalar expressions (conditions, initializers, dimensions) and returns.
std::map<int, int> count_reads(const ir::Kernel& k) {
  std::map<int, int> reads;
  ir::for_each_stmt(k.body, [&](const ir::Stmt& s) {
    if (s.value) count_expr(*s.value, reads);
    if (s.condition) count_expr(*s.condition, reads);
    for (int r : s.results) ++reads[r];
    if (s.kind == ir::StmtKind::op) count_op(s.op, reads);
  });
  return reads;
}

class Fuser {
 public:
  Fuser(ir::Kernel& k, const std::vector<ir::SemiringInstance>& semirings)
      : kernel_(k), semirings_(semirings), reads_(count_reads(k)) {}

  void block(ir::Block& b) {
    for (ir::Stmt& s : b) {
      block(s.prelude);
      block(s.body);
      block(s.otherwise);
    }
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 0; i < b.size() && !changed; ++i) {
        if (b[i].kind != ir::StmtKind::op) continue;
        const size_t next = next_op(b, i);
        if (next == b.size()) continue;
        if (b[i].op.outputs.size() != 1) continue;
        const int made = b[i].op.outputs[0];
        changed = fold_apply(b[i].op, b[next].op) || fuse_vxm(b[i].op, b[next].op);
        if (changed) remove_fused(b, i, made);
      }
    }
  }

 private:
  // The next op statement after i with only declarations between, or b.size().
  static size_t next_op(const ir::Block& b, size_t i) {
    for (size_t n = i + 1; n < b.size(); ++n) {
      if (b[n].kind == ir::StmtKind::op) return n;
      if (b[n].kind != ir::StmtKind::declare || b[n].value) return b.size();
    }
    return b.size();
  }

  // Drops the op at i, now part of the next op, and the declaration of its result `made` in this block.
  static void remove_fused(ir::Block& b, size_t i, int made) {
    b.erase(b.begin() + static_cast<std::ptrdiff_t>(i));
    for (size_t n = 0; n < b.size(); ++n) {
      if (b[n].kind == ir::StmtKind::declare && b[n].variable == made) {
        b.erase(b.begin() + static_cast<std::ptrdiff_t>(n));
        return;
      }
    }
  }

  const ir::Variable& variable(int id) const { return kernel_.variables.at(static_cast<size_t>(id)); }
  bool is_vector(int id) const { return variable(id).type.kind == TypeKind::vector; }

  // `first`'s one result, read only once in the kernel, and that once as one input of `reader`:
  // that input's position, or -1.
  int only_reader_input(const ir::Op& first, const ir::Op& reader) const {
    if (first.outputs.size() != 1 || first.mask || first.replace) return -1;
    const int made = first.outputs[0];
    const auto it = reads_.find(made);
    if (it == reads_.end() || it->second != 1) return -1;
    // A reader that writes the same variable through a mask keeps its old entries outside the mask:
    // it reads them too.
    for (int out : reader.outputs)
      if (out == made) return -1;
    for (size_t n = 0; n < reader.inputs.size(); ++n)
      if (reader.inputs[n] == made) return static_cast<int>(n);
    return -1;
  }

  // The ops that read their inputs through readers: the op table's map and combine forms (apply,
  // union, intersect).
  static bool elementwise_on_vectors(const ir::Op& o) {
    const ir::OpForm form = ir::op_info(o.kind).form;
    return form == ir::OpForm::map || form == ir::OpForm::combine;
  }

  // t = apply(x, f) read only by the next vector op: that op reads x through f.
  bool fold_apply(ir::Op& first, ir::Op& reader) {
    if (first.kind != ir::OpKind::apply || !elementwise_on_vectors(reader) || !first.fused_product.empty()) return false;
    if (!is_vector(first.inputs.at(0)) || !is_vector(first.outputs.at(0))) return false;
    for (int in : reader.inputs)
      if (!is_vector(in)) return false;
    const int at = only_reader_input(first, reader);
    if (at < 0) return false;
    if (reader.folded.empty()) reader.folded.resize(reader.inputs.size());
    auto& chain = reader.folded[static_cast<size_t>(at)];
    std::vector<ir::FoldedApply> before = first.folded.empty() ? std::vector<ir::FoldedApply>{} : first.folded[0];
    before.push_back({*first.function, variable(first.outputs[0]).type.element});
    chain.insert(chain.begin(), before.begin(), before.end());
    reader.inputs[static_cast<size_t>(at)] = first.inputs[0];
    return true;
  }

  // p = v * G read only by the next union: the union computes it (a vector times a graph, the
  // product's values stored as its semiring makes them).
  bool fuse_vxm(ir::Op& first, ir::Op& reader) {
    if (first.kind != ir::OpKind::vxm || reader.kind != ir::OpKind::ewise_union || !reader.fused_product.empty())
      return false;
    if (!is_vector(first.inputs.at(0)) || variable(first.inputs.at(1)).type.kind != TypeKind::graph) return false;
    const ir::SemiringInstance& s = semirings_.at(static_cast<size_t>(first.semiring));
    if (variable(first.outputs.at(0)).type.element != s.value_type) return false;
    const int at = only_reader_input(first, reader);
    if (at < 0 || !is_vector(reader.inputs.at(static_cast<size_t>(1 - at)))) return false;
    const auto* threads = std::get_if<ir::ElementwiseSchedule>(&reader.schedule);
    const auto* traversal = std::get_if<ir::TraversalSchedule>(&first.schedule);
    if (!threads || !traversal || threads->threads != traversal->threads) return false;
    reader.fused_product.push_back(std::move(first));
    return true;
  }

  ir::Kernel& kernel_;
  const std::vector<ir::SemiringInstance>& semirings_;
  std::map<int, int> reads_;
};

}  // namespace

void fuse_elementwise(ir::Module& module) {
  if (module.target != ir::Target::openmp) return;
  for (ir::Kernel& k : module.kernels) {
    Fuser(k, module.semirings).block(k.body);
  }
}

}  // namespace gql::compiler::plan
