// Bounds that the compiler's checks and the runtime share, so each is written once.
#pragma once

namespace gql {

// The most threads a schedule's `threads` directive and a program's --threads take.
inline constexpr int max_threads = 4096;

}  // namespace gql
