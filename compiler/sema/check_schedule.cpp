// Schedules: validates every directive of every target and attaches to each op of the kernel the
// schedule of the selected target, with every default filled in. Defaults (docs/schedules.md):
//   mxm       openmp: threads auto, accumulator auto, masked auto
//             cuda:   rows { large >= 4096: dense; medium >= 2049: hash; small: sort(chunk = 2048) }, block 256,
//                     masked auto
//   vxm, mxv  direction auto(alpha = 15, beta = 18), frontier auto; openmp threads auto; cuda block 256,
//             balance edge
//   closure   openmp: tile 128, tasks, threads auto; cuda: register tiles (per_thread N selects the
//             seed's shared-tile design, tile 64), register_tile 8x8, tile auto (the runtime's
//             k-block by size), out_of_core auto(streams = 3)
//   lu        tile 256 (cuda) / 128 (openmp), gemm vendor; openmp threads auto
//   others    openmp threads auto; cuda block 256
#include <algorithm>
#include <cmath>

#include "gql/closure_variants.hpp"
#include "gql/limits.hpp"
#include "gql/compiler/op_table.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

// "512, 1024, 2048, 4096", or with a last word "32, 64, 128 or 256".
template <class List>
std::string listed(const List& values, const std::string& last_word = "") {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += !last_word.empty() && i + 1 == values.size() ? " " + last_word + " " : ", ";
    out += std::to_string(values[i]);
  }
  return out;
}

// Which directives apply to an op: its tuning in the op table (gql/compiler/ops.def).
using Category = ir::OpTuning;
const char* category_name(Category c) {
  switch (c) {
    case Category::product: return "a matrix product (mxm)";
    case Category::traversal: return "a vector product (vxm/mxv)";
    case Category::closure: return "a closure";
    case Category::lu: return "an lu factorization";
    case Category::elementwise: return "an element-wise operation";
    case Category::none: break;
  }
  return "";
}

// Shared memory one block may use on the H200 (sm_90) after opting in; 48 KB without opt-in.

struct Spec {
  const char* name;
  bool cuda;
  bool openmp;
  std::vector<Category> categories;
};

const std::vector<Spec>& specs() {
  using C = Category;
  static const std::vector<Spec> all = {
      {"threads", false, true, {C::product, C::traversal, C::closure, C::lu, C::elementwise}},
      {"block", true, false, {C::product, C::traversal, C::elementwise}},
      {"rows", true, false, {C::product}},
      {"accumulator", false, true, {C::product}},
      {"masked", true, true, {C::product}},
      {"direction", true, true, {C::traversal}},
      {"frontier", true, true, {C::traversal}},
      {"method", true, false, {C::traversal}},
      {"balance", true, false, {C::traversal}},
      {"tile", true, true, {C::closure, C::lu}},
      {"per_thread", true, false, {C::closure}},
      {"register_tile", true, false, {C::closure}},
      {"out_of_core", true, false, {C::closure}},
      {"tasks", false, true, {C::closure}},
      {"parallel_for", false, true, {C::closure}},
      {"recursive", false, true, {C::closure}},
      {"gemm", true, true, {C::lu}},
  };
  return all;
}

// A validated directive.
struct Setting {
  const ast::Directive* source = nullptr;
  const Spec* spec = nullptr;
  int64_t number = 0;
  bool is_auto = false;
  ir::Accumulator accumulator = ir::Accumulator::auto_;
  ir::MaskedMethod masked = ir::MaskedMethod::auto_;
  std::vector<ir::RowClass> rows;
  ir::Direction direction = ir::Direction::auto_;
  double alpha = 15, beta = 18;
  ir::FrontierFormat frontier = ir::FrontierFormat::auto_;
  ir::TraversalMethod method = ir::TraversalMethod::frontier;
  double delta = 0;
  ir::LoadBalance balance = ir::LoadBalance::edge;
  bool spread = true;
  ir::Toggle toggle = ir::Toggle::auto_;
  int streams = 3;
  int register_rows = 8, register_cols = 8;
  ir::ClosureParallelism parallelism = ir::ClosureParallelism::tasks;
  int base = 0;
  ir::Gemm gemm = ir::Gemm::vendor;
};

