// The run of a program that gqlc built with --mpi (docs/programs.md, "Several processes"): its main
// makes one ProgramWorld before gql::run_program, the kernels' distributed ops find the ranks through
// program_world(), and only rank 0 writes the program's results, summary and errors (every rank
// computes the same, gql/dist/world.hpp). Started without a launcher, it runs as one rank.
#pragma once

#include "gql/dist/world.hpp"

namespace gql::dist {

class ProgramWorld {
 public:
  ProgramWorld(int* argc, char*** argv);
  ProgramWorld(const ProgramWorld&) = delete;
  ProgramWorld& operator=(const ProgramWorld&) = delete;
  ~ProgramWorld();

 private:
  World world_;
};

// The ranks of this program's run; Error(internal) when no ProgramWorld exists.
const World& program_world();

}  // namespace gql::dist
