// Kernels as C++ functions over the runtime's host containers (shared by the OpenMP and CUDA
// targets: they differ in which functions run each op, see Dialect), and main() for AOT programs.
#include "codegen/kernel_emitter.hpp"

#include <algorithm>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>

#include "codegen/cpp_expr.hpp"
#include "codegen/cpp_types.hpp"
#include "codegen/cuda/product_limits.hpp"
#include "codegen/generated_header.hpp"
#include "codegen/semiring_policy.hpp"
#include "gql/compiler/op_table.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/error.hpp"

namespace gql::compiler::codegen {
namespace {

std::string bool_text(bool b) { return b ? "true" : "false"; }

// A runtime struct's value with designated initializers, TYPE{.field = value, ...}: the generated code
// names each field, and the C++ compiler checks the names and their order against the struct.
std::string designated(const std::string& type, std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string out = type + "{";
  const char* separator = ".";
  for (const auto& [field, value] : fields) {
    out += separator + std::string(field) + " = " + value;
    separator = ", .";
  }
  return out + "}";
}

// Emits one kernel function.
class KernelEmitter {
 public:
  KernelEmitter(const ir::Module& module, const ir::Kernel& kernel, const Dialect& dialect)
      : module_(module), kernel_(kernel), dialect_(dialect) {
    names_.variable = [this](int id) { return name(id); };
    names_.parameter = [](int n) { return "p" + std::to_string(n); };
    names_.operand = [](int n) { return std::string(n == 0 ? "a" : "b"); };
    names_.position = [](int n) { return std::string(n == 0 ? "i" : n == 1 ? "k" : "j"); };
    std::map<std::string, int> uses;
    name_ops(kernel_.body, uses);
  }

  std::string emit() {
    if (!dialect_.resident_values) return signature(kernel_.name, false) + " {\n" + body() + "}\n";
    // The body over Residents, then the host-signature wrapper: it borrows the arguments where the
    // caller keeps them and brings the result to the host.
    // Every op of the call runs on the call's stream (gql::CallStream, gql/device.hpp).
    std::string out = "namespace resident {\n" + signature(kernel_.name, true) + " {\n" +
                      "  const gql::CallStream call_stream(ctx);\n  const gql::Stream stream = call_stream.stream();\n" +
                      body() + "}\n}  // namespace resident\n";
    out += signature(kernel_.name, false) + " {\n  const gql::CallStream call_stream(ctx);\n";
    std::string args;
    for (int id : kernel_.parameters) {
      if (variable(id).type.is_scalar()) {
        args += name(id) + ", ";
        continue;
      }
      out += "  auto a" + name(id) + " = " + value_type(variable(id).type) + "::borrow(" + name(id) + ");\n";
      args += "a" + name(id) + ", ";
    }
    out += "  return gql::gpu::take_host(resident::" + kernel_.name + "(" + args + "ctx), call_stream.stream());\n}\n";
    return out;
  }

 private:
  // `RESULT NAME(PARAMS..., gql::KernelContext& ctx)`: over host containers, or Residents.
  std::string signature(const std::string& function, bool resident) const {
    std::string out = (resident ? resident_result_type() : result_type(kernel_.results)) + " " + function + "(";
    for (int id : kernel_.parameters) {
      const ir::Variable& v = kernel_.variables.at(static_cast<size_t>(id));
      const bool as_resident = resident && !v.type.is_scalar() && !plan::split_parameter(kernel_, id, module_);
      out += (as_resident ? value_type(v.type) + "& " : host_parameter_type(kernel_, id, module_)) + name(id) + ", ";
    }
    return out + "gql::KernelContext& ctx)";
  }

  std::string body() {
    std::string out;
    block(kernel_.body, 1, out);
    return out;
  }

  // A variable's C++ type in the kernel body: the container, or its Resident.
  std::string value_type(const Type& t) const {
    if (!dialect_.resident_values || t.is_scalar()) return container_type(t);
    return "gql::gpu::Resident<" + container_type(t) + ">";
  }
  std::string resident_result_type() const {
    if (kernel_.results.size() == 1) return value_type(kernel_.results[0]);
    std::string out = "std::tuple<";
    for (size_t n = 0; n < kernel_.results.size(); ++n) out += (n ? ", " : "") + value_type(kernel_.results[n]);
    return out + ">";
  }

  std::string name(int id) const {
    const ir::Variable& v = kernel_.variables.at(static_cast<size_t>(id));
    if (v.role == ir::VariableRole::temporary) return "t" + std::to_string(id);
    return "v_" + v.name;
  }
  const ir::Variable& variable(int id) const { return kernel_.variables.at(static_cast<size_t>(id)); }
  bool is_parameter(int id) const { return variable(id).role == ir::VariableRole::parameter; }
  std::string expr(const ir::Expr& e) const { return emit_expr(e, names_); }

  void block(const ir::Block& stmts, int depth, std::string& out) {
    for (const ir::Stmt& s : stmts) stmt(s, depth, out);
  }

