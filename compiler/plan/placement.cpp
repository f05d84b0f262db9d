// Where each op of a CUDA kernel runs and which side of its values it reads and writes. Values are
// Residents (gql/device/resident.hpp): an op placed on the device reads its operands there (uploaded
// at most once per value) and leaves its result there; an op on the host reads and writes host
// containers, so a value the device last wrote is downloaded once before it. Every graph op but an
// element read or store runs on the device, masked or converting alike (gql/device/graph_ops.hpp).
// An OpenMP kernel runs every op on the host.
#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {
namespace {

bool is_vector(const ir::Kernel& kernel, int variable) {
  return kernel.variables.at(static_cast<size_t>(variable)).type.kind == TypeKind::vector;
}
bool is_dense(const ir::Kernel& kernel, int variable) {
  return kernel.variables.at(static_cast<size_t>(variable)).type.kind == TypeKind::matrix;
}
bool is_graph(const ir::Kernel& kernel, int variable) {
  return kernel.variables.at(static_cast<size_t>(variable)).type.kind == TypeKind::graph;
}
// A graph op that writes a graph from graphs (gql/device/graph_ops.hpp): every form of it runs on the
// device, through a mask (the unmasked result merged with the output's entries there) and into
// another element type (bool included) alike.
bool graph_from_graphs(const ir::Op& op, const ir::Kernel& kernel) {
  if (!is_graph(kernel, op.outputs.at(0))) return false;
  for (int input : op.inputs)
    if (!is_graph(kernel, input)) return false;
  return true;
}

}  // namespace

bool is_dense_product(const ir::Op& op, const ir::Kernel& kernel) {
  if (op.kind != ir::OpKind::mxm && op.kind != ir::OpKind::vxm && op.kind != ir::OpKind::mxv) return false;
  for (int input : op.inputs)
    if (is_dense(kernel, input)) return true;
  return false;
}

Placement placement(const ir::Op& op, const ir::Kernel& kernel, ir::Target target) {
  if (target != ir::Target::cuda) return Placement::host;
  switch (op.kind) {
    case ir::OpKind::mxm:
    case ir::OpKind::vxm:
    case ir::OpKind::mxv:
      // Of the products with a dense operand, matrix x matrix runs on the device (gql/device/
      // dense_products.hpp); those with a graph or a vector on the host (gql/cpu/dense_products.hpp).
      if (!is_dense_product(op, kernel)) return Placement::device;
      return is_dense(kernel, op.inputs.at(0)) && is_dense(kernel, op.inputs.at(1)) ? Placement::device
                                                                                   : Placement::host;
    case ir::OpKind::bfs_levels:
    case ir::OpKind::component_labels:
    case ir::OpKind::closure:  // in core on the device matrix; out of core it streams host memory
    case ir::OpKind::lu:
      return Placement::device;
    case ir::OpKind::closure_paths:
    case ir::OpKind::single_source_paths:
      return Placement::device_from_host;
    // Copies of vectors, dense matrices and graphs (gql/device/matrix_ops.hpp, graph_ops.hpp).
    case ir::OpKind::copy:
      return is_vector(kernel, op.outputs.at(0)) || is_dense(kernel, op.outputs.at(0)) || graph_from_graphs(op, kernel)
                 ? Placement::device
                 : Placement::host;
    // Element reads and stores, where the value is current (gql/device/element_ops.hpp): a read of a
    // value on the device reads that one entry there; a store into it waits there until its next read.
    case ir::OpKind::element:
    case ir::OpKind::set_element:
      return Placement::device;
    // Vectors' element-wise ops, assignments, reductions and constructors (gql/device/vector_ops.hpp);
    // graphs' empty constructors, element-wise ops, bands, transposes, scalar assignments and
    // reductions in every form, masked or converting (gql/device/graph_ops.hpp); a dense matrix's
    // other ops run on the host.
    case ir::OpKind::construct:
      return is_vector(kernel, op.outputs.at(0)) || (is_graph(kernel, op.outputs.at(0)) && !op.dense)
                 ? Placement::device
                 : Placement::host;
    case ir::OpKind::assign_scalar:
      return is_vector(kernel, op.outputs.at(0)) || is_graph(kernel, op.outputs.at(0)) ? Placement::device
                                                                                      : Placement::host;
    case ir::OpKind::ewise_union:
    case ir::OpKind::ewise_intersect:
    case ir::OpKind::apply:
      return is_vector(kernel, op.outputs.at(0)) || graph_from_graphs(op, kernel) ? Placement::device
                                                                                 : Placement::host;
    case ir::OpKind::tril:
    case ir::OpKind::triu:
    case ir::OpKind::transpose:
      return graph_from_graphs(op, kernel) ? Placement::device : Placement::host;
    case ir::OpKind::reduce:
      return is_vector(kernel, op.inputs.at(0)) || is_graph(kernel, op.inputs.at(0)) ? Placement::device
                                                                                     : Placement::host;
    default:
      return Placement::host;
  }
}


bool calls_cublas(const ir::Kernel& kernel) {
  return ir::any_op(kernel.body, [&](const ir::Op& o) { return o.kind == ir::OpKind::lu || is_dense_product(o, kernel); });
}

bool is_value_op_on_device(const ir::Op& op, const ir::Kernel& kernel, ir::Target target) {
  switch (op.kind) {
    case ir::OpKind::mxm:
    case ir::OpKind::vxm:
    case ir::OpKind::mxv:
    case ir::OpKind::bfs_levels:
    case ir::OpKind::component_labels:
    case ir::OpKind::closure:
    case ir::OpKind::lu:
      return false;
    default:
      return placement(op, kernel, target) == Placement::device;
  }
}

}  // namespace gql::compiler::plan
