// The GPU tests' names for the reference semiring policies (test/support/reference_semirings.hpp).
#pragma once

#include "reference_semirings.hpp"

namespace gql::gpu_test {

using Paths = reference_semirings::Paths<unsigned long long>;  // the fof count
using PlusTimesF32 = reference_semirings::PlusTimes<float>;     // small integer weights: exact sums
using MinPlusI32 = reference_semirings::MinPlus<int>;

}  // namespace gql::gpu_test
