// The CUDA code generator: the same host program as the OpenMP target, with the ops that have GPU
// kernels (products mxm, vxm and mxv, closures, LU, recognized traversals) dispatched to
// gql/device/ops.hpp and the rest to the OpenMP templates. The semiring policies are __host__
// __device__ (GQL_HD), so one struct serves both.
#include <string>

#include "codegen/kernel_emitter.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/error.hpp"

namespace gql::compiler {

std::string generate_cuda(const ir::Module& module, const CodegenOptions& options) {
  if (module.target != ir::Target::cuda)
    throw Error(ErrorKind::internal, "generate_cuda: the module was lowered for another target");
  const codegen::Dialect dialect{"cuda", "gql/device/ops.hpp", [](ir::OpKind kind) {
                                   const bool on_gpu = kind == ir::OpKind::mxm || kind == ir::OpKind::vxm ||
                                                       kind == ir::OpKind::mxv || kind == ir::OpKind::closure ||
                                                       kind == ir::OpKind::closure_paths || kind == ir::OpKind::lu ||
                                                       kind == ir::OpKind::bfs_levels ||
                                                       kind == ir::OpKind::single_source_paths;
                                   return std::string(on_gpu ? "gql::gpu" : "gql::cpu");
                                 },
                                 "gql/device/traversal.hpp"};
  return codegen::emit_program(module, options.source_name, options.with_main, dialect);
}

}  // namespace gql::compiler
