// A spec the front end refused, as one gql::Error that reads like gqlc's diagnostics: where() is the
// first error's position, and what() is "file:line:col: type error: message" with the source line
// and caret, then the other diagnostics (the error's kind stands where gqlc writes "error").
#pragma once

#include <string>

#include "gql/compiler/compiler.hpp"
#include "gql/error.hpp"

namespace gql::jit {

// `name`: the spec's file or source name, where() when no error has a position (an unreadable file).
Error spec_error(ErrorKind kind, const compiler::Compiler& front, const std::string& name);

}  // namespace gql::jit
