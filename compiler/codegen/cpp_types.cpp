#include "codegen/cpp_types.hpp"

#include "codegen/cpp_expr.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/error.hpp"

namespace gql::compiler::codegen {

std::string container_type(const Type& t) {
  const std::string e = cpp_scalar_type(t.element);
  switch (t.kind) {
    case TypeKind::graph: return "gql::Csr<" + e + ">";
    case TypeKind::matrix: return "gql::Matrix<" + e + ">";
    case TypeKind::vector: return "gql::Vector<" + e + ">";
    case TypeKind::scalar: return e;
    default: throw Error(ErrorKind::internal, "codegen: no C++ type for " + to_string(t));
  }
}

std::string result_type(const std::vector<Type>& results) {
  if (results.size() == 1) return container_type(results[0]);
  std::string out = "std::tuple<";
  for (size_t n = 0; n < results.size(); ++n) out += (n ? ", " : "") + container_type(results[n]);
  return out + ">";
}

std::string split_type(const Type& t) {
  const std::string e = cpp_scalar_type(t.element);
  switch (t.kind) {
    case TypeKind::graph: return "gql::dist::SplitGraph<" + e + ">";
    case TypeKind::matrix: return "gql::dist::SplitMatrix<" + e + ">";
    default: throw Error(ErrorKind::internal, "codegen: no split C++ type for " + to_string(t));
  }
}

std::string host_parameter_type(const ir::Kernel& kernel, int id, const ir::Module& module) {
  const Type& t = kernel.variables.at(static_cast<size_t>(id)).type;
  if (t.is_scalar()) return cpp_scalar_type(t.element) + " ";
  return "const " + (plan::split_parameter(kernel, id, module) ? split_type(t) : container_type(t)) + "& ";
}

}  // namespace gql::compiler::codegen
