// libFuzzer target: the whole front end (lex, parse, sema, IR, printers) on arbitrary bytes.
// Imports resolve against the real stdlib, so seeds that import it reach sema's deeper paths.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gql/compiler/compiler.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gql::compiler::Options options;
  options.target = size % 2 ? gql::compiler::ir::Target::cuda : gql::compiler::ir::Target::openmp;
  gql::compiler::Compiler compiler(options);
  bool ok = compiler.compile_source("fuzz.gql", std::string(reinterpret_cast<const char*>(data), size));
  std::string out = compiler.rendered_diagnostics();
  if (const auto* file = compiler.main_ast()) out += gql::compiler::ast::print(*file, compiler.sources());
  if (ok) out += gql::compiler::ir::print_module(*compiler.module());
  return 0;
}
