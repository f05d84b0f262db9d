// Where each op of a CUDA kernel runs and which side of its values it reads and writes, by the op
// table's device rule (gql/compiler/ops.def). Values are Residents (gql/device/resident.hpp): an op
// placed on the device reads its operands there (uploaded at most once per value) and leaves its
// result there; an op on the host reads and writes host containers, so a value the device last wrote
// is downloaded once before it. An OpenMP kernel runs every op on the host.
#include "gql/compiler/op_table.hpp"
#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {
namespace {

TypeKind kind_of(const ir::Kernel& kernel, int variable) {
  return kernel.variables.at(static_cast<size_t>(variable)).type.kind;
}

// DeviceRule::by_kind: the value an op is placed by is the container it writes, or, for a scalar
// result (reduce), the one it reads. A graph is written on the device only from graphs (a dense
// matrix or a vector operand stays where the host ops read it).
bool on_device_by_kind(const ir::Op& op, const ir::Kernel& kernel, uint8_t device_kinds) {
  const bool writes_container = !op.outputs.empty() && kind_of(kernel, op.outputs.at(0)) != TypeKind::scalar;
  const TypeKind kind = kind_of(kernel, writes_container ? op.outputs.at(0) : op.inputs.at(0));
  if (!(ir::container_kind_bit(kind) & device_kinds)) return false;
  if (kind != TypeKind::graph) return true;
  for (int input : op.inputs)
    if (kind_of(kernel, input) != TypeKind::graph) return false;
  return true;
}

}  // namespace

bool is_dense_product(const ir::Op& op, const ir::Kernel& kernel) {
  if (!ir::op_info(op.kind).semiring_product) return false;
  for (int input : op.inputs)
    if (kind_of(kernel, input) == TypeKind::matrix) return true;
  return false;
}

Placement placement(const ir::Op& op, const ir::Kernel& kernel, ir::Target target) {
  if (target != ir::Target::cuda) return Placement::host;
  const ir::OpInfo& info = ir::op_info(op.kind);
  switch (info.device) {
    case ir::DeviceRule::device: return Placement::device;
    case ir::DeviceRule::host: return Placement::host;
    case ir::DeviceRule::by_kind:
      return on_device_by_kind(op, kernel, info.device_kinds) ? Placement::device : Placement::host;
  }
  return Placement::host;
}

bool calls_cublas(const ir::Kernel& kernel) {
  return ir::any_op(kernel.body, [&](const ir::Op& o) { return o.kind == ir::OpKind::lu || is_dense_product(o, kernel); });
}

bool is_value_op_on_device(const ir::Op& op, const ir::Kernel& kernel, ir::Target target) {
  return !ir::op_info(op.kind).takes_context && placement(op, kernel, target) == Placement::device;
}

}  // namespace gql::compiler::plan
