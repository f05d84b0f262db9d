// The C++ types that generated code spells for the language's values (shared by the kernels' code
// and their declarations).
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/ir.hpp"
#include "gql/compiler/types.hpp"

namespace gql::compiler::codegen {

// A scalar's C++ type, or the runtime's host container of a graph, matrix or vector.
std::string container_type(const Type& t);
// A kernel's result: its one value's type, or a tuple of them.
std::string result_type(const std::vector<Type>& results);
// A graph or matrix held split across the ranks of a program for several processes
// (plan::split_parameter, plan::split_matrix).
std::string split_type(const Type& t);
// Kernel parameter `id` as the host signature takes it, "TYPE " or "const TYPE& ", before its name (the
// kernel's definition and its declaration alike).
std::string host_parameter_type(const ir::Kernel& kernel, int id, const ir::Module& module);

}  // namespace gql::compiler::codegen
