#include "sema/analyzer.hpp"

#include <algorithm>

namespace gql::compiler::sema {

ir::Module Analyzer::run(const Program& program) {
  module_.target = options_.target;
  sources_ = program.sources;
  for (const ast::File* f : program.files) declare_globals(*f, program);
  // Constants and functions in source order: each may use only what is defined above it.
  for (const ast::File* f : program.files) {
    struct Item {
      uint32_t offset;
      const ast::Const* c;
      const ast::Function* fn;
    };
    std::vector<Item> items;
    for (const ast::Const& c : f->consts) {
      if (constant_decls_[c.name] == &c) items.push_back({c.span.begin, &c, nullptr});
    }
    for (const ast::Function& fn : f->functions) {
      if (function_decls_[fn.name] == &fn) items.push_back({fn.span.begin, nullptr, &fn});
    }
    std::sort(items.begin(), items.end(), [](const Item& x, const Item& y) { return x.offset < y.offset; });
    for (const Item& item : items) {
      if (item.c) check_constant(*item.c);
      else check_function(*item.fn);
    }
  }
  for (const ast::File* f : program.files) {
    for (const ast::Semiring& s : f->semirings) {
      if (semirings_[s.name] == &s) check_semiring_declaration(s);
    }
  }
  // A semiring of the main file with a concrete signature has one instantiation: check it now,
  // used or not, so its errors show without a kernel that uses it.
  if (program.main) {
    for (const ast::Semiring& s : program.main->semirings) {
      if (semirings_[s.name] != &s || !semiring_ok_[s.name] || !s.type_params.empty() || s.params.size() != 2) continue;
      auto a = resolve_type(*s.params[0].type, {});
      auto b = resolve_type(*s.params[1].type, {});
      if (a && b && a->is_scalar() && b->is_scalar()) instantiate(s.name, s.name_span, a->element, b->element);
    }
  }
  // Kernels of imported files are not part of this module (each file is checked on its own).
  if (program.main) {
    for (const ast::Kernel& k : program.main->kernels) {
      if (diagnostics_.saturated()) break;
      if (kernels_[k.name] == &k) check_kernel(k);
    }
    // The generated code names each semiring instance's struct after it (min_plus_f32_f32_f32).
    for (const ast::Kernel& k : program.main->kernels) {
      for (const ir::SemiringInstance& s : module_.semirings)
        if (s.name == k.name)
          diagnostics_.error(k.name_span, DiagnosticId::reserved_name,
                             "kernel '" + k.name + "' has the name of the generated instance of semiring '" +
                                 s.semiring + "'; rename the kernel");
    }
  }
  return std::move(module_);
}

ir::Module analyze(const Program& program, const AnalyzeOptions& options, Diagnostics& diagnostics) {
  return Analyzer(options, diagnostics).run(program);
}

}  // namespace gql::compiler::sema
