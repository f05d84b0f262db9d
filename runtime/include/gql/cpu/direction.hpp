// Traversal direction (gql/common/direction.hpp) as the OpenMP ops and generated code
// (gql::cpu::TraversalOptions) name it.
#pragma once

#include "gql/common/direction.hpp"

namespace gql::cpu {

using common::Direction;
using common::DirectionChooser;
using common::DirectionOptions;
using common::TraversalOptions;
using common::VectorStep;

}  // namespace gql::cpu