  void stmt(const ir::Stmt& s, int depth, std::string& out) {
    const std::string pad(static_cast<size_t>(depth) * 2, ' ');
    switch (s.kind) {
      case ir::StmtKind::declare: {
        const ir::Variable& v = variable(s.variable);
        out += pad + (plan::split_matrix(kernel_, s.variable, module_) ? split_type(v.type) : value_type(v.type)) + " " +
               name(s.variable);
        if (s.value) out += " = " + expr(*s.value);
        else if (v.type.is_scalar()) out += "{}";
        out += ";\n";
        return;
      }
      case ir::StmtKind::assign:
        out += pad + name(s.variable) + " = " + expr(*s.value) + ";\n";
        return;
      case ir::StmtKind::op:
        if (s.op.kind == ir::OpKind::single_source_paths) single_source_paths(s, pad, out, depth);
        else if (s.op.kind == ir::OpKind::component_labels) component_labels(s, pad, out, depth);
        else op(s.op, pad, out);
        return;
      case ir::StmtKind::while_:
        out += pad + "while (true) {\n";
        block(s.prelude, depth + 1, out);
        out += pad + "  if (!(" + expr(*s.condition) + ")) break;\n";
        block(s.body, depth + 1, out);
        out += pad + "}\n";
        return;
      case ir::StmtKind::if_:
        out += pad + "if (" + expr(*s.condition) + ") {\n";
        block(s.body, depth + 1, out);
        if (!s.otherwise.empty()) {
          out += pad + "} else {\n";
          block(s.otherwise, depth + 1, out);
        }
        out += pad + "}\n";
        return;
      case ir::StmtKind::require_:
        out += pad + "if (!(" + expr(*s.condition) + "))\n";
        out += pad + "  throw gql::Error(gql::ErrorKind::requirement, " + cpp_string_literal(s.message) +
               ", gql::Location{" + cpp_string_literal(s.where.file) + ", " + std::to_string(s.where.line) + ", " +
               std::to_string(s.where.column) + "});\n";
        return;
      case ir::StmtKind::return_: {
        auto value = [&](int id) {
          // Parameters are borrowed: a returned parameter is copied; locals are moved out.
          const Type& t = variable(id).type;
          if (t.is_scalar()) return name(id);
          // A matrix held split across the ranks is gathered on rank 0, which writes the results.
          if (plan::split_matrix(kernel_, id, module_))
            return "gql::dist::gathered_on(gql::dist::program_world(), " + name(id) + ")";
          if (!is_parameter(id)) return "std::move(" + name(id) + ")";
          if (dialect_.resident_values) return value_type(t) + "(" + name(id) + ".host(stream).clone())";
          return name(id) + ".clone()";
        };
        if (s.results.size() == 1) {
          out += pad + "return " + value(s.results[0]) + ";\n";
        } else {
          out += pad + "return " + (dialect_.resident_values ? resident_result_type() : result_type(kernel_.results)) + "(";
          for (size_t n = 0; n < s.results.size(); ++n) out += (n ? ", " : "") + value(s.results[n]);
          out += ");\n";
        }
        return;
      }
    }
  }

  // The namespace (with "::") of the function that runs op `o` on this target.
  bool on_device(const ir::Op& o) const {
    return plan::placement(o, kernel_, dialect_.target) != plan::Placement::host;
  }
  std::string ns(const ir::Op& o) const { return on_device(o) ? "gql::gpu::" : "gql::cpu::"; }

  // An op's mask: an op on the device reads a vector's or a graph's mask there; every other op reads
  // it on the host. A value mask reads the mask's values too (value_mask).
  std::string mask(const ir::Op& o) const {
    if (!o.mask) return ns(o) + "no_mask()";
    const TypeKind kind = variable(o.mask->variable).type.kind;
    const std::string function = o.mask->value ? "value_mask(" : "mask(";
    const std::string complement = ", " + bool_text(o.mask->complement) + ")";
    if (takes_residents(o) && (kind == TypeKind::vector || kind == TypeKind::graph))
      return std::string(kind == TypeKind::vector ? "gql::gpu::vector_" : "gql::gpu::graph_") + function +
             name(o.mask->variable) + complement;
    return ns(o) + function + read_on_host(o.mask->variable) + complement;
  }

  // With resident values: the ops placed on the device take Residents and read them there; every
  // other op reads and writes host containers (the Resident copies them to the host when they are
  // not there).
  bool takes_residents(const ir::Op& o) const {
    return dialect_.resident_values && plan::placement(o, kernel_, module_.target) == plan::Placement::device;
  }
  // A vector op on the device (gql/device/values/vector_ops.hpp) takes the kernel's stream last.
  std::string stream_argument(const ir::Op& o) const {
    return plan::is_value_op_on_device(o, kernel_, module_.target) ? ", stream" : "";
  }
  std::string read_on_host(int id) const { return dialect_.resident_values ? name(id) + ".host(stream)" : name(id); }
  std::string write_on_host(int id) const {
    return dialect_.resident_values ? name(id) + ".host_for_write(stream)" : name(id);
  }
  std::string operand(const ir::Op& o, int id) const { return takes_residents(o) ? name(id) : read_on_host(id); }
  std::string output(const ir::Op& o, int id) const { return takes_residents(o) ? name(id) : write_on_host(id); }

  // A lambda for an element-wise function: parameters p0 (p1) of the given types.
  std::string element_lambda(const ir::ElementFunction& f) const {
    std::string out = dialect_.device_lambdas ? "[] GQL_LAMBDA_HD (" : "[](";
    for (size_t n = 0; n < f.parameter_types.size(); ++n)
      out += (n ? ", " : "") + cpp_scalar_type(f.parameter_types[n]) + " p" + std::to_string(n);
    out += ") { return " + cpp_scalar_type(f.result) + "(" + expr(f.body) + "); }";
    return out;
  }

  // How an element-wise op reads input n (gql/cpu/elementwise.hpp): through the applies folded into
  // it (plan/fuse_elementwise.cpp), innermost first, or as stored.
  std::string input_reader(const ir::Op& o, size_t n) const {
    std::string reader = "gql::cpu::ReadStored<" + cpp_scalar_type(variable(o.inputs.at(n)).type.element) + ">{}";
    if (o.folded.empty()) return reader;
    for (const ir::FoldedApply& a : o.folded.at(n))
      reader = "gql::cpu::read_applied<" + cpp_scalar_type(a.stored) + ">(" + element_lambda(a.function) + ", " +
               reader + ")";
    return reader;
  }
  std::string input_readers(const ir::Op& o) const {
    if (o.folded.empty()) return "";
    std::string out;
    for (size_t n = 0; n < o.inputs.size(); ++n) out += ", " + input_reader(o, n);
    return out;
  }

