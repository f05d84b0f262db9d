// The options of a generated lu(A) op (gql/common/lu_options.hpp) as the OpenMP ops name them.
#pragma once

#include "gql/common/lu_options.hpp"

namespace gql::cpu {

using common::LuOptions;

}  // namespace gql::cpu
