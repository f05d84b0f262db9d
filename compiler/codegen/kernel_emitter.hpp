// Kernels as C++ functions over the runtime's host containers, and main() for AOT programs.
// Targets differ only in which functions run each operation (the Dialect).
#pragma once

#include <functional>
#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::codegen {

struct Dialect {
  // The namespace whose functions (mxm, vxm, assign, ...) and option structs run an op kind.
  std::function<std::string(ir::OpKind)> ops_namespace;
};

// `ResultType NAME(params..., gql::KernelContext& ctx) { ... }` in the caller's namespace.
std::string emit_kernel(const ir::Module& module, const ir::Kernel& kernel, const Dialect& dialect);

// main(): every kernel of the module on the command line, through gql::run_program; kernels are
// called as gqlgen::NAME.
std::string emit_main(const ir::Module& module);

}  // namespace gql::compiler::codegen