  // union(d, v * G) with the vxm fused in: the runtime's union_vxm, the product's operands and options.
  std::string fused_union(const ir::Op& o, const std::string& common) const {
    const ir::Op& product = o.fused_product.at(0);
    const size_t at = o.inputs.at(0) == product.outputs.at(0) ? 0 : 1;
    return "gql::cpu::union_vxm<" + semiring(product) + ", " + bool_text(at == 0) + ">(" + common + ", " +
           operand(o, o.inputs.at(1 - at)) + ", " + operand(product, product.inputs.at(0)) + ", " +
           operand(product, product.inputs.at(1)) + ", " + traversal_options(product) + ", ctx, " +
           element_lambda(*o.function) + ", " + input_reader(o, 1 - at) + ", " + input_reader(o, at) +
           pull_over_ranks(o) + ");\n";
  }

  // A distributed vxm's or mxv's last argument: its pull steps' columns divided among the ranks.
  std::string pull_over_ranks(const ir::Op& o) const {
    return plan::distributed(o, kernel_, module_) ? ", gql::dist::PullOverRanks(gql::dist::program_world())" : "";
  }

  const std::string& semiring(const ir::Op& o) const {
    return module_.semirings.at(static_cast<size_t>(o.semiring)).name;
  }

  std::string product_options(const ir::Op& o) const {
    const auto& p = std::get<ir::ProductSchedule>(o.schedule);
    const char* masked = p.masked == ir::MaskedMethod::saxpy ? "saxpy"
                         : p.masked == ir::MaskedMethod::dot ? "dot"
                                                             : "automatic";
    if (on_device(o)) {
      const cuda::ProductLimits limits = cuda_product_limits(p);
      return designated(ns(o) + "ProductOptions", {{"large_row_products", std::to_string(limits.large)},
                                                   {"medium_row_products_min", std::to_string(limits.medium)},
                                                   {"sorted_chunk_items", std::to_string(limits.sort_chunk)},
                                                   {"block", std::to_string(p.block)},
                                                   {"label", quoted_label(o)},
                                                   {"masked", ns(o) + "MaskedMethod::" + masked}});
    }
    const char* acc = p.accumulator == ir::Accumulator::dense  ? "dense"
                      : p.accumulator == ir::Accumulator::hash ? "hash"
                                                               : "automatic";
    return designated(ns(o) + "ProductOptions", {{"accumulator", ns(o) + "Accumulator::" + acc},
                                                 {"threads", std::to_string(p.threads)},
                                                 {"label", quoted_label(o)},
                                                 {"masked", ns(o) + "MaskedMethod::" + masked}});
  }

  std::string traversal_options(const ir::Op& o) const {
    const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
    const char* dir = t.direction == ir::Direction::push ? "push" : t.direction == ir::Direction::pull ? "pull" : "automatic";
    const std::string common = designated(on_device(o) ? "gql::common::TraversalOptions" : ns(o) + "TraversalOptions",
                                          {{"direction", ns(o) + "Direction::" + dir},
                                           {"alpha", std::to_string(t.alpha)},
                                           {"beta", std::to_string(t.beta)},
                                           {"threads", std::to_string(t.threads)},
                                           {"label", quoted_label(o)}});
    if (!on_device(o)) return common;
    // The GPU's options add the push's load balance (a member of the derived struct, after its base).
    return ns(o) + "TraversalOptions{" + common + ", " + ns(o) + "LoadBalance::" + balance_name(t.balance) + "}";
  }

  // The GPU traversal's schedule of a recognized BFS loop: kernel, load balance, frontier format.
  static std::string bfs_schedule(const ir::TraversalSchedule& t) {
    const std::string n = "gql::gpu::";
    const char* format = t.frontier == ir::FrontierFormat::sparse  ? "sparse"
                         : t.frontier == ir::FrontierFormat::dense ? "bitmap"
                                                                   : "automatic";
    return designated(n + "BfsSchedule",
                      {{"kernel", n + "BfsKernel::" + (t.method == ir::TraversalMethod::edge_centric ? "edge_centric" : "frontier")},
                       {"balance", n + "LoadBalance::" + balance_name(t.balance)},
                       {"frontier", n + "FrontierFormat::" + format}});
  }

  std::string closure_options(const ir::Op& o) const {
    const auto& c = std::get<ir::ClosureSchedule>(o.schedule);
    if (on_device(o)) {  // the GPU's schedule: design, k-block and streaming
      const char* ooc = c.out_of_core == ir::Toggle::on ? "on" : c.out_of_core == ir::Toggle::off ? "off" : "automatic";
      return designated(ns(o) + "ClosureSchedule",
                        {{"tile", std::to_string(c.tile)},
                         {"register_tile", designated("", {{"rows", std::to_string(c.register_rows)},
                                                           {"cols", std::to_string(c.register_cols)}})},
                         {"per_thread", std::to_string(c.per_thread)},
                         {"spread", bool_text(c.spread)},
                         {"out_of_core", ns(o) + "OutOfCore::" + ooc},
                         {"streams", std::to_string(c.streams)},
                         {"label", quoted_label(o)}});
    }
    const char* variant = c.parallelism == ir::ClosureParallelism::tasks          ? "tasks"
                          : c.parallelism == ir::ClosureParallelism::parallel_for ? "parallel_for"
                                                                                  : "recursive";
    return designated(ns(o) + "ClosureSchedule", {{"tile", std::to_string(c.tile)},
                                                  {"variant", ns(o) + "ClosureVariant::" + variant},
                                                  {"recursive_base", std::to_string(c.recursive_base)},
                                                  {"threads", std::to_string(c.threads)},
                                                  {"label", quoted_label(o)}});
  }

