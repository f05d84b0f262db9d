// Which ops of a kernel built for several processes (gqlc --mpi) run over the MPI ranks: the ops with a
// distributed twin in gql/dist/ whose result is the one-process op's (OpenMP: products, vector products,
// BFS, closures, LU; CUDA: unmasked products, BFS, closures and LU, over the ranks' GPUs). A value is whole on every rank, so an op
// without a twin runs on each rank as in one process, except (OpenMP) a graph parameter that only
// split twins read: that one is split across the ranks.
#include <algorithm>
#include <optional>
#include <vector>

#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {

bool distributed(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module) {
  if (!module.distributed) return false;
  const auto kind = [&](int variable) { return kernel.variables.at(static_cast<size_t>(variable)).type.kind; };
  // The GPU twins: gql/dist/device_mxm.hpp, device_bfs.hpp, device_closure.hpp, device_lu.hpp.
  if (module.target == ir::Target::cuda) {
    if (op.kind == ir::OpKind::bfs_levels) return true;
    if (op.kind == ir::OpKind::mxm)  // unmasked graphs into a graph: the one-GPU product on each rank's rows
      return !op.mask && kind(op.outputs.at(0)) == TypeKind::graph && kind(op.inputs.at(0)) == TypeKind::graph &&
             kind(op.inputs.at(1)) == TypeKind::graph;
    if (op.kind == ir::OpKind::lu) return true;
    return op.kind == ir::OpKind::closure && kind(op.inputs.at(0)) == TypeKind::matrix;
  }
  switch (op.kind) {
    case ir::OpKind::mxm:  // graphs into a graph, through any mask: dist::mxm, then the assignment on each rank
      return kind(op.outputs.at(0)) == TypeKind::graph && kind(op.inputs.at(0)) == TypeKind::graph &&
             kind(op.inputs.at(1)) == TypeKind::graph;
    case ir::OpKind::vxm:  // over a graph: pull steps by ranges of columns (gql/dist/vxm.hpp)
      return kind(op.inputs.at(1)) == TypeKind::graph;
    case ir::OpKind::mxv: return kind(op.inputs.at(0)) == TypeKind::graph;
    case ir::OpKind::ewise_union:  // a union holding a fused vxm is the vxm's distributed pull
      return !op.fused_product.empty() && distributed(op.fused_product.front(), kernel, module);
    case ir::OpKind::bfs_levels: return true;
    case ir::OpKind::closure: return kind(op.inputs.at(0)) == TypeKind::matrix;
    case ir::OpKind::lu: return true;
    default: return false;
  }
}

namespace {

size_t holds(const std::vector<int>& ids, int id) { return static_cast<size_t>(std::count(ids.begin(), ids.end(), id)); }

// Whether some op touches parameter `variable` (reads, writes or masks with it) and `accept` takes
// every op that does (given the op and whether it masks with the variable), and no statement returns it.
template <class Accept>
bool every_use(const ir::Kernel& kernel, int variable, Accept accept) {
  bool touched = false, accepted = true;
  const auto check = [&](const ir::Op& op) {
    const bool masks = op.mask && op.mask->variable == variable;
    if (!holds(op.inputs, variable) && !holds(op.outputs, variable) && !masks) return;
    touched = true;
    accepted = accepted && accept(op, masks);
  };
  ir::for_each_stmt(kernel.body, [&](const ir::Stmt& s) {
    if (s.kind == ir::StmtKind::return_ && holds(s.results, variable)) accepted = false;
    if (s.kind != ir::StmtKind::op) return;
    check(s.op);
    for (const ir::Op& fused : s.op.fused_product) check(fused);
  });
  return touched && accepted;
}

// Whether every op that touches graph parameter `variable` reads it as a split graph can be read:
// the BFS, or an unmasked product reading it as A; and, with `b_reads`, also as B of an unmasked
// product whose A is split (read_split(A) without B reads: each rank fetches the rows of B it needs).
bool read_split(const ir::Kernel& kernel, int variable, const ir::Module& module, bool b_reads) {
  const ir::Variable& v = kernel.variables.at(static_cast<size_t>(variable));
  if (v.role != ir::VariableRole::parameter || v.type.kind != TypeKind::graph) return false;
  return every_use(kernel, variable, [&](const ir::Op& op, bool masks) {
    const bool bfs_read =
        op.kind == ir::OpKind::bfs_levels && op.inputs.at(0) == variable && holds(op.inputs, variable) == 1;
    const bool product = op.kind == ir::OpKind::mxm && !op.mask;
    const bool a_read = product && op.inputs.at(0) == variable;
    const bool b_read = product && b_reads && op.inputs.at(0) != variable &&
                        read_split(kernel, op.inputs.at(0), module, /*b_reads=*/false);
    return (bfs_read || a_read || b_read) && distributed(op, kernel, module) && !holds(op.outputs, variable) && !masks;
  });
}

}  // namespace

