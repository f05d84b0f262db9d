// Declarations of the generated kernels, for host code that links them (gql_add_kernels): the
// same host signatures for both targets, in namespace gqlgen.
#include <string>

#include "codegen/generated_header.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/compiler/types.hpp"

namespace gql::compiler {
namespace {

std::string host_type(const Type& t) {
  const std::string e(cpp_type(t.element));
  switch (t.kind) {
    case TypeKind::graph: return "gql::Csr<" + e + ">";
    case TypeKind::matrix: return "gql::Matrix<" + e + ">";
    case TypeKind::vector: return "gql::Vector<" + e + ">";
    default: return e;
  }
}

}  // namespace

std::string generate_kernel_declarations(const ir::Module& module, const CodegenOptions& options) try {
  std::string out = codegen::generated_header(options.source_name, ": the kernels it defines") + "#pragma once\n\n";
  out += "#include <cstdint>\n#include <tuple>\n\n#include <gql/graph.hpp>\n#include <gql/kernel_context.hpp>\n";
  if (module.distributed) out += "#include <gql/dist/split_graph.hpp>\n";
  out += "\n";
  out += "namespace gqlgen {\n\n";
  for (const ir::Kernel& k : module.kernels) {
    std::string result;
    if (k.results.size() == 1) {
      result = host_type(k.results[0]);
    } else {
      result = "std::tuple<";
      for (size_t n = 0; n < k.results.size(); ++n) result += (n ? ", " : "") + host_type(k.results[n]);
      result += ">";
    }
    out += result + " " + k.name + "(";
    for (int id : k.parameters) {
      const ir::Variable& v = k.variables.at(static_cast<size_t>(id));
      const std::string type = plan::split_parameter(k, id, module)
                                   ? "gql::dist::SplitGraph<" + std::string(cpp_type(v.type.element)) + ">"
                                   : host_type(v.type);
      out += (v.type.is_scalar() ? type + " " : "const " + type + "& ") + v.name + ", ";
    }
    out += "gql::KernelContext& ctx);\n";
  }
  out += "\n}  // namespace gqlgen\n";
  return out;
} catch (const Error& e) {
  rethrow_in_stage(Stage::codegen, e);
}

}  // namespace gql::compiler