bool power_of_two(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

class ScheduleChecker {
 public:
  ScheduleChecker(Analyzer& a, ir::Target target) : a_(a), d_(a.diagnostics_), target_(target) {}

  std::optional<Setting> parse(const ast::Directive& d) {
    const Spec* spec = nullptr;
    std::vector<std::string> names;
    for (const Spec& s : specs()) {
      names.push_back(s.name);
      if (d.name == s.name) spec = &s;
    }
    if (!spec) {
      a_.report_unknown(d.name_span, DiagnosticId::unknown_directive, "schedule directive", d.name, names);
      return std::nullopt;
    }
    bool cuda = target_ == ir::Target::cuda;
    if (cuda ? !spec->cuda : !spec->openmp) {
      d_.error(d.name_span, DiagnosticId::directive_target,
               "directive '" + d.name + "' is not available for target " + ir::to_string(target_));
      return std::nullopt;
    }
    Setting s;
    s.source = &d;
    s.spec = spec;
    if (d.has_block != (d.name == "rows")) {
      d_.error(d.span, DiagnosticId::directive_value,
               d.has_block ? "only 'rows' takes a { ... } block" : "'rows' takes its classes in a { ... } block");
      return std::nullopt;
    }
    const std::string& n = d.name;
    if (n == "rows") return rows(d, s);
    if (n == "tasks" || n == "parallel_for") {
      if (!count(d, 0)) return std::nullopt;
      s.parallelism = n == "tasks" ? ir::ClosureParallelism::tasks : ir::ClosureParallelism::parallel_for;
      return s;
    }
    if (n == "recursive") {  // recursive [BASE] or recursive(base = BASE): halves down to BASE x BASE
      if (!count(d, 0, 1)) return std::nullopt;
      s.parallelism = ir::ClosureParallelism::recursive;
      if (!d.values.empty()) {
        const ast::DirectiveValue* base = &d.values[0];
        if (base->has_arguments && base->ident == "recursive") {
          if (base->arguments.size() != 1 || (base->argument_names[0] != "base" && !base->argument_names[0].empty())) {
            d_.error(base->span, DiagnosticId::directive_value, "recursive takes one argument, base = N");
            return std::nullopt;
          }
          base = &base->arguments[0];
        }
        if (!integer(*base, 8, 4096, "the base of recursive", true)) return std::nullopt;
        s.base = static_cast<int>(base->integer);
      }
      return s;
    }
    if (!count(d, 1, n == "per_thread" ? 2 : 1)) return std::nullopt;
    const ast::DirectiveValue& v = d.values[0];
    if (n == "threads") {
      if (word(v, "auto")) return s.number = 0, s;
      if (!integer(v, 1, gql::max_threads, "threads", false)) return std::nullopt;
      s.number = v.integer;
      return s;
    }
    if (n == "block") {
      if (!integer(v, 32, 1024, "block", true)) return std::nullopt;
      s.number = v.integer;
      return s;
    }
    if (n == "tile") {  // a closure's k-block goes to 256 (checked per op), an LU panel to 1024
      if (!integer(v, 8, 1024, "tile", true)) return std::nullopt;
      s.number = v.integer;
      return s;
    }
    if (n == "accumulator") {
      auto c = choice(v, {"auto", "dense", "hash", "sort"});
      if (!c) return std::nullopt;
      s.accumulator = static_cast<ir::Accumulator>(*c);
      return s;
    }
    if (n == "masked") {  // masked auto | saxpy | dot
      auto c = choice(v, {"auto", "saxpy", "dot"});
      if (!c) return std::nullopt;
      s.masked = static_cast<ir::MaskedMethod>(*c);
      return s;
    }
    if (n == "method") {  // method frontier | edge_centric | delta_stepping[(delta = D)]
      auto c = choice(v, {"frontier", "edge_centric", "delta_stepping"}, true);
      if (!c) return std::nullopt;
      s.method = static_cast<ir::TraversalMethod>(*c);
      std::map<std::string, double> args = {{"delta", 0.0}};
      if (s.method != ir::TraversalMethod::delta_stepping && v.has_arguments) {
        d_.error(v.span, DiagnosticId::directive_value, "'" + v.ident + "' takes no arguments");
        return std::nullopt;
      }
      if (!arguments(v, args, 0.0, 1e30, false)) return std::nullopt;
      s.delta = args["delta"];
      return s;
    }
    if (n == "frontier") {  // frontier auto | sparse | bitmap (dense: the same as bitmap)
      auto c = choice(v, {"auto", "sparse", "bitmap", "dense"});
      if (!c) return std::nullopt;
      s.frontier = *c == 3 ? ir::FrontierFormat::dense : static_cast<ir::FrontierFormat>(*c);
      return s;
    }
    if (n == "balance") {  // balance thread | warp | block | edge
      std::vector<std::string> balances;
      for (int b = 0; b < load_balance_count; ++b) balances.push_back(balance_name(static_cast<ir::LoadBalance>(b)));
      auto c = choice(v, balances);
      if (!c) return std::nullopt;
      s.balance = static_cast<ir::LoadBalance>(*c);
      return s;
    }
    if (n == "gemm") {
      auto c = choice(v, {"vendor", "native"});
      if (!c) return std::nullopt;
      s.gemm = *c == 0 ? ir::Gemm::vendor : ir::Gemm::native;
      return s;
    }
    if (n == "per_thread") {
      if (!integer(v, 1, 16, "per_thread", true)) return std::nullopt;
      s.number = v.integer;
      if (d.values.size() == 2) {
        auto c = choice(d.values[1], {"spread", "packed"});
        if (!c) return std::nullopt;
        s.spread = *c == 0;
      }
      return s;
    }
    if (n == "register_tile") {  // ROWSxCOLS: which ones the runtime builds is checked per op
      const auto extent = [](const std::string& digits) {
        if (digits.empty() || digits.size() > 4) return 0;
        for (char c : digits)
          if (c < '0' || c > '9') return 0;
        return std::stoi(digits);
      };
      const size_t x = v.ident.find('x');
      if (!v.is_number && !v.has_arguments && x != std::string::npos) {
        s.register_rows = extent(v.ident.substr(0, x));
        s.register_cols = extent(v.ident.substr(x + 1));
      }
      if (v.is_number || v.has_arguments || x == std::string::npos || s.register_rows == 0 || s.register_cols == 0) {
        d_.error(v.span, DiagnosticId::directive_value, "register_tile takes a shape ROWSxCOLS, such as 8x16");
        return std::nullopt;
      }
      return s;
    }
    if (n == "direction") {
      auto c = choice(v, {"push", "pull", "auto"}, true);
      if (!c) return std::nullopt;
      s.direction = static_cast<ir::Direction>(*c);
      std::map<std::string, double> args = {{"alpha", 15.0}, {"beta", 18.0}};
      if (!arguments(v, args, 0.0, 1e9, false)) return std::nullopt;
      s.alpha = args["alpha"];
      s.beta = args["beta"];
      return s;
    }
    if (n == "out_of_core") {
      auto c = choice(v, {"off", "on", "auto"}, true);
      if (!c) return std::nullopt;
      s.toggle = static_cast<ir::Toggle>(*c);
      std::map<std::string, double> args = {{"streams", 3.0}};
      if (!arguments(v, args, 1, 16, true)) return std::nullopt;
      s.streams = static_cast<int>(args["streams"]);
      return s;
    }
    return std::nullopt;
  }

  bool count(const ast::Directive& d, size_t min, size_t max = 0) {
    if (max < min) max = min;
    if (d.values.size() >= min && d.values.size() <= max) return true;
    d_.error(d.span, DiagnosticId::directive_value,
             "directive '" + d.name + "' takes " + (max == 0 ? std::string("no value") :
                 std::to_string(min) + (max > min ? " or " + std::to_string(max) : "") + " value" + (max == 1 ? "" : "s")) +
                 ", found " + std::to_string(d.values.size()));
    return false;
  }

  bool word(const ast::DirectiveValue& v, const char* w) { return !v.is_number && v.ident == w && !v.has_arguments; }

  bool integer(const ast::DirectiveValue& v, int64_t lo, int64_t hi, const std::string& what, bool pow2) {
    if (!v.is_number || !v.is_integer || v.has_arguments) {
      d_.error(v.span, DiagnosticId::directive_value,
               what + " takes an integer" + (what == "threads" ? " or auto" : ""));
      return false;
    }
    if (v.integer < lo || v.integer > hi || (pow2 && !power_of_two(v.integer))) {
      d_.error(v.span, DiagnosticId::directive_value,
               what + " must be " + (pow2 ? "a power of two " : "") + "in " + std::to_string(lo) + ".." +
                   std::to_string(hi) + ", found " + std::to_string(v.integer));
      return false;
    }
    return true;
  }

  std::optional<int> choice(const ast::DirectiveValue& v, const std::vector<std::string>& options, bool arguments_ok = false) {
    std::string all;
    for (const std::string& o : options) all += (all.empty() ? "" : ", ") + o;
    if (v.is_number) {
      d_.error(v.span, DiagnosticId::directive_value, "expected one of " + all);
      return std::nullopt;
    }
    for (size_t i = 0; i < options.size(); ++i) {
      if (v.ident == options[i]) {
        if (v.has_arguments && !arguments_ok) {
          d_.error(v.span, DiagnosticId::directive_value, "'" + v.ident + "' takes no arguments here");
          return std::nullopt;
        }
        return static_cast<int>(i);
      }
    }
    std::string guess = closest_name(v.ident, options);
    d_.error(v.span, DiagnosticId::directive_value, "unknown value '" + v.ident + "'; expected one of " + all +
                                                        (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
    return std::nullopt;
  }

  // Named arguments `name = number` of a value; fills `args` (which holds the defaults).
  bool arguments(const ast::DirectiveValue& v, std::map<std::string, double>& args, double lo, double hi, bool integral) {
    if (!v.has_arguments) return true;
    std::vector<std::string> names;
    for (const auto& [name, value] : args) names.push_back(name);
    for (size_t i = 0; i < v.arguments.size(); ++i) {
      const std::string& name = v.argument_names[i];
      const ast::DirectiveValue& a = v.arguments[i];
      if (name.empty() || !args.count(name)) {
        std::string guess = closest_name(name, names);
        d_.error(a.span, DiagnosticId::directive_value,
                 (name.empty() ? "'" + v.ident + "' takes named arguments" : "unknown argument '" + name + "' of '" + v.ident + "'") +
                     (guess.empty() ? "" : "; did you mean '" + guess + "'?"));
        return false;
      }
      if (!a.is_number || (integral && !a.is_integer) || a.number <= lo || a.number > hi) {
        d_.error(a.span, DiagnosticId::directive_value,
                 name + " must be a" + std::string(integral ? "n integer" : " number") + " in " +
                     (integral ? std::to_string(static_cast<int>(lo)) + ".." : "(0, ") +
                     std::to_string(static_cast<int64_t>(hi)) + (integral ? "" : "]"));
        return false;
      }
      args[name] = a.number;
    }
    return true;
  }

  std::optional<Setting> rows(const ast::Directive& d, Setting s) {
    if (!d.values.empty()) {
      d_.error(d.values[0].span, DiagnosticId::row_classes, "'rows' takes only its { ... } block");
      return std::nullopt;
    }
    if (d.rows.empty()) {
      d_.error(d.span, DiagnosticId::row_classes, "'rows' needs at least one class, as in rows { all: hash; }");
      return std::nullopt;
    }
    std::optional<int64_t> previous;
    for (size_t i = 0; i < d.rows.size(); ++i) {
      const ast::RowClass& r = d.rows[i];
      bool last = i + 1 == d.rows.size();
      if (!last && !r.threshold) {
        d_.error(r.span, DiagnosticId::row_classes,
                 "row class '" + r.name + "' needs a threshold (>= N); only the last class takes the rest");
        return std::nullopt;
      }
      if (last && r.threshold && *r.threshold != 0) {
        d_.error(r.threshold_span, DiagnosticId::row_classes,
                 "the last row class takes every remaining row; write '" + r.name + ": ...' without a threshold");
        return std::nullopt;
      }
      int64_t threshold = r.threshold.value_or(0);
      if (previous && threshold >= *previous) {
        d_.error(r.threshold_span.end ? r.threshold_span : r.span, DiagnosticId::row_classes,
                 "row class thresholds out of order: '" + r.name + " >= " + std::to_string(threshold) +
                     "' must be below the class before it (>= " + std::to_string(*previous) + ")");
        return std::nullopt;
      }
      previous = threshold;
      ir::RowClass rc;
      rc.name = r.name;
      rc.min_work = threshold;
      auto c = choice(r.accumulator, {"auto", "dense", "hash", "sort"}, true);
      if (!c || *c == 0) {
        if (c) d_.error(r.accumulator.span, DiagnosticId::row_classes,
                        "a row class names its accumulator: dense, hash or sort(chunk = N)");
        return std::nullopt;
      }
      rc.accumulator = static_cast<ir::Accumulator>(*c);
      if (rc.accumulator == ir::Accumulator::sort) {
        // The chunks the GPU runtime's spilled-row sort is built for; without an argument, its default.
        std::map<std::string, double> args = {{"chunk", gpu_sort_chunk}};
        if (!arguments(r.accumulator, args, 0, 65536, true)) return std::nullopt;
        rc.chunk = static_cast<int64_t>(args["chunk"]);
        if (std::find(gpu_sort_chunks.begin(), gpu_sort_chunks.end(), rc.chunk) == gpu_sort_chunks.end()) {
          d_.error(r.accumulator.span, DiagnosticId::directive_value,
                   "chunk must be one of " + listed(gpu_sort_chunks) + " (the sort chunks that fit shared memory)");
          return std::nullopt;
        }
      } else if (r.accumulator.has_arguments) {
        d_.error(r.accumulator.span, DiagnosticId::directive_value, "'" + r.accumulator.ident + "' takes no arguments");
        return std::nullopt;
      }
      s.rows.push_back(std::move(rc));
    }
    return s;
  }

  ir::Schedule defaults(Category c) const {
    bool cuda = target_ == ir::Target::cuda;
    switch (c) {
      case Category::product: {
        ir::ProductSchedule p;
        if (cuda) {
          // The runtime's tuned classes (SpgemmPlan, swept on the H200).
          p.rows = {{"large", gpu_large_row_products, ir::Accumulator::dense, 0},
                    {"medium", gpu_medium_row_products_min, ir::Accumulator::hash, 0},
                    {"small", 0, ir::Accumulator::sort, gpu_sort_chunk}};
        }
        return p;
      }
      case Category::traversal: return ir::TraversalSchedule{};
      case Category::closure: {
        ir::ClosureSchedule s;
        s.tile = cuda ? 0 : 128;  // cuda: the runtime picks the k-block from the size
        if (cuda) {
          s.register_rows = s.register_cols = 8;
          s.out_of_core = ir::Toggle::auto_;
          s.streams = 3;
        }
        return s;
      }
      case Category::lu: {
        ir::LuSchedule s;
        s.tile = cuda ? 256 : 128;
        s.gemm = ir::Gemm::vendor;
        return s;
      }
      case Category::elementwise: return ir::ElementwiseSchedule{};
      case Category::none: break;
    }
    return std::monostate{};
  }

  void apply(const Setting& s, ir::Schedule& schedule) {
    const std::string& n = s.spec->name;
    std::visit([&](auto& sch) {
      using T = std::decay_t<decltype(sch)>;
      if constexpr (!std::is_same_v<T, std::monostate>) {
        if constexpr (requires { sch.threads; }) if (n == "threads") sch.threads = static_cast<int>(s.number);
        if constexpr (requires { sch.block; }) if (n == "block") sch.block = static_cast<int>(s.number);
        if constexpr (requires { sch.tile; }) if (n == "tile") sch.tile = static_cast<int>(s.number);
      }
      if constexpr (std::is_same_v<T, ir::ProductSchedule>) {
        if (n == "rows") sch.rows = s.rows;
        if (n == "accumulator") sch.accumulator = s.accumulator;
        if (n == "masked") sch.masked = s.masked;
      }
      if constexpr (std::is_same_v<T, ir::TraversalSchedule>) {
        if (n == "direction") {
          sch.direction = s.direction;
          sch.alpha = s.alpha;
          sch.beta = s.beta;
        }
        if (n == "frontier") sch.frontier = s.frontier;
        if (n == "balance") sch.balance = s.balance;
        if (n == "method") {
          sch.method = s.method;
          sch.delta = s.delta;
        }
      }
      if constexpr (std::is_same_v<T, ir::ClosureSchedule>) {
        if (n == "per_thread") {
          sch.per_thread = static_cast<int>(s.number);
          sch.spread = s.spread;
        }
        if (n == "out_of_core") {
          sch.out_of_core = s.toggle;
          sch.streams = s.streams;
        }
        if (n == "register_tile") {
          sch.register_rows = s.register_rows;
          sch.register_cols = s.register_cols;
        }
        if (n == "tasks" || n == "parallel_for" || n == "recursive") {
          sch.parallelism = s.parallelism;
          sch.recursive_base = s.base;
        }
      }
      if constexpr (std::is_same_v<T, ir::LuSchedule>) {
        if (n == "gemm") sch.gemm = s.gemm;
      }
    }, schedule);
  }

  Analyzer& a_;
  Diagnostics& d_;
  ir::Target target_;
};

void collect_ops(ir::Block& block, std::vector<ir::Op*>& ops) {
  ir::for_each_stmt(block, [&](ir::Stmt& s) {
    if (s.kind == ir::StmtKind::op) ops.push_back(&s.op);
  });
}

bool applies(const Setting& s, Category c) {
  for (Category x : s.spec->categories) {
    if (x == c) return true;
  }
  return false;
}

}  // namespace

void Analyzer::resolve_schedules(const ast::Kernel& k, ir::Kernel& kernel) {
  std::vector<ir::Op*> ops;
  collect_ops(kernel.body, ops);
  std::map<std::string, ir::Op*> labelled;
  std::vector<std::string> labels;
  for (ir::Op* op : ops) {
    if (!op->label.empty()) {
      labelled[op->label] = op;
      labels.push_back(op->label);
    }
  }
  std::map<std::string, Span> seen_targets;
  for (const ast::Schedule& sched : k.schedules) {
    if (sched.target != "cuda" && sched.target != "openmp") {
      report_unknown(sched.target_span, DiagnosticId::unknown_name,
                     "schedule target", sched.target, {"cuda", "openmp"});
      continue;
    }
    if (auto it = seen_targets.find(sched.target); it != seen_targets.end()) {
      if (Diagnostic* d = diagnostics_.error(sched.target_span, DiagnosticId::redefinition,
                                             "kernel '" + k.name + "' has two schedules for " + sched.target)) {
        d->notes.push_back({it->second, "the first one"});
      }
      continue;
    }
    seen_targets[sched.target] = sched.target_span;
  }
  for (ir::Target target : {ir::Target::openmp, ir::Target::cuda}) {
    ScheduleChecker checker(*this, target);
    std::vector<Setting> settings;
    for (const ast::Schedule& sched : k.schedules) {
      if (sched.target != ir::to_string(target)) continue;
      for (const ast::Directive& d : sched.directives) {
        if (!d.label.empty() && !labelled.count(d.label)) {
          std::string guess = closest_name(d.label, labels);
          diagnostics_.error(d.label_span, DiagnosticId::unknown_label,
                             "schedule label '@" + d.label + "' names no statement of kernel '" + k.name + "'" +
                                 (guess.empty() ? "" : "; did you mean '@" + guess + "'?"));
          continue;
        }
        if (auto s = checker.parse(d)) settings.push_back(std::move(*s));
      }
    }
    // Resolve each op: defaults, then kernel-wide directives, then the op's labelled ones.
    std::vector<bool> used(settings.size(), false);
    for (ir::Op* op : ops) {
      const Category category = ir::op_info(op->kind).tuning;
      if (category == Category::none) continue;  // nothing to tune
      ir::Schedule schedule = checker.defaults(category);
      for (int pass = 0; pass < 2; ++pass) {
        for (size_t i = 0; i < settings.size(); ++i) {
          const Setting& s = settings[i];
          bool wide = s.source->label.empty();
          if ((pass == 0) != wide) continue;
          if (!wide && s.source->label != op->label) continue;
          if (!applies(s, category)) {
            if (!wide) {
              diagnostics_.error(s.source->name_span, DiagnosticId::directive_operation,
                                 "directive '" + s.source->name + "' does not apply to @" + op->label +
                                     ", which is " + category_name(category));
            }
            continue;
          }
          used[i] = true;
          checker.apply(s, schedule);
        }
      }
      // Where the directive that set a refused value was written (the op, if none did).
      const auto written_at = [&](auto&& named) {
        Span where = op->span;
        for (const Setting& s : settings)
          if (named(s.source->name) && (s.source->label.empty() || s.source->label == op->label)) where = s.source->span;
        return where;
      };
      if (auto* c = std::get_if<ir::ClosureSchedule>(&schedule)) {
        if (c->tile > gpu_closure_k_blocks.back())
          diagnostics_.error(written_at([](const std::string& name) { return name == "tile"; }),
                             DiagnosticId::directive_value,
                             "a closure's tile (its k-block) is a power of two in 8.." +
                                 std::to_string(gpu_closure_k_blocks.back()) + ", found " + std::to_string(c->tile));
        if (c->parallelism == ir::ClosureParallelism::recursive && c->recursive_base == 0) c->recursive_base = c->tile;
      }
      if (auto* c = std::get_if<ir::ClosureSchedule>(&schedule); c && target == ir::Target::cuda) {
        // The GPU designs the runtime builds (gql/closure_variants.hpp).
        if (c->per_thread > 0 && c->tile == 0) c->tile = 64;
        const int value_bytes = op->inputs.empty() ? 0 : byte_size(kernel.variables[op->inputs[0]].type.element);
        const GpuClosureRefusal refusal = gpu_closure_refusal(
            {c->tile, c->register_rows, c->register_cols, c->per_thread, static_cast<size_t>(value_bytes)});
        if (!refusal.why.empty())
          diagnostics_.error(written_at([&](const std::string& name) {
                               return refusal.register_tile ? name == "register_tile"
                                                            : name == "tile" || name == "per_thread";
                             }),
                             DiagnosticId::directive_value, refusal.why);
      }
      if (target == options_.target) op->schedule = std::move(schedule);
    }
    for (size_t i = 0; i < settings.size(); ++i) {
      if (!used[i] && settings[i].source->label.empty()) {
        diagnostics_.warning(settings[i].source->name_span, DiagnosticId::unused_directive,
                             "directive '" + settings[i].source->name +
                                 "' applies to no operation of kernel '" + k.name + "'");
      }
    }
  }
}

}  // namespace gql::compiler::sema