bool uploaded_in_parts(const ir::Kernel& kernel, int variable, const ir::Module& module) {
  if (!module.distributed || module.whole_on_every_rank || module.target != ir::Target::cuda) return false;
  const ir::Variable& v = kernel.variables.at(static_cast<size_t>(variable));
  if (v.role != ir::VariableRole::parameter || (v.type.kind != TypeKind::graph && v.type.kind != TypeKind::matrix))
    return false;
  return every_use(kernel, variable, [&](const ir::Op& op, bool masks) {
    const bool reads_parts = op.kind == ir::OpKind::bfs_levels || op.kind == ir::OpKind::closure;
    return reads_parts && distributed(op, kernel, module) && op.inputs.at(0) == variable &&
           holds(op.inputs, variable) == 1 && !holds(op.outputs, variable) && !masks;
  });
}

bool split_parameter(const ir::Kernel& kernel, int variable, const ir::Module& module) {
  if (!module.distributed || module.whole_on_every_rank || module.target != ir::Target::openmp) return false;
  const ir::Variable& v = kernel.variables.at(static_cast<size_t>(variable));
  if (v.role != ir::VariableRole::parameter) return false;
  if (v.type.kind == TypeKind::matrix) return split_matrix(kernel, variable, module);
  return read_split(kernel, variable, module, /*b_reads=*/true);
}

namespace {

// The matrices of a kernel in groups joined by copies and distributed closures (each variable's
// group is named by one of its members), and which of them may be held split.
class SplitMatrices {
 public:
  SplitMatrices(const ir::Kernel& kernel, const ir::Module& module) : kernel_(kernel), group_(kernel.variables.size()) {
    for (size_t v = 0; v < group_.size(); ++v) group_[v] = static_cast<int>(v);
    std::vector<bool> touched_otherwise(group_.size(), false), has_closure(group_.size(), false);
    const auto each_op = [&](const auto& f) {
      ir::for_each_stmt(kernel.body, [&](const ir::Stmt& s) {
        if (s.kind != ir::StmtKind::op) return;
        f(s.op);
        for (const ir::Op& fused : s.op.fused_product) f(fused);
      });
    };
    // Copies and closures join their input's group and their output's; an element store touches its
    // output only; any other use of a matrix keeps its group whole on every rank.
    each_op([&](const ir::Op& o) {
      const bool copy = o.kind == ir::OpKind::copy && !o.mask && matrix(o.inputs.at(0)) && matrix(o.outputs.at(0));
      const bool closure = o.kind == ir::OpKind::closure && !o.mask && distributed(o, kernel, module);
      const bool store = o.kind == ir::OpKind::set_element && !o.mask && o.inputs.empty() && matrix(o.outputs.at(0));
      if (copy || closure) join(o.inputs.at(0), o.outputs.at(0));
      if (copy || closure || store) return;
      for (int v : o.inputs) touched_otherwise[static_cast<size_t>(v)] = true;
      for (int v : o.outputs) touched_otherwise[static_cast<size_t>(v)] = true;
      if (o.mask) touched_otherwise[static_cast<size_t>(o.mask->variable)] = true;
    });
    splittable_.assign(group_.size(), true);
    for (int v = 0; v < static_cast<int>(group_.size()); ++v)
      if (touched_otherwise[static_cast<size_t>(v)] || !matrix(v)) splittable_[static_cast<size_t>(find(v))] = false;
    each_op([&](const ir::Op& o) {
      if (o.kind == ir::OpKind::closure && distributed(o, kernel, module))
        has_closure[static_cast<size_t>(find(o.inputs.at(0)))] = true;
    });
    for (size_t g = 0; g < group_.size(); ++g) splittable_[g] = splittable_[g] && has_closure[g];
  }

  bool split(int variable) { return matrix(variable) && splittable_[static_cast<size_t>(find(variable))]; }

 private:
  bool matrix(int variable) const {
    return kernel_.variables.at(static_cast<size_t>(variable)).type.kind == TypeKind::matrix;
  }
  int find(int v) {
    while (group_[static_cast<size_t>(v)] != v) v = group_[static_cast<size_t>(v)];
    return v;
  }
  void join(int a, int b) { group_[static_cast<size_t>(find(a))] = find(b); }

  const ir::Kernel& kernel_;
  std::vector<int> group_;
  std::vector<bool> splittable_;
};

}  // namespace

bool split_matrix(const ir::Kernel& kernel, int variable, const ir::Module& module) {
  if (!module.distributed || module.whole_on_every_rank || module.target != ir::Target::openmp) return false;
  return SplitMatrices(kernel, module).split(variable);
}

namespace {

// Whether `e` reads the rows, cols or nvals of container `variable`.
bool reads_dimension(const ir::Expr& e, int variable) {
  if (e.kind == ir::ExprKind::dimension && e.index == variable) return true;
  return std::any_of(e.operands.begin(), e.operands.end(), [&](const ir::Expr& o) { return reads_dimension(o, variable); });
}

bool op_reads_dimension(const ir::Op& op, int variable) {
  const auto in = [&](const std::optional<ir::Expr>& e) { return e && reads_dimension(*e, variable); };
  return in(op.value) ||
         std::any_of(op.shape.begin(), op.shape.end(), [&](const ir::Expr& e) { return reads_dimension(e, variable); });
}

}  // namespace