  std::string lu_options(const ir::Op& o) const {
    const auto& l = std::get<ir::LuSchedule>(o.schedule);
    return designated(ns(o) + "LuOptions", {{"tile", std::to_string(l.tile)},
                                            {"vendor_gemm", bool_text(l.gemm == ir::Gemm::vendor)},
                                            {"threads", std::to_string(l.threads)},
                                            {"label", quoted_label(o)}});
  }

  // How --explain names an op: "KERNEL @label", or "KERNEL: mxm -> C" (temporaries: "result"); the
  // runtime also keys an op's state by it, so ops that would share a name get " (2)", " (3)", ... in
  // the order they appear.
  std::string label(const ir::Op& o) const { return labels_.at(&o); }
  std::string quoted_label(const ir::Op& o) const { return "\"" + label(o) + "\""; }

  std::string base_label(const ir::Op& o) const {
    if (!o.label.empty()) return kernel_.name + " @" + o.label;
    const ir::Variable& out = variable(o.outputs.at(0));
    return kernel_.name + ": " + ir::to_string(o.kind) + " -> " +
           (out.role == ir::VariableRole::temporary ? std::string("result") : out.name);
  }

  void name_ops(const ir::Block& stmts, std::map<std::string, int>& uses) {
    const auto name_op = [&](const ir::Op& o) {
      const std::string base = base_label(o);
      const int n = ++uses[base];
      labels_[&o] = n == 1 ? base : base + " (" + std::to_string(n) + ")";
    };
    ir::for_each_stmt(stmts, [&](const ir::Stmt& s) {
      if (s.kind != ir::StmtKind::op || s.op.outputs.empty()) return;
      for (const ir::Op& fused : s.op.fused_product) name_op(fused);  // it ran before its reader
      name_op(s.op);
    });
  }

  // A recognized traversal's schedule as --explain says it: direction and frontier, and on the GPU
  // the method and the push's load balance.
  std::string traversal_schedule_text(const ir::Op& o) const {
    const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
    std::string text = "direction ";
    if (t.direction == ir::Direction::auto_) text += "auto(alpha=" + number_text(t.alpha) + ", beta=" + number_text(t.beta) + ")";
    else text += t.direction == ir::Direction::push ? "push" : "pull";
    text += std::string(", frontier ") + (t.frontier == ir::FrontierFormat::sparse  ? "sparse"
                                          : t.frontier == ir::FrontierFormat::dense ? "bitmap"
                                                                                    : "auto");
    if (!on_device(o)) return text;
    const char* method = t.method == ir::TraversalMethod::edge_centric     ? "edge_centric"
                         : t.method == ir::TraversalMethod::delta_stepping ? "delta_stepping"
                                                                           : "frontier";
    return text + ", method " + method + ", balance " + balance_name(t.balance);
  }

  static std::string number_text(double x) {
    std::string s = std::to_string(x);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  }

  // A recognized BFS loop: one call of the runtime's traversal, its counters and --explain line.
  void bfs_levels(const ir::Op& o, const std::string& pad, std::string& out) const {
    const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
    const std::string n = ns(o), G = name(o.inputs.at(0));
    const char* dir = t.direction == ir::Direction::push ? "push" : t.direction == ir::Direction::pull ? "pull" : "automatic";
    out += pad + "{  // " + label(o) + ": the BFS-levels loop as one traversal\n";
    if (t.threads > 0) out += pad + "  gql::cpu::ThreadScope threads(" + std::to_string(t.threads) + ");\n";
    // Pull steps read in-edges: the transpose (the graph itself when it is symmetric, else made once
    // per graph value), which push-only searches do without.
    const std::string source = "static_cast<int64_t>(" + expr(o.shape.at(0)) + ")";
    const std::string direction = designated(n + "DirectionOptions", {{"direction", n + "Direction::" + dir},
                                                                      {"alpha", std::to_string(t.alpha)},
                                                                      {"beta", std::to_string(t.beta)}});
    if (dialect_.resident_values) {
      // The GPU's search reads the graph (and its transpose) on the device and leaves the levels there;
      // over the ranks' GPUs, each rank's rows on its GPU.
      const std::string call = plan::distributed(o, kernel_, module_)
                                   ? "gql::dist::bfs_levels(gql::dist::program_devices(), "
                                   : n + "bfs_levels(";
      out += pad + "  " + n + "TraversalStats stats;\n";
      out += pad + "  " + call + name(o.outputs.at(0)) + ", " + G + ", " + source + ", " + direction +
             ", /*reads_transpose=*/" + bool_text(t.direction != ir::Direction::push) + ", &stats, " + bfs_schedule(t) +
             ", ctx);\n";
    } else if (plan::distributed(o, kernel_, module_)) {
      // Over the ranks of the program's run, pushing and pulling as the one-process search chooses.
      out += pad + "  " + n + "TraversalStats stats;\n";
      out += pad + "  " + name(o.outputs.at(0)) + " = gql::dist::bfs_levels(gql::dist::program_world(), " + G + ", " +
             source + ", &stats, " + direction + ");\n";
    } else {
      std::string transposed = G;
      if (t.direction != ir::Direction::push) {
        out += pad + "  const auto& transposed = gql::cpu::transpose_of(" + G + ");\n";
        transposed = "transposed";
      }
      out += pad + "  " + n + "TraversalStats stats;\n";
      out += pad + "  " + name(o.outputs.at(0)) + " = " + n + "bfs_levels(" + G + ", " + transposed + ", " + source +
             ", " + direction + ", &stats);\n";
    }
    out += pad + "  ctx.work().edges += stats.edges_examined;\n";
    out += pad + "  ctx.work().searched_edges += stats.searched_edges;\n";
    out += pad + "  ctx.explain(\"" + label(o) + "\", std::string(\"bfs levels (" + traversal_schedule_text(o) +
           "), \") + std::to_string(stats.levels) + " +
           "\" levels (\" + std::to_string(stats.pull_steps) + \" pulled), \" + std::to_string(stats.edges_examined) + " +
           "\" edges examined\");\n";
    out += pad + "}\n";
  }

