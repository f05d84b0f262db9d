// The structural masks of gql/common/mask.hpp as the OpenMP ops (and generated code: gql::cpu::no_mask())
// name them.
#pragma once

#include "gql/common/mask.hpp"

namespace gql::cpu {

using common::check_mask_shape;
using common::check_mask_size;
using common::MaskMode;
using common::MatrixMask;
using common::no_mask;
using common::no_matrix_mask;
using common::NoMask;
using common::structural_mask;
using common::VectorMask;

}  // namespace gql::cpu
