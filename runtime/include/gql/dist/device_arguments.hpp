// The arguments of a gqlc --mpi CUDA program that the ops over the ranks' GPUs read in parts (the BFS's
// graph, the closure's matrix: plan::uploaded_in_parts): on several ranks each rank uploads only its
// own rows when the op runs, so the program does not upload the value whole to every rank's GPU; on
// one rank the one-GPU ops run and the value is uploaded before the runs, as without --mpi.
//
// Host code; compiles with nvcc (generated programs).
#pragma once

#include "gql/device/program_run.hpp"
#include "gql/device/resident.hpp"
#include "gql/dist/program.hpp"

namespace gql::dist {

template <class Host>
gpu::Resident<Host> uploaded_in_parts(const Host& value) {
  if (program_world().size() > 1) return gpu::Resident<Host>::borrow(value);
  return gpu::uploaded(value);
}

}  // namespace gql::dist
