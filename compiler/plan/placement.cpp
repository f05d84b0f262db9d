// Where each op of a CUDA kernel runs and which side of its values it reads and writes. Values are
// Residents (gql/device/resident.hpp): an op placed on the device reads its operands there (uploaded
// at most once per value) and leaves its result there; an op on the host reads and writes host
// containers, so a value the device last wrote is downloaded once before it. An OpenMP kernel runs
// every op on the host.
#include "gql/compiler/plan.hpp"

namespace gql::compiler::plan {

Placement placement(ir::OpKind kind, ir::Target target) {
  if (target != ir::Target::cuda) return Placement::host;
  switch (kind) {
    case ir::OpKind::mxm:
    case ir::OpKind::vxm:
    case ir::OpKind::mxv:
    case ir::OpKind::bfs_levels:
      return Placement::device;
    case ir::OpKind::closure:
    case ir::OpKind::closure_paths:
    case ir::OpKind::lu:
    case ir::OpKind::single_source_paths:
      return Placement::device_from_host;
    default:
      return Placement::host;
  }
}

}  // namespace gql::compiler::plan
