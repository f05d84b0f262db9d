// The type-erased entry points of a kernel library (CPU or CUDA) and the signatures they are checked against.
#pragma once

#include <string>

#include "gql/compiler/ir.hpp"
#include "gql/jit.hpp"

namespace gql::jit {

// The exported symbol of a kernel's entry.
std::string entry_symbol(const std::string& kernel);
// The exported symbol of a library compiled for several processes that hands it its caller's
// gql::dist::World (gql::dist::use_program_world) and, for CUDA, DeviceWorld
// (gql::dist::use_program_devices); called once, when the library is loaded.
inline constexpr const char* use_ranks_symbol = "gql_use_ranks";

// One extern "C" function per kernel, appended to the generated kernels: it unpacks the argument
// pack (args[i] points to the i-th argument), calls gqlgen::KERNEL and move-assigns the result,
// catching what it throws (jit_detail::Entry). A CUDA module's entries first check that there is a
// device: without one they throw gql::Error(cuda); they call gqlgen::resident::KERNEL with each
// argument borrowed where the caller keeps it (KernelContext::argument_on_device) and hand the result
// over on the side the caller takes it (KernelContext::result_on_device; gql/device/placement.hpp).
// A module built for several processes also gets the use_ranks_symbol function.
std::string generate_entry_shims(const compiler::ir::Module& module);

// The kernel's signature as compiled for `target`.
KernelSignature signature_of(const compiler::ir::Kernel& kernel, compiler::ir::Target target);

}  // namespace gql::jit
