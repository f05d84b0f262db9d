// Code generation: from the IR to C++ source that instantiates the runtime's kernel templates.
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"
#include "gql/compiler/stage.hpp"

namespace gql::compiler {

// The generators below throw what they raise as StageError(Stage::codegen) (stage.hpp).

struct CodegenOptions {
  std::string source_name;  // the spec's path, named in the generated file's header comment
  bool with_main = true;    // add main() with gql::run_program (AOT executables)
};

// C++20 + OpenMP source for every kernel of `module` (module.target must be openmp).
// Throws gql::Error(usage) naming the span of an operation the OpenMP target cannot run.
std::string generate_openmp(const ir::Module& module, const CodegenOptions& options);

// CUDA C++ (host program + device kernels through gql/device/ops.hpp) for every kernel of `module`
// (module.target must be cuda). Ops without GPU kernels run on the host through gql/cpu/ops.hpp.
std::string generate_cuda(const ir::Module& module, const CodegenOptions& options);

// A GPU product of a CUDA module as the JIT's NVRTC path builds it: its kind ("mxm", "vxm" or
// "mxv"), the semiring's policy struct (in namespace gqlgen) and element types as generated code
// spells them (value_type "bool" runs an mxm on the device with byte values).
struct GpuProduct {
  std::string kind;
  std::string semiring;
  std::string a_type, b_type, value_type;
  int value_bytes = 0;  // an mxm's value as the device stores it (bool: one byte)
  int sorted_chunk = 0;  // mxm: the sort chunk its schedule asks for (0: the default)
  // vxm and mxv: the vector's, the graph's and the result's element types, and how the push maps
  // edges to threads.
  std::string vector_type, graph_type, result_type;
  LoadBalance balance = LoadBalance::edge;
};

// A GPU closure of a CUDA module as the JIT's NVRTC path builds it: the semiring's policy struct (in
// namespace gqlgen), its value type as generated code spells it, the schedule's choices of kernel
// (gql::gpu::ClosureSchedule's tile, register tile and entries per thread) and whether it finds
// predecessors (closure_paths).
struct GpuClosure {
  std::string semiring;
  std::string value_type;
  int value_bytes = 0;
  int tile = 0;
  int register_rows = 0, register_cols = 0;
  int per_thread = 0;
  bool predecessors = false;
};

// A recognized single-source paths loop of a CUDA module as the JIT's NVRTC path builds it: the
// semiring's policy struct (in namespace gqlgen), its value type and the graph's element type as
// generated code spells them, and the schedule's choices of kernel (delta-stepping or Bellman-Ford)
// and of the push's load balance.
struct GpuPaths {
  std::string semiring;
  std::string value_type, graph_type;
  bool delta_stepping = false;
  LoadBalance balance = LoadBalance::edge;
};

// What NVRTC needs of a CUDA module: its products, closures and paths, and the device source that
// defines their semirings (the module's functions and semiring policies, in namespace gqlgen, with
// the runtime's device headers). A BFS and LU need no kernel of the spec's: the runtime library
// holds them whole.
struct CudaDeviceParts {
  std::vector<GpuProduct> products;
  std::vector<GpuClosure> closures;
  std::vector<GpuPaths> paths;
  std::string source;
};
CudaDeviceParts cuda_device_parts(const ir::Module& module, const CodegenOptions& options);

// A header declaring every kernel of `module` as the generators define them (namespace gqlgen),
// for host code linked with the kernels (gqlc --emit kernels, gql_add_kernels).
std::string generate_kernel_declarations(const ir::Module& module, const CodegenOptions& options);

}  // namespace gql::compiler
