#include "gql/dist/program.hpp"

#include <omp.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "gql/error.hpp"
#include "gql/program.hpp"

namespace gql::dist {
namespace {
const World* current = nullptr;

// Without OMP_NUM_THREADS, the ranks of one host that may run on the same CPUs (launched unbound, or
// bound to one socket together) share them: each takes its part of them, so that R ranks do not run
// R times the threads the CPUs have. A rank bound to CPUs of its own keeps OpenMP's default, all of
// its CPUs; a program's --threads overrides either.
void share_cpus(const World& world) {
  if (world.size() == 1 || std::getenv("OMP_NUM_THREADS") != nullptr) return;
  struct Cpus {  // no padding: every byte is compared
    char host[256];
    cpu_set_t set;
  } mine;
  std::memset(&mine, 0, sizeof mine);
  if (gethostname(mine.host, sizeof mine.host - 1) != 0 || sched_getaffinity(0, sizeof mine.set, &mine.set) != 0)
    std::memset(&mine, 0, sizeof mine);  // unknown: shared with no one
  const std::vector<std::byte> all = world.all_parts(std::as_bytes(std::span<const Cpus>(&mine, 1)));
  int sharing = 0;
  for (size_t at = 0; at + sizeof mine <= all.size(); at += sizeof mine)
    sharing += std::memcmp(all.data() + at, &mine, sizeof mine) == 0;
  const int cpus = CPU_COUNT(&mine.set);
  if (sharing > 1 && cpus > 0) omp_set_num_threads(std::max(1, cpus / sharing));
}

}  // namespace

ProgramWorld::ProgramWorld(int* argc, char*** argv) : world_(argc, argv) {
  share_cpus(world_);
  current = &world_;
  set_program_writes(world_.rank() == 0);
}

ProgramWorld::~ProgramWorld() { current = nullptr; }

void use_program_world(const World& world) noexcept { current = &world; }

const World& program_world() {
  if (current == nullptr) throw Error(ErrorKind::internal, "a distributed op ran outside a program's ranks (no ProgramWorld)");
  return *current;
}

}  // namespace gql::dist
