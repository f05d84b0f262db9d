#include "gql/error.hpp"

namespace gql {

const char* to_string(ErrorKind kind) noexcept {
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

std::string Error::format(ErrorKind kind, const std::string& reason, const Location& where) {
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

}  // namespace gql
