// The C++ types that generated code spells for the language's values (shared by the kernels' code
// and their declarations).
#pragma once

#include <string>
#include <vector>

#include "gql/compiler/types.hpp"

namespace gql::compiler::codegen {

// A scalar's C++ type, or the runtime's host container of a graph, matrix or vector.
std::string container_type(const Type& t);
// A kernel's result: its one value's type, or a tuple of them.
std::string result_type(const std::vector<Type>& results);
// A graph parameter split across the ranks of a program for several processes (plan::split_parameter).
std::string split_graph_type(const Type& t);

}  // namespace gql::compiler::codegen
