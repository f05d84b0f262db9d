// What the compiler knows of each IR op, read from the op table (gql/compiler/ops.def): sema, the
// printer, the plan and the emitter ask here instead of keeping their own lists of op names.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gql/compiler/ir.hpp"

namespace gql::compiler::ir {

// How a call of the op is checked (sema/check_container_ops.cpp) and its runtime call written
// (codegen/kernel_emitter.cpp).
enum class OpForm : uint8_t {
  special,     // its own rules in sema and the emitter (products, constructors, closures, LU, ...)
  structural,  // NAME(X[, OFFSET]): X of `operand_kinds` in, X's type out; OFFSET an integer, 0 when not given
               //   -> NS::CALLEE(out, mask, replace, X[, OFFSET][, stream])
  map,         // NAME(X, f): X of `operand_kinds`, f of one element; X's kind with f's result type
               //   -> NS::CALLEE(out, mask, replace, X, f, readers[, stream])
  combine,     // NAME(X, Y, f): X and Y of one kind in `operand_kinds`, f of two elements
               //   -> NS::CALLEE(out, mask, replace, X, Y, f, readers[, stream])
};

// Which schedule directives apply to the op (sema/check_schedule.cpp's directive table names them).
enum class OpTuning : uint8_t { none, product, traversal, closure, lu, elementwise };

// Where a CUDA kernel runs the op (plan/placement.cpp); an OpenMP kernel runs every op on the host.
enum class DeviceRule : uint8_t {
  device,            // on the device, over the values where they are
  host,              // on the host
  by_kind,           // on the device when its value (the container it writes; for a scalar result, the one
                     // it reads) is of `device_kinds`, a graph only from graphs; on the host otherwise
};

// Sets of container kinds, for `operand_kinds` and `device_kinds`.
enum ContainerKinds : uint8_t { graphs = 1, matrices = 2, vectors = 4 };
uint8_t container_kind_bit(TypeKind kind) noexcept;  // 0 for a scalar or a tuple
std::string container_kinds_text(uint8_t kinds);     // "a graph or matrix"

struct OpInfo {
  OpKind kind = OpKind::construct;
  const char* name = "";            // the IR's name (`--emit ir`, the plan), and the runtime's function by default
  const char* spec_name = "";       // the builtin call that writes it in a spec; "" when it is written otherwise
                                    // (products, indexing, assignment) or only recognized (traversals)
  bool makes_scalar = false;        // its result is a scalar (reduce, element), not a container
  OpForm form = OpForm::special;
  uint8_t operand_kinds = 0;        // structural, map, combine: the kinds its container operands may take
  const char* offset = "";          // structural: what the optional integer argument is ("the diagonal"); "" for none
  bool keeps_unmatched = false;     // combine: an entry of one operand alone is kept as it is (union), so the
                                    // operands and the function's result share one element type
  OpTuning tuning = OpTuning::elementwise;
  bool semiring_product = false;    // a product over a semiring whose operands may be graphs, vectors or dense
                                    // matrices (mxm, vxm, mxv); with a dense operand it is a dense product
  DeviceRule device = DeviceRule::device;
  uint8_t device_kinds = 0;         // by_kind: the kinds of value it runs on the device for
  bool takes_context = false;       // on the device it takes the kernel's context (its statistics and streams),
                                    // not only the stream: products, traversals, closures, LU
  bool library_kernels = false;     // its device kernels are built into the runtime library whatever the spec
  const char* callee = nullptr;     // the runtime's function (gql::cpu::, gql::gpu::), when it is not `name`

  const char* function() const noexcept { return callee ? callee : name; }
};

const OpInfo& op_info(OpKind kind) noexcept;
// The op a builtin call of this name writes, or nullptr (constructors are type names: `graph<T>(...)`).
const OpInfo* op_named(std::string_view spec_name) noexcept;
// Every row of the table, in OpKind order.
const std::vector<OpInfo>& op_table();

}  // namespace gql::compiler::ir