  // A recognized Bellman-Ford loop: the runtime's traversal, kept when it provably computed what
  // the loop computes (the traversal says so, on the host as cpu::paths_are_exact would); otherwise,
  // or when it fails, the loop as written.
  void single_source_paths(const ir::Stmt& s, const std::string& pad, std::string& out, int depth) {
    const ir::Op& o = s.op;
    const std::string n = ns(o), target = name(o.outputs.at(0));
    const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
    const std::string source = "static_cast<int64_t>(" + expr(o.shape.at(0)) + "), " + expr(*o.value) + ", &stats";
    out += pad + "{  // " + label(o) + ": the Bellman-Ford loop as one traversal\n";
    if (t.threads > 0) out += pad + "  gql::cpu::ThreadScope threads(" + std::to_string(t.threads) + ");\n";
    out += pad + "  " + n + "TraversalStats stats;\n";
    out += pad + "  bool exact = false;\n";
    if (dialect_.resident_values) {
      // The GPU's search reads the graph on the device and leaves the paths there.
      const std::string schedule = designated(
          n + "SsspSchedule",
          {{"kernel", n + "PathsKernel::" + (t.method == ir::TraversalMethod::delta_stepping ? "delta_stepping" : "bellman_ford")},
           {"delta", std::to_string(t.delta)},
           {"balance", n + "LoadBalance::" + balance_name(t.balance)}});
      out += pad + "  try {\n";
      out += pad + "    exact = " + n + "single_source_paths<" + semiring(o) + ">(" + target + ", " + name(o.inputs.at(0)) +
             ", " + source + ", " + schedule + ", ctx);\n";
    } else {
      const std::string G = name(o.inputs.at(0));
      out += pad + "  std::optional<" + container_type(variable(o.outputs.at(0)).type) + "> paths;\n";
      out += pad + "  try {\n";
      out += pad + "    paths = " + n + "single_source_paths<" + semiring(o) + ">(" + G + ", " + source + ", &exact);\n";
    }
    out += pad + "  } catch (const gql::Error&) {\n";  // e.g. device memory: the loop decides
    out += pad + "  }\n";
    if (dialect_.resident_values) {
      out += pad + "  if (exact) {\n";
    } else {
      out += pad + "  if (paths && exact) {\n";
      out += pad + "    " + target + " = std::move(*paths);\n";
    }
    out += pad + "    ctx.work().edges += stats.edges_examined;\n";
    out += pad + "    ctx.explain(\"" + label(o) + "\", std::string(\"single-source paths (" +
           traversal_schedule_text(o) +
           "), \") + std::to_string(stats.levels) + " +
           "\" rounds, \" + std::to_string(stats.edges_examined) + \" edges examined\");\n";
    out += pad + "  } else {\n";
    out += pad + "    ctx.explain(\"" + label(o) +
           "\", \"the traversal cannot reproduce the loop here; the loop runs as written\");\n";
    block(s.otherwise, depth + 2, out);
    out += pad + "  }\n";
    out += pad + "}\n";
  }

  // A recognized label-propagation loop: the runtime's union-find components, or the loop as written
  // where the runtime cannot show that they give the loop's result (see cpu::component_labels).
  void component_labels(const ir::Stmt& s, const std::string& pad, std::string& out, int depth) {
    const ir::Op& o = s.op;
    const auto& t = std::get<ir::TraversalSchedule>(o.schedule);
    const std::string n = ns(o);
    out += pad + "{  // " + label(o) + ": the label-propagation loop as one op\n";
    if (t.threads > 0) out += pad + "  gql::cpu::ThreadScope threads(" + std::to_string(t.threads) + ");\n";
    out += pad + "  " + n + "TraversalStats stats;\n";
    out += pad + "  if (" + n + "component_labels(" + name(o.inputs.at(0)) + ", " + name(o.outputs.at(0)) + ", &stats" +
           (dialect_.resident_values ? ", ctx" : "") + ")) {\n";
    out += pad + "    ctx.work().edges += stats.edges_examined;\n";
    out += pad + "    ctx.explain(\"" + label(o) +
           "\", \"components by union-find, \" + std::to_string(stats.edges_examined) + \" edges linked\");\n";
    out += pad + "  } else {\n";
    out += pad + "    ctx.explain(\"" + label(o) +
           "\", \"the graph's structure is not symmetric or the labels do not start at its vertices with edges; the "
           "loop runs as written\");\n";
    block(s.otherwise, depth + 2, out);
    out += pad + "  }\n";
    out += pad + "}\n";
  }

