// Declarations of the generated kernels, for host code that links them (gql_add_kernels): the
// same host signatures for both targets, in namespace gqlgen.
#include <string>

#include "codegen/cpp_types.hpp"
#include "codegen/generated_header.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/compiler/types.hpp"

namespace gql::compiler {

std::string generate_kernel_declarations(const ir::Module& module, const CodegenOptions& options) try {
  std::string out = codegen::generated_header(options.source_name, ": the kernels it defines") + "#pragma once\n\n";
  out += "#include <cstdint>\n#include <tuple>\n\n#include <gql/graph.hpp>\n#include <gql/kernel_context.hpp>\n";
  if (module.distributed) out += "#include <gql/dist/split_graph.hpp>\n#include <gql/dist/split_matrix.hpp>\n";
  out += "\n";
  out += "namespace gqlgen {\n\n";
  for (const ir::Kernel& k : module.kernels) {
    out += codegen::result_type(k.results) + " " + k.name + "(";
    for (int id : k.parameters) {
      out += codegen::host_parameter_type(k, id, module) + k.variables.at(static_cast<size_t>(id)).name + ", ";
    }
    out += "gql::KernelContext& ctx);\n";
  }
  out += "\n}  // namespace gqlgen\n";
  return out;
} catch (const Error& e) {
  rethrow_in_stage(Stage::codegen, e);
}

}  // namespace gql::compiler
