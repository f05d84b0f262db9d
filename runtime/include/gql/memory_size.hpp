// Memory sizes as the environment's caps spell them (GQL_HOST_MEMORY_LIMIT, GQL_DEVICE_MEMORY_LIMIT).
#pragma once

#include <cstddef>
#include <string_view>

namespace gql {

// Parses a memory size: a byte count, or a number with a binary suffix K, M, G or T (optionally
// followed by "B" or "iB"), e.g. "2G", "512M", "1048576". Throws Error(usage) on anything else.
size_t parse_memory_size(std::string_view text);

}  // namespace gql