  // A product, closure or LU over the ranks of the program's run (plan::distributed): every rank ends
  // with the whole result, or rank 0 alone with a product that only the kernel's result reads.
  void distributed_op(const ir::Op& o, const std::string& pad, std::string& out) const {
    const std::string target = name(o.outputs.at(0)), world = "gql::dist::program_world()";
    if (o.kind == ir::OpKind::mxm && module_.target == ir::Target::cuda) {  // over the ranks' GPUs, unmasked
      out += pad + "gql::dist::mxm<" + semiring(o) + ">(gql::dist::program_devices(), " + output(o, o.outputs[0]) +
             ", " + operand(o, o.inputs.at(0)) + ", " + operand(o, o.inputs.at(1)) + ", " + product_options(o) +
             ", ctx, /*joined_on_root=*/" + bool_text(plan::joined_on_root(o, kernel_, module_)) + ");\n";
      return;
    }
    if (o.kind == ir::OpKind::mxm) {  // the product through the mask, then written as one process writes it
      out += pad + "{\n" + pad + "  const gql::cpu::MatrixMask mask = gql::cpu::as_matrix_mask(" + mask(o) + ");\n";
      const bool on_root = plan::joined_on_root(o, kernel_, module_);
      const std::string A = name(o.inputs.at(0)), B = name(o.inputs.at(1));
      std::string product;
      if (plan::split_parameter(kernel_, o.inputs.at(0), module_)) {
        // A split (and B split or whole, plan::split_parameter): the product comes split by A's rows,
        // then gathered where the plan joins it.
        const std::string split = "gql::dist::mxm<" + semiring(o) + ">(" + world + ", " + A + ", " + B + ", " +
                                  product_options(o) + ", &ctx)";
        product = on_root ? "gql::dist::gathered_on(" + world + ", " + split + ", 0)"
                          : "gql::dist::gathered(" + world + ", " + split + ")";
      } else {
        // Joined on rank 0 only when nothing but the kernel's result reads it (plan::joined_on_root).
        product = (on_root ? "gql::dist::mxm_on<" + semiring(o) + ">(" + world + ", 0, "
                           : "gql::dist::mxm<" + semiring(o) + ">(" + world + ", ") +
                  A + ", " + B + ", mask, " + product_options(o) + ", &ctx)";
      }
      out += pad + "  gql::cpu::assign_result(" + target + ", " + product + ", mask, " + bool_text(o.replace) +
             ", /*within_mask=*/true);\n" + pad + "}\n";
      return;
    }
    if (o.kind == ir::OpKind::lu) {  // the factors and pivots on every rank (on its device: CUDA)
      out += pad + "gql::dist::lu(" + (module_.target == ir::Target::cuda ? "gql::dist::program_devices()" : world) + ", " + target + ", " + output(o, o.outputs.at(1)) + ", " +
             operand(o, o.inputs.at(0)) + ", " + lu_options(o) + ", ctx);\n";
      return;
    }
    if (module_.target == ir::Target::cuda) {  // over the ranks' GPUs, the result on every rank's device
      out += pad + "gql::dist::closure<" + semiring(o) + ">(gql::dist::program_devices(), " + output(o, o.outputs[0]) +
             ", " + operand(o, o.inputs.at(0)) + ", " + closure_options(o) + ", ctx);\n";
      return;
    }
    out += pad + target + " = " + name(o.inputs.at(0)) + ".clone();\n";
    out += pad + "gql::dist::closure<" + semiring(o) + ">(" + world + ", " + target + ", " + closure_options(o) +
           ", ctx);\n";
  }

  // A copy into, or an element store of, a matrix held split across the ranks (plan::split_matrix):
  // each rank copies its rows; the rank holding the row stores.
  void split_matrix_op(const ir::Op& o, const std::string& pad, std::string& out) const {
    const std::string target = name(o.outputs.at(0));
    if (o.kind == ir::OpKind::copy) {
      out += pad + "gql::dist::assign(" + target + ", " + name(o.inputs.at(0)) + ");\n";
      return;
    }
    if (o.kind != ir::OpKind::set_element)
      throw Error(ErrorKind::internal, "codegen: no op of this kind on a split matrix");
    std::string idx;
    for (const ir::Expr& e : o.shape) idx += ", " + expr(e);
    out += pad + "gql::dist::set_element(" + target + idx + ", " + expr(*o.value) + ");\n";
  }

