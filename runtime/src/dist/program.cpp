#include "gql/dist/program.hpp"

#include "gql/error.hpp"
#include "gql/program.hpp"

namespace gql::dist {
namespace {
const World* current = nullptr;
}

ProgramWorld::ProgramWorld(int* argc, char*** argv) : world_(argc, argv) {
  current = &world_;
  set_program_writes(world_.rank() == 0);
}

ProgramWorld::~ProgramWorld() { current = nullptr; }

const World& program_world() {
  if (current == nullptr) throw Error(ErrorKind::internal, "a distributed op ran outside a program's ranks (no ProgramWorld)");
  return *current;
}

}  // namespace gql::dist
