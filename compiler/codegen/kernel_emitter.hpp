// Kernels as C++ functions over the runtime's host containers, and main() for AOT programs.
// Targets differ only in which functions run each operation (the Dialect).
#pragma once

#include <string>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::codegen {

struct Dialect {
  std::string target_name;  // "openmp", "cuda": named in the generated file's header
  std::string ops_header;   // the runtime header that declares the op functions
  // The target: an op runs where plan::placement puts it, through the functions (mxm, vxm, assign,
  // ...) and option structs of gql::gpu on the device, of gql::cpu on the host.
  ir::Target target = ir::Target::openmp;
  std::string traversal_header;  // declares bfs_levels / single_source_paths (recognized loops)
  std::string components_header;  // declares component_labels (a recognized label-propagation loop)
  // Containers are gql::gpu::Resident values (current on the host, the device or both): the kernel
  // body takes them, ops that run on the host read host(), and a wrapper with the host signature
  // borrows the arguments and hands the result back on the host (gql/device/resident.hpp).
  bool resident_values = false;
  // Element functions are lambdas that device code calls too (__host__ __device__).
  bool device_lambdas = false;
};

// The whole generated file: header comment, includes, functions, semiring policies, kernels in
// namespace gqlgen, and main() when asked.
std::string emit_program(const ir::Module& module, const std::string& source_name, bool with_main,
                         const Dialect& dialect);

// `ResultType NAME(params..., gql::KernelContext& ctx) { ... }` in the caller's namespace; with
// resident values, the body is `resident::NAME` over Residents and NAME is its host-signature wrapper.
std::string emit_kernel(const ir::Module& module, const ir::Kernel& kernel, const Dialect& dialect);

// main(): every kernel of the module on the command line, through gql::run_program; kernels are
// called as gqlgen::NAME.
std::string emit_main(const ir::Module& module);

}  // namespace gql::compiler::codegen
