// gql::Error: the one exception type of the project. Libraries throw it and never print or exit;
// tools catch it, print what() and exit non-zero.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace gql {

enum class ErrorKind {
  parse,     // malformed .gql text
  type,      // a well-formed spec that breaks a typing or semantic rule
  io,        // a file that cannot be read, written or parsed
  cuda,      // a CUDA runtime or driver call failed
  oom,       // out of memory (device or host); callers may split work and retry
  jit,       // generated code did not build (gqlc -o, the JIT) or load ("build error")
  usage,     // a wrong argument from the caller
  requirement,  // arguments whose values break what the computation needs: a spec's require(...), a
                // singular matrix for lu
  internal,  // a broken invariant inside gql itself
};

const char* to_string(ErrorKind kind) noexcept;

// Where an error happened: a file (or API call), and a line/column or a byte offset when known.
struct Location {
  std::string file;
  int64_t line = 0;         // 1-based; 0 = unknown
  int64_t column = 0;       // 1-based; 0 = unknown
  int64_t byte_offset = -1; // for binary files; -1 = unknown
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string reason, Location where = {})
      : std::runtime_error(format(kind, reason, where)),
        kind_(kind),
        reason_(std::move(reason)),
        where_(std::move(where)) {}

  ErrorKind kind() const noexcept { return kind_; }
  const std::string& reason() const noexcept { return reason_; }
  const Location& where() const noexcept { return where_; }

 private:
  // "file:line:col: io error: reason" (parts that are unknown are left out).
  static std::string format(ErrorKind kind, const std::string& reason, const Location& where);

  ErrorKind kind_;
  std::string reason_;
  Location where_;
};

}  // namespace gql
