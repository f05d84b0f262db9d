// Files the JIT writes whole (generated sources, cache payloads), checked to the end: a write that
// fails, a full disk above all, throws instead of leaving a short file for the next step to trip on
// (an unchecked close once left a 0-byte source, reported as a compiler failure).
#pragma once

#include <string>
#include <string_view>

namespace gql::jit {

enum class WriteMode { replace, append };

// Writes (or appends) `bytes` to `path`. Throws Error(io) "cannot write WHAT: REASON" naming the path;
// a replaced file that could not be written whole is removed.
void write_whole_file(const std::string& path, std::string_view bytes, const std::string& what,
                      WriteMode mode = WriteMode::replace);

}  // namespace gql::jit
