// The OpenMP code generator: every op runs through gql/cpu/ops.hpp, instantiated with the generated
// semiring policies; schedules become constant option structs.
#include <string>

#include "codegen/kernel_emitter.hpp"
#include "gql/compiler/codegen.hpp"
#include "gql/error.hpp"

namespace gql::compiler {

std::string generate_openmp(const ir::Module& module, const CodegenOptions& options) try {
  if (module.target != ir::Target::openmp)
    throw Error(ErrorKind::internal, "generate_openmp: the module was lowered for another target");
  const codegen::Dialect dialect{"openmp", "gql/cpu/ops.hpp", ir::Target::openmp, "gql/cpu/traversal.hpp",
                                 "gql/cpu/components.hpp"};
  return codegen::emit_program(module, options.source_name, options.with_main, dialect);
} catch (const Error& e) {
  rethrow_in_stage(Stage::codegen, e);
}

}  // namespace gql::compiler