  void op(const ir::Op& o, const std::string& pad, std::string& out) const {
    auto in = [&](size_t n) { return operand(o, o.inputs.at(n)); };
    const std::string target = o.outputs.empty() ? "" : output(o, o.outputs[0]);
    const std::string common = target + ", " + mask(o) + ", " + bool_text(o.replace);
    if (plan::distributed(o, kernel_, module_) &&
        (o.kind == ir::OpKind::mxm || o.kind == ir::OpKind::closure || o.kind == ir::OpKind::lu)) {
      distributed_op(o, pad, out);
      return;
    }
    if (!o.outputs.empty() && plan::split_matrix(kernel_, o.outputs[0], module_)) {
      split_matrix_op(o, pad, out);
      return;
    }
    // An op of a generic form is written from its row of the op table alone.
    const ir::OpInfo& info = ir::op_info(o.kind);
    const std::string function = ns(o) + info.function();  // gql::cpu::NAME or gql::gpu::NAME
    const std::string call = function + "(" + common + ", ";
    switch (info.form) {
      case ir::OpForm::structural:
        out += pad + call + in(0) + (*info.offset ? ", " + expr(*o.value) : "") + stream_argument(o) + ");\n";
        return;
      case ir::OpForm::map:
        out += pad + call + in(0) + ", " + element_lambda(*o.function) + input_readers(o) + stream_argument(o) + ");\n";
        return;
      case ir::OpForm::combine:
        if (!o.fused_product.empty()) {
          out += pad + fused_union(o, common);
          return;
        }
        out += pad + call + in(0) + ", " + in(1) + ", " + element_lambda(*o.function) + input_readers(o) +
               stream_argument(o) + ");\n";
        return;
      case ir::OpForm::special:
        break;
    }
    switch (o.kind) {
      case ir::OpKind::construct: {
        const Type& t = variable(o.outputs[0]).type;
        std::string args;
        for (size_t n = 0; n < o.shape.size(); ++n) args += (n ? ", " : "") + expr(o.shape[n]);
        std::string value;
        if (o.dense && t.kind == TypeKind::vector) value = container_type(t) + "::dense(" + args + ", " + expr(*o.value) + ")";
        else if (o.dense) value = container_type(t) + "(" + args + ", " + expr(*o.value) + ")";
        else value = container_type(t) + "(" + args + ")";
        const std::string made = name(o.outputs[0]);
        if (takes_residents(o)) {  // made on the device (a vector or matrix: on the host in a build without nvcc)
          const std::string e = cpp_scalar_type(t.element);
          const std::string fill = o.dense ? ", " + expr(*o.value) : "";
          value = t.kind == TypeKind::graph    ? "gql::gpu::empty_graph<" + e + ">(" + args + ", stream)"
                  : t.kind == TypeKind::matrix ? "gql::gpu::filled_matrix_of<" + e + ">(" + args + fill + ", stream)"
                  : o.dense                    ? "gql::gpu::filled_vector_of<" + e + ">(" + args + fill + ", stream)"
                                               : "gql::gpu::empty_vector<" + e + ">(" + args + ")";
          out += pad + made + " = " + value_type(t) + "(" + value + ");\n";
          return;
        }
        out += pad + (dialect_.resident_values ? made + ".set_host(" + value + ")" : made + " = " + value) + ";\n";
        return;
      }
      case ir::OpKind::copy:
        out += pad + call + in(0) + stream_argument(o) + ");\n";
        return;
      case ir::OpKind::mxm:
        out += pad + function + "<" + semiring(o) + ">(" + common + ", " + in(0) + ", " + in(1) + ", " +
               product_options(o) + ", ctx);\n";
        return;
      case ir::OpKind::vxm:
      case ir::OpKind::mxv:
        out += pad + function + "<" + semiring(o) + ">(" + common + ", " + in(0) + ", " +
               in(1) + ", " + traversal_options(o) + ", ctx" + pull_over_ranks(o) + ");\n";
        return;
      case ir::OpKind::reduce:
        out += pad + name(o.outputs[0]) + " = " + function + "<" + monoid_enumerator(o.monoid) + ", " +
               cpp_scalar_type(variable(o.outputs[0]).type.element) + ">(" + in(0) + stream_argument(o) + ");\n";
        return;
      case ir::OpKind::assign_scalar:
        out += pad + call + expr(*o.value) + stream_argument(o) + ");\n";
        return;
      case ir::OpKind::set_element: {
        std::string idx;
        for (const ir::Expr& e : o.shape) idx += ", " + expr(e);
        out += pad + function + "(" + target + idx + ", " + expr(*o.value) + stream_argument(o) + ");\n";
        return;
      }
      case ir::OpKind::element: {
        std::string idx;
        for (const ir::Expr& e : o.shape) idx += ", " + expr(e);
        out += pad + name(o.outputs[0]) + " = " + function + "(" + operand(o, o.inputs.at(0)) + idx +
               ", gql::Location{" + cpp_string_literal(o.where.file) + ", " + std::to_string(o.where.line) + ", " +
               std::to_string(o.where.column) + "}" + stream_argument(o) + ");\n";
        return;
      }
      case ir::OpKind::closure:
        out += pad + function + "<" + semiring(o) + ">(" + target + ", " + in(0) + ", " + closure_options(o) +
               ", ctx);\n";
        return;
      case ir::OpKind::closure_paths:
        out += pad + function + "<" + semiring(o) + ">(" + target + ", " + output(o, o.outputs.at(1)) + ", " +
               in(0) + ", " + closure_options(o) + ", ctx);\n";
        return;
      case ir::OpKind::lu:
        out += pad + function + "(" + target + ", " + output(o, o.outputs.at(1)) + ", " + in(0) + ", " + lu_options(o) +
               ", ctx);\n";
        return;
      case ir::OpKind::densify:
        out += pad + function + "(" + target + ", " + in(0) + ", " + expr(*o.value) + stream_argument(o) + ");\n";
        return;
      case ir::OpKind::bfs_levels:
        bfs_levels(o, pad, out);
        return;
      default:
        break;  // single_source_paths, component_labels: a statement with its fallback loop (see stmt())
    }
    throw Error(ErrorKind::internal, "codegen: unknown op kind");
  }

