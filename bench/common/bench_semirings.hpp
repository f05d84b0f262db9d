// The semiring policies the CPU benchmarks multiply with: the reference policies the tests check
// (test/support/reference_semirings.hpp, in gqlc's shape), so each benchmark runs the code a
// generated program runs.
#pragma once

#include <cstdint>

#include "reference_semirings.hpp"

namespace gql::bench {

using Paths = reference_semirings::Paths<uint64_t>;  // C_ij = the number of 2-paths i -> k -> j
using reference_semirings::AnyPair;                  // reachability in two steps
using reference_semirings::MaxMin;                   // widest paths
using reference_semirings::MinPlus;                  // shortest paths

}  // namespace gql::bench
