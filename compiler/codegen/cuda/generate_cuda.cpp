// The CUDA code generator: the same host program as the OpenMP target, with the ops that have GPU
// kernels (products mxm, vxm and mxv, dense matrix x matrix, closures, LU, recognized traversals, the vectors'
// and graphs' element-wise ops, assignments and reductions) dispatched to gql/device/ops.hpp and the rest to
// the OpenMP templates. The semiring policies are __host__
// __device__ (GQL_HD), so one struct serves both.
#include <string>

#include "codegen/cuda/product_limits.hpp"
#include "codegen/generated_header.hpp"
#include "codegen/kernel_emitter.hpp"
#include "codegen/semiring_policy.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/compiler/op_table.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/compiler/types.hpp"
#include "gql/error.hpp"

namespace gql::compiler {
namespace {

bool runs_on_gpu(const ir::Op& op, const ir::Kernel& kernel) {
  return plan::placement(op, kernel, ir::Target::cuda) != plan::Placement::host;
}

void collect_gpu_ops(const ir::Module& module, const ir::Kernel& kernel, const ir::Block& block,
                     CudaDeviceParts& parts) {
  const auto element = [&](int variable) {
    return std::string(cpp_type(kernel.variables.at(static_cast<size_t>(variable)).type.element));
  };
  ir::for_each_stmt(block, [&](const ir::Stmt& s) {
    // Vector ops and products of dense matrices launch kernels nvcc builds (the JIT's NVRTC path runs
    // them on the host), so NVRTC builds nothing for them.
    if (s.kind == ir::StmtKind::op && runs_on_gpu(s.op, kernel) && !ir::op_info(s.op.kind).library_kernels &&
        !plan::is_value_op_on_device(s.op, kernel, ir::Target::cuda) && !plan::is_dense_product(s.op, kernel)) {
      const ir::Op& o = s.op;
      const ir::SemiringInstance& si = module.semirings.at(static_cast<size_t>(o.semiring));
      if (o.kind == ir::OpKind::closure || o.kind == ir::OpKind::closure_paths) {
        const auto& schedule = std::get<ir::ClosureSchedule>(o.schedule);
        GpuClosure c;
        c.semiring = si.name;
        c.value_type = cpp_type(si.value_type);
        c.value_bytes = byte_size(si.value_type);
        c.tile = static_cast<int>(schedule.tile);
        c.register_rows = static_cast<int>(schedule.register_rows);
        c.register_cols = static_cast<int>(schedule.register_cols);
        c.per_thread = static_cast<int>(schedule.per_thread);
        c.predecessors = o.kind == ir::OpKind::closure_paths;
        parts.closures.push_back(std::move(c));
      } else if (o.kind == ir::OpKind::single_source_paths) {
        const auto& schedule = std::get<ir::TraversalSchedule>(o.schedule);
        GpuPaths p;
        p.semiring = si.name;
        p.value_type = cpp_type(si.value_type);
        p.graph_type = element(o.inputs.at(0));
        p.delta_stepping = schedule.method == ir::TraversalMethod::delta_stepping;
        p.balance = schedule.balance;
        parts.paths.push_back(std::move(p));
      } else {  // a product: mxm, vxm or mxv
        GpuProduct p;
        p.kind = ir::to_string(o.kind);
        p.semiring = si.name;
        p.a_type = cpp_type(si.a_type);
        p.b_type = cpp_type(si.b_type);
        p.value_type = cpp_type(si.value_type);
        p.value_bytes = byte_size(si.value_type);  // bool: a byte, as the device stores it
        if (o.kind == ir::OpKind::mxm) {
          p.sorted_chunk = static_cast<int>(codegen::cuda_product_limits(std::get<ir::ProductSchedule>(o.schedule)).sort_chunk);
        } else {
          const bool vector_first = o.kind == ir::OpKind::vxm;  // vxm(v, G), mxv(G, v)
          p.vector_type = element(o.inputs.at(vector_first ? 0 : 1));
          p.graph_type = element(o.inputs.at(vector_first ? 1 : 0));
          p.result_type = element(o.outputs.at(0));
          p.balance = std::get<ir::TraversalSchedule>(o.schedule).balance;
        }
        parts.products.push_back(std::move(p));
      }
    }
  });
}

}  // namespace

std::string generate_cuda(const ir::Module& module, const CodegenOptions& options) try {
  if (module.target != ir::Target::cuda)
    throw Error(ErrorKind::internal, "generate_cuda: the module was lowered for another target");
  const codegen::Dialect dialect{
      "cuda", "gql/device/ops.hpp", ir::Target::cuda, "gql/device/traversal/traversal.hpp",
      "gql/device/traversal/components.hpp", /*resident_values=*/true, /*device_lambdas=*/true};
  return codegen::emit_program(module, options.source_name, options.with_main, dialect);
} catch (const Error& e) {
  rethrow_in_stage(Stage::codegen, e);
}

CudaDeviceParts cuda_device_parts(const ir::Module& module, const CodegenOptions& options) try {
  if (module.target != ir::Target::cuda)
    throw Error(ErrorKind::internal, "cuda_device_parts: the module was lowered for another target");
  CudaDeviceParts parts;
  for (const ir::Kernel& k : module.kernels) collect_gpu_ops(module, k, k.body, parts);
  std::string& out = parts.source;
  out += codegen::generated_header(options.source_name, ": the semirings of its GPU products, for NVRTC");
  out += "#include <gql/device/nvrtc_stdint.cuh>\n#include <gql/scalar_ops.hpp>\n#include <gql/device/byte_valued.cuh>\n"
         "#include <gql/device/spgemm/spgemm_dot.cuh>\n#include <gql/device/spgemm/spgemm_large_rows.cuh>\n"
         "#include <gql/device/spgemm/spgemm_medium_rows.cuh>\n#include <gql/device/spgemm/spgemm_small_rows.cuh>\n"
         "#include <gql/device/traversal/vxm_kernels.cuh>\n"
         "#include <gql/swapped_operands.hpp>\n";
  if (!parts.closures.empty()) out += "#include <gql/device/closure/closure_kernels.cuh>\n";
  if (!parts.paths.empty()) out += "#include <gql/device/traversal/sssp_kernels.cuh>\n";
  out += "\nnamespace gqlgen {\n\n";
  for (const ir::Function& f : module.functions) out += codegen::emit_function(f) + "\n";
  for (const ir::SemiringInstance& s : module.semirings) out += codegen::emit_semiring_policy(s) + "\n";
  out += "}  // namespace gqlgen\n";
  return parts;
} catch (const Error& e) {
  rethrow_in_stage(Stage::codegen, e);
}

}  // namespace gql::compiler