  const ir::Module& module_;
  const ir::Kernel& kernel_;
  const Dialect& dialect_;
  ExprNames names_;
  std::map<const ir::Op*, std::string> labels_;  // every op's label (name_ops)
};

std::string param_kind(const Type& t) {
  switch (t.kind) {
    case TypeKind::graph: return "gql::ParamKind::graph";
    case TypeKind::matrix: return "gql::ParamKind::matrix";
    case TypeKind::vector: return "gql::ParamKind::vector";
    default: return t.element == Scalar::vertex ? "gql::ParamKind::vertex" : "gql::ParamKind::scalar";
  }
}

// main(): one KernelEntry per kernel; its run function loads each argument once (a CUDA program
// then starts the device and uploads them) and calls the kernel once per run.
}  // namespace

std::string emit_main(const ir::Module& module) {
  const bool cuda = module.target == ir::Target::cuda;
  std::string out = "int main(int argc, char** argv) {\n";
  // Several processes: the ranks of the run, before the arguments are read (MPI may take some).
  if (module.distributed) out += "  const gql::dist::ProgramWorld ranks(&argc, &argv);\n";
  // Each rank's GPU, taken before the device starts.
  if (module.distributed && cuda) {
    // Before the device starts: the kernels load as the device start would load them.
    const bool cublas = std::any_of(module.kernels.begin(), module.kernels.end(), plan::calls_cublas);
    out += std::string("  const gql::dist::ProgramDevices devices(gql::DeviceStart::") +
           (cublas ? "with_cublas" : "kernels_loaded") + ");\n";
  }
  out += "  const gql::KernelEntry kernels[] = {\n";
  for (const ir::Kernel& k : module.kernels) {
    std::string params, loads, uploads, args;
    std::string first_graph;  // vertex arguments are checked against its number of rows
    bool first_graph_split = false;
    for (int id : k.parameters) {
      const ir::Variable& v = k.variables.at(static_cast<size_t>(id));
      params += "{\"" + v.name + "\", " + param_kind(v.type) + ", \"" + std::string(to_string(v.type.element)) + "\"}, ";
      const std::string e = cpp_scalar_type(v.type.element);
      const std::string a = "a_" + v.name;
      std::string load;
      const bool split = plan::split_parameter(k, id, module);
      switch (v.type.kind) {
        case TypeKind::graph:
          // A split graph is read by rank 0 and sent out in blocks.
          load = split ? "gql::dist::read_split_graph<" + e + ">(inv, \"" + v.name + "\")"
                       : "inv.graph<" + e + ">(\"" + v.name + "\")";
          break;
        case TypeKind::matrix:
          // So is a split matrix.
          load = split ? "gql::dist::read_split_matrix<" + e + ">(inv, \"" + v.name + "\")"
                       : "inv.matrix<" + e + ">(\"" + v.name + "\")";
          break;
        case TypeKind::vector: load = "inv.vector<" + e + ">(\"" + v.name + "\")"; break;
        default:
          load = v.type.element != Scalar::vertex ? "inv.scalars<" + e + ">(\"" + v.name + "\")"
                 : first_graph_split ? "gql::dist::vertices(inv, \"" + v.name + "\", " + first_graph + ")"
                 : "inv.vertices(\"" + v.name + "\"" + (first_graph.empty() ? "" : ", " + first_graph) + ")";
      }
      loads += "        " + std::string(v.type.is_scalar() ? "const auto " : "auto ") + a + " = " + load + ";\n";
      if (v.type.is_two_dimensional() && first_graph.empty()) {
        first_graph = a;
        first_graph_split = split && v.type.kind == TypeKind::graph;  // a split graph draws roots
      }
      if (v.type.is_scalar()) {
        args += e + "(" + a + "[run.value_index()]), ";
      } else if (cuda) {
        // A value the ops over the ranks' GPUs read in parts stays on the host on several ranks.
        const std::string upload = plan::uploaded_in_parts(k, id, module) ? "gql::dist::uploaded_in_parts(" : "gql::gpu::uploaded(";
        uploads += "        auto r_" + v.name + " = inv.once(gql::Phase::upload, [&] { return " + upload + a + "); });\n";
        args += "r_" + v.name + ", ";
      } else {
        args += a + ", ";
      }
    }
    std::string body;
    if (cuda) {
      // The device starts after the inputs are loaded; the arguments go up once, before the runs.
      body = std::string("        inv.once(gql::Phase::device_start, [] { gql::start_device(gql::DeviceStart::") +
             (plan::calls_cublas(k) ? "with_cublas" : "kernels_loaded") + "); });\n" + uploads;
      body += "        inv.run([&](gql::Run& run) {\n"
              "          return gql::gpu::compute_then_download(run, [&](gql::KernelContext& ctx) { return gqlgen::resident::" +
              k.name + "(" + args + "ctx); });\n        });\n";
    } else {
      body = "        inv.run([&](gql::Run& run) { return gqlgen::" + k.name + "(" + args + "run.context()); });\n";
    }
    out += "    {\"" + k.name + "\", {" + params + "}, \"" +
           (k.results.size() == 1 ? to_string(k.results[0]) : to_string(Type::tuple(k.results))) +
           "\",\n     [](gql::Invocation& inv) {\n" + loads + body + "      }},\n";
  }
  out += "  };\n  return gql::run_program(argc, argv, kernels);\n}\n";
  return out;
}



namespace {

// Whether an op of the module is of one of `kinds`.
bool has_op(const ir::Module& module, std::initializer_list<ir::OpKind> kinds) {
  for (const ir::Kernel& k : module.kernels)
    if (ir::any_op(k.body, [&](const ir::Op& o) { return std::find(kinds.begin(), kinds.end(), o.kind) != kinds.end(); }))
      return true;
  return false;
}

}  // namespace

std::string emit_kernel(const ir::Module& module, const ir::Kernel& kernel, const Dialect& dialect) {
  return KernelEmitter(module, kernel, dialect).emit();
}

std::string emit_program(const ir::Module& module, const std::string& source_name, bool with_main,
                         const Dialect& dialect) {
  std::string out;
  out += generated_header(source_name, " for the " + dialect.target_name + " target");
  out += "#include <cstdint>\n#include <optional>\n#include <tuple>\n#include <type_traits>\n#include <utility>\n#include <vector>\n\n";
  out += "#include <" + dialect.ops_header + ">\n#include <gql/scalar_ops.hpp>\n";
  if (has_op(module, {ir::OpKind::bfs_levels, ir::OpKind::single_source_paths}))
    out += "#include <" + dialect.traversal_header + ">\n";
  if (has_op(module, {ir::OpKind::component_labels})) out += "#include <" + dialect.components_header + ">\n";
  if (module.distributed && module.target == ir::Target::cuda) {
    out += "#include <gql/dist/device_arguments.hpp>\n#include <gql/dist/device_bfs.hpp>\n"
           "#include <gql/dist/device_closure.hpp>\n#include <gql/dist/device_lu.hpp>\n#include <gql/dist/device_mxm.hpp>\n"
           "#include <gql/dist/program.hpp>\n";
  } else if (module.distributed) {
    out += "#include <gql/dist/bfs.hpp>\n#include <gql/dist/closure.hpp>\n#include <gql/dist/lu.hpp>\n#include <gql/dist/mxm.hpp>\n";
    out += "#include <gql/dist/program.hpp>\n#include <gql/dist/split_matrix_ops.hpp>\n#include <gql/dist/vxm.hpp>\n";
  }
  if (with_main)
    out += module.target == ir::Target::cuda ? "#include <gql/device/program_run.hpp>\n" : "#include <gql/program.hpp>\n";
  out += "\nnamespace gqlgen {\n\n";
  for (const ir::Function& f : module.functions) out += emit_function(f) + "\n";
  for (const ir::SemiringInstance& s : module.semirings) out += emit_semiring_policy(s) + "\n";
  for (const ir::Kernel& k : module.kernels) out += emit_kernel(module, k, dialect) + "\n";
  out += "}  // namespace gqlgen\n";
  if (with_main) out += "\n" + emit_main(module);
  return out;
}

}  // namespace gql::compiler::codegen
