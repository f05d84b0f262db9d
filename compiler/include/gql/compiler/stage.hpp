// The stages of a compilation and the error that names the one that failed.
#pragma once

#include "gql/error.hpp"

namespace gql::compiler {

// The stages, in order. The front end (Compiler, compiler.hpp) runs read, parse, imports and sema and
// says which stopped it (Compiler::failed_stage, with the diagnostics it recorded); codegen
// (codegen.hpp) and build (toolchain.hpp) throw StageError. Plan (plan.hpp) raises no errors.
enum class Stage {
  none,     // nothing failed
  read,     // the spec's own file could not be read, or holds too much text
  parse,    // the spec's own text is not well-formed (a syntax error)
  imports,  // an import could not be found, read or parsed, or imports nest too deeply
  sema,     // a well-formed spec breaks a rule of names, types, semirings or schedules
  plan,
  codegen,  // the IR could not be written as source (an internal error)
  build,    // the generated source did not build (Error(jit) with the compiler's messages) or be written
};
const char* to_string(Stage stage) noexcept;

// A gql::Error (its kind, reason, location and what() unchanged) that also says the stage it came
// from. Catching gql::Error catches it.
class StageError : public Error {
 public:
  StageError(Stage stage, const Error& error) : Error(error), stage_(stage) {}
  Stage stage() const noexcept { return stage_; }

 private:
  Stage stage_;
};

// In a handler: rethrows the error being handled as a StageError of `stage` (one already is, as it is).
[[noreturn]] inline void rethrow_in_stage(Stage stage, const Error& error) {
  if (dynamic_cast<const StageError*>(&error)) throw;
  throw StageError(stage, error);
}

}  // namespace gql::compiler
