// gql::Error: the one exception type of the project. Libraries throw it and never print or exit;
// tools catch it, print what() and exit non-zero. Header-only (the core layer): the compiler and the
// runtime both throw it, and neither links the other for it.
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

inline const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::parse: return "parse error";
    case ErrorKind::type: return "type error";
    case ErrorKind::io: return "io error";
    case ErrorKind::cuda: return "cuda error";
    case ErrorKind::oom: return "out of memory";
    case ErrorKind::jit: return "build error";  // gqlc -o as the JIT: generated code that does not build or load
    case ErrorKind::usage: return "usage error";
    case ErrorKind::requirement: return "requirement failed";
    case ErrorKind::internal: return "internal error";
  }
  return "error";
}

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
  static std::string format(ErrorKind kind, const std::string& reason, const Location& where) {
    std::string out;
    if (!where.file.empty()) {
      out += where.file;
      if (where.line > 0) {
        out += ':' + std::to_string(where.line);
        if (where.column > 0) out += ':' + std::to_string(where.column);
      } else if (where.byte_offset >= 0) {
        out += ": byte " + std::to_string(where.byte_offset);
      }
      out += ": ";
    }
    out += to_string(kind);
    out += ": ";
    out += reason;
    return out;
  }

  ErrorKind kind_;
  std::string reason_;
  Location where_;
};

}  // namespace gql
