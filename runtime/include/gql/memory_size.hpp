// Memory sizes as the environment's caps spell them (GQL_HOST_MEMORY_LIMIT, GQL_DEVICE_MEMORY_LIMIT).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace gql {

// Parses a memory size: a byte count, or a number with a binary suffix K, M, G or T (optionally
// followed by "B" or "iB"), e.g. "2G", "512M", "1048576". Throws Error(usage) on anything else.
size_t parse_memory_size(std::string_view text);

// The cap the environment variable `name` sets (a memory size), or none when it is unset or empty.
// Throws Error(usage) naming the variable when its value is not a memory size.
std::optional<size_t> memory_limit_from_environment(const char* name);

}  // namespace gql
