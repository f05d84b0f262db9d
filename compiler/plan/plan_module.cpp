#include <algorithm>
#include <string>

#include "gql/compiler/plan.hpp"
#include "gql/limits.hpp"

namespace gql::compiler::plan {
namespace {

std::string number(double x) {
  std::string s = std::to_string(x);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// What the semiring lets a kernel skip or must make it do. `sparse`: the op is a sparse product,
// whose loops may stop early and whose GPU kernels combine with atomics (a product with a dense
// operand folds every k of an output in order, on either target).
void semiring_lines(const ir::SemiringInstance& s, ir::Target target, bool sparse, std::vector<std::string>& lines) {
  lines.push_back("semiring " + s.name + (s.reads_values ? "" : ": value-free (con reads no operand values)"));
  if (!sparse) return;
  if (s.monoid == gql::Monoid::any) lines.push_back("early exit: agg is any, the first product of (i, j) is kept");
  else if (target == ir::Target::openmp && ir::first_term_decides(s))
    lines.push_back("early exit: every product of (i, j) is the same value (con reads neither operand nor k) and " +
                    std::string(ir::to_string(s.monoid)) + " keeps it: the first is kept");
  else if (s.terminal) lines.push_back("early exit: an entry stops accumulating once it reaches the terminal value");
  if (target == ir::Target::cuda)
    lines.push_back(s.monoid == gql::Monoid::user ? "atomics: compare-and-swap loop (user-written agg)"
                                                  : std::string("atomics: native ") + ir::to_string(s.monoid));
}

// How a product through a plain mask runs (gql/cpu/spgemm_dot.hpp, gql/device/spgemm/masked_dot.hpp).
std::string masked_line(const ir::ProductSchedule& p, const ir::Op& o) {
  if (!o.mask || o.mask->complement)
    return p.masked == ir::MaskedMethod::dot ? "masked dot: no plain mask to walk, the product runs by rows" : "";
  switch (p.masked) {
    case ir::MaskedMethod::saxpy: return "masked saxpy: by rows, the mask filtering every product (by the schedule)";
    case ir::MaskedMethod::dot: return "masked dot: an entry of the mask at a time, A's row joined with B's column (by the schedule)";
    case ir::MaskedMethod::auto_: break;
  }
  return "masked auto: per call, by the mask's entries (a join each) when their join steps are fewer than the "
         "products of the rows the mask keeps, else by rows";
}

void product_lines(const ir::ProductSchedule& p, const ir::Op& o, ir::Target target, std::vector<std::string>& lines) {
  if (std::string line = masked_line(p, o); !line.empty()) lines.push_back(std::move(line));
  if (target == ir::Target::openmp) {
    lines.push_back("rows in parallel in chunks of equal work (work of a row = sum of its neighbours' degrees)" +
                    std::string(p.threads ? ", " + std::to_string(p.threads) + " threads" : ""));
    switch (p.accumulator) {
      case ir::Accumulator::dense: lines.push_back("accumulator: dense with a touched-column list, every row"); break;
      case ir::Accumulator::hash: lines.push_back("accumulator: hash, every row"); break;
      default:
        lines.push_back("accumulator: per row, hash when it can hold fewer than n/" + std::to_string(cpu_hash_row_divisor) +
                        " entries (its products or its mask row), else dense");
        break;
    }
    return;
  }
  // The GPU kernels' paths: the whole-GPU dense accumulator, a hash table per row in shared memory,
  // and the per-block hybrid sort.
  for (const ir::RowClass& c : p.rows)
    lines.push_back("rows with work >= " + std::to_string(c.min_work) + " (" + c.name + "): " +
                    ir::to_string(c.accumulator) + (c.chunk ? " (chunk " + std::to_string(c.chunk) + ")" : ""));
  lines.push_back("block " + std::to_string(p.block) + " threads");
}

void traversal_lines(const ir::TraversalSchedule& t, std::vector<std::string>& lines) {
  switch (t.direction) {
    case ir::Direction::push: lines.push_back("direction: push (scatter along the frontier's out-edges)"); break;
    case ir::Direction::pull: lines.push_back("direction: pull (gather along in-edges of unvisited vertices)"); break;
    case ir::Direction::auto_:
      lines.push_back("direction: auto, push -> pull when frontier edges > unexplored edges / " + number(t.alpha) +
                      ", pull -> push when frontier vertices < n / " + number(t.beta));
      break;
  }
}

std::string direction_text(const ir::TraversalSchedule& t) {
  switch (t.direction) {
    case ir::Direction::push: return "push";
    case ir::Direction::pull: return "pull";
    case ir::Direction::auto_: break;
  }
  return "auto(alpha=" + number(t.alpha) + ", beta=" + number(t.beta) + ")";
}

const char* frontier_text(ir::FrontierFormat f) {
  switch (f) {
    case ir::FrontierFormat::sparse: return "sparse";
    case ir::FrontierFormat::dense: return "bitmap";
    case ir::FrontierFormat::auto_: break;
  }
  return "auto";
}

// How a CUDA push step maps the frontier's edges to threads.
std::string balance_line(ir::LoadBalance b) {
  switch (b) {
    case ir::LoadBalance::thread: return "push balance: thread (a thread per frontier vertex)";
    case ir::LoadBalance::warp: return "push balance: warp (a warp per frontier vertex)";
    case ir::LoadBalance::block: return "push balance: block (a block per frontier vertex)";
    case ir::LoadBalance::edge: break;
  }
  return "push balance: edge (equal tiles of the frontier's edges, whatever the degrees)";
}

// What each step of a GPU BFS writes the next frontier as.
std::string gpu_frontier_line(ir::FrontierFormat f) {
  switch (f) {
    case ir::FrontierFormat::sparse: return "frontier: a queue after every step (pull steps read it as a bitmap built from it)";
    case ir::FrontierFormat::dense: return "frontier: a bitmap after every step (push steps read it as a queue built from it)";
    case ir::FrontierFormat::auto_: break;
  }
  return "frontier: a queue after push steps, a bitmap after pull steps";
}

// A loop that recognize_traversals replaced by one traversal.
void recognized_lines(const ir::Op& o, const ir::Module& m, std::vector<std::string>& lines) {
  const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
  const std::string where = m.target == ir::Target::cuda ? "gql::gpu::" : "gql::cpu::";
  if (o.kind == ir::OpKind::bfs_levels) {
    lines.push_back(std::string("bfs levels: direction ") + direction_text(t) + ", frontier " + frontier_text(t.frontier));
    if (t.method == ir::TraversalMethod::edge_centric) lines.push_back("method: the seed's edge-centric kernel");
    if (t.method == ir::TraversalMethod::delta_stepping)
      lines.push_back("method delta_stepping applies to single-source paths only: the frontier method runs");
    lines.push_back("the loop of masked products runs as one traversal (" + where +
                    "bfs_levels): levels kept as bytes while the depth stays below 255, then as i32");
    traversal_lines(t, lines);
    if (m.target == ir::Target::cuda && t.method != ir::TraversalMethod::edge_centric) {
      lines.push_back(gpu_frontier_line(t.frontier));
      lines.push_back(balance_line(t.balance));
    }
    return;
  }
  if (o.kind == ir::OpKind::component_labels) {
    lines.push_back("components: union-find (Afforest: two sampled neighbours per vertex, then the edges of the "
                    "vertices outside the largest component), each label the smallest starting label of its "
                    "component");
    lines.push_back("the label-propagation loop runs as one op (" + where +
                    "component_labels); the loop as written runs instead when the graph's structure is not "
                    "symmetric or the labels do not start exactly at its vertices with edges");
    return;
  }
  if (t.method == ir::TraversalMethod::delta_stepping) {
    lines.push_back("single-source paths over " + m.semirings.at(static_cast<size_t>(o.semiring)).name +
                    ": delta-stepping, buckets of width " +
                    (t.delta > 0 ? number(t.delta) : std::string("32 x mean weight / mean out-degree")));
  } else {
    lines.push_back("single-source paths over " + m.semirings.at(static_cast<size_t>(o.semiring)).name +
                    ": Bellman-Ford, pushing from a frontier of the vertices improved in the last round");
    if (t.method == ir::TraversalMethod::edge_centric)
      lines.push_back("method edge_centric applies to BFS only: Bellman-Ford runs");
  }
  lines.push_back("the relaxation loop runs as one traversal (" + where +
                  "single_source_paths); the loop as written runs instead when the traversal cannot reproduce "
                  "it exactly (a negative or NaN weight, a vertex reached only by paths that sum to infinity)");
  if (m.target == ir::Target::cuda) {
    lines.push_back(balance_line(t.balance) + (t.method == ir::TraversalMethod::delta_stepping
                                                   ? std::string()
                                                   : "; rounds of at most 32768 frontier edges run a thread per vertex"));
    lines.push_back("the traversal pushes from a queue of the improved vertices: direction " + direction_text(t) +
                    " and frontier " + frontier_text(t.frontier) + " apply to the loop as written");
  }
}

void closure_lines(const ir::ClosureSchedule& c, ir::Target target, bool paths, std::vector<std::string>& lines) {
  if (paths && target == ir::Target::cuda) {  // gql/device/closure/closure.hpp: predecessors run one kernel, in core
    lines.push_back("closure with predecessors: the global-memory kernel, one launch per k (the schedule's tiles "
                    "apply to closures without paths)");
    lines.push_back("in core only: the matrix and its predecessors stay in device memory; a matrix beyond the "
                    "device budget, or out_of_core on, is an error");
    return;
  }
  lines.push_back("blocked 3-stage closure, tile " +
                  (c.tile == 0 ? "auto (k-block 128 below n = 16384, 256 from there)" : std::to_string(c.tile)));
  if (target == ir::Target::openmp) {
    switch (c.parallelism) {
      case ir::ClosureParallelism::tasks: lines.push_back("parallelism: OpenMP tasks with tile dependences"); break;
      case ir::ClosureParallelism::parallel_for: lines.push_back("parallelism: parallel for per stage"); break;
      case ir::ClosureParallelism::recursive:
        lines.push_back("parallelism: recursive halving down to " + std::to_string(c.recursive_base));
        break;
    }
    return;
  }
  if (c.per_thread > 0) {
    lines.push_back("the seed's shared-memory tiles, " + std::to_string(c.per_thread) + " entries per thread, " +
                    (c.spread ? "spread" : "packed"));
  } else {
    lines.push_back("register tiles: " + std::to_string(c.register_rows) + "x" + std::to_string(c.register_cols) +
                    " entries per thread, 128x128 per block");
  }
  lines.push_back(std::string("out of core: ") + (c.out_of_core == ir::Toggle::on    ? "on"
                                                  : c.out_of_core == ir::Toggle::off ? "off"
                                                                                     : "when the matrix exceeds the device budget") +
                  ", " + std::to_string(c.streams) + " streams");
}

// A product with a dense operand: which kernel runs it (gql/cpu/dense_products.hpp,
// gql/device/dense/dense_products.hpp).
void dense_product_lines(const ir::Op& o, const ir::Module& m, const ir::Kernel& k, std::vector<std::string>& lines) {
  const auto kind = [&](size_t n) { return k.variables.at(static_cast<size_t>(o.inputs.at(n))).type.kind; };
  const ir::SemiringInstance& s = m.semirings.at(static_cast<size_t>(o.semiring));
  if (kind(0) == TypeKind::matrix && kind(1) == TypeKind::matrix) {
    const bool vendor = s.monoid == gql::Monoid::sum && ir::multiplies_operands(s) &&
                        (s.value_type == Scalar::f32 || s.value_type == Scalar::f64);
    if (m.target == ir::Target::cuda)
      lines.push_back(vendor ? "dense GEMM on the GPU: plus_times over floats, by cuBLAS gemm"
                             : "dense GEMM on the GPU: the tiled semiring GEMM, 64x64 outputs per block of 256 threads, "
                               "4x4 per thread (on the host in the JIT's NVRTC builds)");
    else
      lines.push_back(vendor ? "dense GEMM: plus_times over floats, by OpenBLAS gemm"
                             : "dense GEMM: register tiles of 3x16 outputs, cache blocks of 128x256 of the right "
                               "operand, bands of 48 rows in parallel");
  } else if (m.target == ir::Target::cuda) {
    const char* what = o.kind == ir::OpKind::vxm   ? "vector x dense matrix on the GPU: a thread per column of the result"
                       : o.kind == ir::OpKind::mxv ? "dense matrix x vector on the GPU: a thread per row of the result"
                       : kind(1) == TypeKind::matrix
                           ? "graph x dense matrix on the GPU: a thread per entry of the result, over row i of the graph"
                           : "dense matrix x graph on the GPU: a thread per entry of the result, over row j of the "
                             "graph's transpose (made once per graph value)";
    lines.push_back(std::string(what) + ", its k in ascending order as on the host (on the host in the JIT's NVRTC "
                                        "builds)");
  } else if (o.kind == ir::OpKind::vxm) {
    lines.push_back("vector x dense matrix: every entry of the vector scales its row of the matrix into the result, "
                    "columns in blocks in parallel");
  } else if (kind(1) == TypeKind::matrix) {
    lines.push_back("graph x dense matrix: each entry G(i, k) combines row k of the matrix into row i, rows in parallel");
  } else if (o.kind == ir::OpKind::mxv) {
    lines.push_back("dense matrix x vector: each row of the matrix against the vector's entries, rows in parallel");
  } else {
    lines.push_back("dense matrix x graph: each entry A(i, k) scattered over row k of the graph, rows in parallel");
  }
  lines.push_back(std::string("a dense result holds ") + (o.kind == ir::OpKind::mxm ? "the semiring's zero where no k contributes"
                                                                                  : "an entry everywhere unless the vector is empty"));
}

// Where a CUDA op runs and which side of its values it reads and writes (placement.cpp).
std::string placement_line(const ir::Op& o, const ir::Kernel& k) {
  const auto names = [&](const std::vector<int>& ids) {
    std::string text;
    for (size_t n = 0; n < ids.size(); ++n) {
      const ir::Variable& v = k.variables.at(static_cast<size_t>(ids[n]));
      text += (n ? ", " : "") + (v.role == ir::VariableRole::temporary ? std::string("a temporary") : v.name);
    }
    return text;
  };
  const std::string reads = o.inputs.empty() ? "" : "reads " + names(o.inputs) + " ";
  // Element reads and stores run where their value is current (gql/device/values/element_ops.hpp).
  if (o.kind == ir::OpKind::element)
    return "placement: on the device when " + names(o.inputs) + " is current there: reads back that one entry (no "
           "copy of " + names(o.inputs) + "); on the host otherwise";
  if (o.kind == ir::OpKind::set_element)
    return "placement: on the device when " + names(o.outputs) + " is current there: the store waits until " +
           names(o.outputs) + " is next read, then the waiting stores are written in one pass; on the host otherwise";
  switch (placement(o, k, ir::Target::cuda)) {
    case Placement::device: {
      const bool scalar_result =
          !o.outputs.empty() && k.variables.at(static_cast<size_t>(o.outputs[0])).type.is_scalar();
      return "placement: on the device; " + (reads.empty() ? "" : reads + "there (uploaded once per value), ") +
             (o.mask ? "its mask " + names({o.mask->variable}) + " there too, " : "") +
             (scalar_result ? "reads back " + names(o.outputs) : "leaves " + names(o.outputs) + " there");
    }
    case Placement::host: break;
  }
  return "placement: on the host; " + reads + "there (downloaded once when the device wrote it last), writes " +
         names(o.outputs) + " there";
}

// What plan::fuse_elementwise fused into this op.
void fusion_lines(const ir::Op& o, const ir::Kernel& k, std::vector<std::string>& lines) {
  const auto name = [&](int id) {
    const ir::Variable& v = k.variables.at(static_cast<size_t>(id));
    return v.role == ir::VariableRole::temporary ? std::string("a temporary") : v.name;
  };
  for (size_t n = 0; n < o.folded.size(); ++n)
    for (const ir::FoldedApply& a : o.folded[n])
      lines.push_back("fused: apply " + a.function.name + " is read inside this op from " + name(o.inputs[n]) +
                      " (no vector between them)");
  for (const ir::Op& product : o.fused_product)
    lines.push_back("fused: the vxm -> " + name(product.outputs.at(0)) +
                    " runs inside this union: a pull step over a dense operand writes the result as it gathers, "
                    "any other step makes the product first");
}

// The kernel's matrices held split across the ranks (split_matrix), as a distributed closure's plan
// names them.
std::string split_matrices_line(const ir::Kernel& k, const ir::Module& m) {
  std::string names, sent;
  for (size_t v = 0; v < k.variables.size(); ++v) {
    const ir::Variable& var = k.variables[v];
    if (var.role == ir::VariableRole::temporary || !split_matrix(k, static_cast<int>(v), m)) continue;
    names += (names.empty() ? "" : ", ") + var.name;
    if (var.role == ir::VariableRole::parameter) sent += (sent.empty() ? "" : ", ") + var.name;
  }
  return (names.empty() ? std::string("the closure's matrices") : names) +
         ": split across the ranks (gql::dist::SplitMatrix) in blocks of whole 64-row k-blocks, each rank holding "
         "its own rows only" +
         (sent.empty() ? "" : "; " + sent + " read by rank 0 and sent out in blocks") +
         "; an element store made by the rank holding its row; a returned one gathered on rank 0";
}

void collect(const ir::Module& m, const ir::Kernel& k, const ir::Block& block, std::vector<OpPlan>& out) {
  for (const ir::Stmt& s : block) {
    collect(m, k, s.prelude, out);
    collect(m, k, s.body, out);
    if (s.kind != ir::StmtKind::op) collect(m, k, s.otherwise, out);  // an op's `otherwise` is its fallback loop
    if (s.kind != ir::StmtKind::op) continue;
    const ir::Op& o = s.op;
    OpPlan p;
    p.kernel = k.name;
    const ir::Variable& out_var = k.variables.at(static_cast<size_t>(o.outputs.at(0)));
    p.op = o.label.empty() ? std::string(ir::to_string(o.kind)) + " -> " +
                                 (out_var.role == ir::VariableRole::temporary ? std::string("result") : out_var.name)
                           : "@" + o.label;
    if (o.mask)
      p.lines.push_back(std::string("mask: ") + (o.mask->complement ? "complemented " : "") +
                        (o.mask->value ? "value, " : "structural, ") +
                        k.variables.at(static_cast<size_t>(o.mask->variable)).name + (o.replace ? ", replace" : ", merge"));
    if (distributed(o, k, m)) {
      const bool split_product = o.kind == ir::OpKind::mxm && split_parameter(k, o.inputs.at(0), m);
      p.lines.push_back(distribution_text(o, k, m));
      if (o.kind == ir::OpKind::mxm) {
        const bool on_root = joined_on_root(o, k, m);
        if (split_product)
          p.lines.push_back(on_root ? "gathered on rank 0 only (gql::dist::gathered_on): the product is only "
                                      "returned, and rank 0 writes the results; the other ranks keep its shape "
                                      "without entries"
                                    : "gathered on every rank (gql::dist::gathered): the kernel reads the product");
        else
          p.lines.push_back(on_root ? std::string("joined on rank 0 only (") +
                                          (m.target == ir::Target::cuda ? "joined_on_root" : "gql::dist::mxm_on") +
                                          "): the product is only returned, and rank 0 writes the results; the "
                                          "other ranks keep its shape without entries"
                                    : "joined on every rank: the kernel reads the product");
      }
      for (size_t n = 0; n < o.inputs.size(); ++n) {
        const int input = o.inputs[n];
        const bool seen = std::find(o.inputs.begin(), o.inputs.begin() + static_cast<std::ptrdiff_t>(n), input) !=
                          o.inputs.begin() + static_cast<std::ptrdiff_t>(n);
        if (seen || !split_parameter(k, input, m) || k.variables.at(static_cast<size_t>(input)).type.kind != TypeKind::graph)
          continue;
        p.lines.push_back(k.variables.at(static_cast<size_t>(input)).name +
                          ": split across the ranks (gql::dist::SplitGraph): read by rank 0, sent out in blocks of "
                          "rows of equal edges; each rank holds its own rows only");
      }
      if (o.kind == ir::OpKind::closure && split_matrix(k, o.inputs.at(0), m)) p.lines.push_back(split_matrices_line(k, m));
      if (uploaded_in_parts(k, o.inputs.at(0), m))
        p.lines.push_back(k.variables.at(static_cast<size_t>(o.inputs.at(0))).name +
                          ": uploaded in parts (gql::dist::uploaded_in_parts): on several ranks it stays on the host "
                          "and each rank uploads its own rows when the op runs; on one rank, uploaded whole before "
                          "the runs");
    }
    if (o.kind == ir::OpKind::bfs_levels || o.kind == ir::OpKind::single_source_paths ||
        o.kind == ir::OpKind::component_labels) {
      recognized_lines(o, m, p.lines);
      if (m.target == ir::Target::cuda) p.lines.push_back(placement_line(o, k));
      out.push_back(std::move(p));
      continue;
    }
    fusion_lines(o, k, p.lines);
    for (const ir::Op& product : o.fused_product) {
      semiring_lines(m.semirings.at(static_cast<size_t>(product.semiring)), m.target, true, p.lines);
      traversal_lines(std::get<ir::TraversalSchedule>(product.schedule), p.lines);
    }
    if (o.semiring >= 0)
      semiring_lines(m.semirings.at(static_cast<size_t>(o.semiring)), m.target, !is_dense_product(o, k), p.lines);
    if (is_dense_product(o, k)) {
      dense_product_lines(o, m, k, p.lines);
    } else if (const auto* ps = std::get_if<ir::ProductSchedule>(&o.schedule)) {
      product_lines(*ps, o, m.target, p.lines);
    } else if (const auto* ts = std::get_if<ir::TraversalSchedule>(&o.schedule)) {
      traversal_lines(*ts, p.lines);
      if (m.target == ir::Target::cuda) p.lines.push_back(balance_line(ts->balance));
    }
    if (const auto* cs = std::get_if<ir::ClosureSchedule>(&o.schedule))
      closure_lines(*cs, m.target, o.kind == ir::OpKind::closure_paths, p.lines);
    if (const auto* ls = std::get_if<ir::LuSchedule>(&o.schedule))
      p.lines.push_back("right-looking LU with partial pivoting, panel " + std::to_string(ls->tile) +
                        ", trailing update by " + (ls->gemm == ir::Gemm::vendor ? "vendor BLAS gemm" : "generated gemm"));
    if (m.target == ir::Target::cuda) p.lines.push_back(placement_line(o, k));
    if (p.lines.empty()) continue;  // constructions, copies: nothing to decide
    out.push_back(std::move(p));
  }
}

}  // namespace

std::vector<OpPlan> plan_module(const ir::Module& module) {
  std::vector<OpPlan> out;
  for (const ir::Kernel& k : module.kernels) collect(module, k, k.body, out);
  return out;
}

std::string print_plan(const std::vector<OpPlan>& plans) {
  std::string out;
  for (const OpPlan& p : plans) {
    out += "kernel " + p.kernel + ": " + p.op + "\n";
    for (const auto& line : p.lines) out += "  " + line + "\n";
  }
  return out;
}

}  // namespace gql::compiler::plan