bool joined_on_root(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module) {
  if (op.kind != ir::OpKind::mxm || module.whole_on_every_rank || !distributed(op, kernel, module)) return false;
  const int C = op.outputs.at(0);
  const auto holds = [&](const std::vector<int>& ids) { return std::find(ids.begin(), ids.end(), C) != ids.end(); };
  if (op.mask && (!op.replace || op.mask->variable == C)) return false;
  bool returned = false, other_use = false;
  const auto check = [&](const ir::Op& o) {
    if (&o == &op) return;
    const bool only_made = o.kind == ir::OpKind::construct && o.inputs.empty() && o.outputs == std::vector<int>{C};
    if (only_made) return;  // an empty C made before the product: the product replaces it
    other_use = other_use || holds(o.inputs) || holds(o.outputs) || (o.mask && o.mask->variable == C) ||
                op_reads_dimension(o, C);
  };
  ir::for_each_stmt(kernel.body, [&](const ir::Stmt& s) {
    if (s.kind == ir::StmtKind::return_) returned = returned || holds(s.results);
    const auto in = [&](const std::optional<ir::Expr>& e) { return e && reads_dimension(*e, C); };
    other_use = other_use || in(s.value) || in(s.condition);
    if (s.kind != ir::StmtKind::op) return;
    check(s.op);
    for (const ir::Op& fused : s.op.fused_product) check(fused);
  });
  return returned && !other_use && !holds(op.inputs);
}

std::string distribution_text(const ir::Op& op, const ir::Kernel& kernel, const ir::Module& module) {
  switch (op.kind) {
    case ir::OpKind::mxm:
      if (module.target == ir::Target::cuda)
        return "distributed over the MPI ranks' GPUs (gql::dist::mxm, gql/dist/device_mxm.hpp): A's rows in blocks "
               "of equal products, each rank multiplying its rows on its GPU by the whole B with the one-GPU product "
               "below, the blocks joined in rank order on the host; a con that reads positions runs the one-GPU "
               "product whole on each rank";
      if (split_parameter(kernel, op.inputs.at(0), module))
        return std::string("distributed over the MPI ranks (gql::dist::mxm of a split A): each rank multiplies its "
                           "own rows of A") +
               (split_parameter(kernel, op.inputs.at(1), module)
                    ? " by the rows of the split B that they name, fetched from the ranks holding them "
                      "(gql::dist::fetched_rows)"
                    : " by the whole B") +
               "; the product comes split by A's rows";
      return "distributed over the MPI ranks (gql::dist::mxm): A's rows in blocks of equal products, multiplied "
             "through the mask's same rows by the method chosen for the whole product, each rank's rows of the "
             "product joined in rank order, then written into the output";
    case ir::OpKind::vxm:
    case ir::OpKind::mxv:
    case ir::OpKind::ewise_union:
      return "distributed over the MPI ranks (gql::dist::PullOverRanks): a pull step gathers a range of the "
             "result's entries on each rank, ranges of equal in-edges, joined on every rank; a push step runs "
             "whole on each rank";
    case ir::OpKind::bfs_levels:
      if (module.target == ir::Target::cuda)
        return "distributed over the MPI ranks' GPUs (gql::dist::bfs_levels, gql/dist/device_bfs.hpp): each rank's "
               "vertices a row block of equal edges in its GPU's memory, the next frontier's bits joined on every "
               "rank's GPU at every level (NCCL, or host memory where ranks share a GPU); on one rank, the one-GPU "
               "search below";
      return "distributed over the MPI ranks (gql::dist::bfs_levels): each rank's vertices a row block of equal "
             "edges, the next frontier's bits or-ed across the ranks at every level";
    case ir::OpKind::closure:
      if (module.target == ir::Target::cuda)
        return "distributed over the MPI ranks' GPUs (gql::dist::closure, gql/dist/device_closure.hpp): blocked "
               "Floyd-Warshall over row blocks of whole k-blocks in each rank's GPU memory, each k-block's rows "
               "broadcast by their rank (NCCL, or host memory where ranks share a GPU), the result joined on every "
               "rank's GPU; on one rank, the one-GPU closure below";
      return "distributed over the MPI ranks (gql::dist::closure): blocked Floyd-Warshall over row blocks of "
             "whole 64-row k-blocks, each k-block's rows broadcast by their rank";
    case ir::OpKind::lu:
      if (module.target == ir::Target::cuda)
        return "distributed over the MPI ranks' GPUs (gql::dist::lu, gql/dist/device_lu.hpp): panels of the tile's "
               "columns dealt to the ranks in turn, A whole in every rank's GPU memory, each panel factored by its "
               "rank and broadcast (NCCL, or host memory where ranks share a GPU), every rank updating its own "
               "panels; the factors joined on every rank's GPU; on one rank, the one-GPU LU below";
      return "distributed over the MPI ranks (gql::dist::lu): panels of the tile's columns dealt to the ranks in "
             "turn, each factored by its rank and broadcast, every rank updating its own panels; the factors "
             "joined on every rank";
    default: return "";
  }
}

}  // namespace gql::compiler::plan
