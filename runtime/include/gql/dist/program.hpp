// The run of a program that gqlc built with --mpi (docs/programs.md, "Several processes"): its main
// makes one ProgramWorld before gql::run_program, the kernels' distributed ops find the ranks through
// program_world(), and only rank 0 writes the program's results, summary and errors (every rank
// computes the same, gql/dist/world.hpp). Started without a launcher, it runs as one rank.
//
// A graph parameter that only split-capable ops read (the plan's choice, docs/programs.md) is read by
// rank 0 alone and sent out in blocks (read_split_graph); its vertex parameters' random roots are
// drawn by all ranks together from the blocks, the same roots as the one-process program's. A matrix
// parameter that the kernel holds split (a closure's, plan::split_matrix) is read and sent out the
// same way (read_split_matrix).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gql/dist/joined.hpp"
#include "gql/dist/split_graph.hpp"
#include "gql/dist/split_matrix.hpp"
#include "gql/dist/world.hpp"
#include "gql/program.hpp"
#include "gql/search_roots.hpp"

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
// Makes `world` (a caller's, which outlives the calls) the ranks of the distributed ops: a kernel
// library that the JIT compiled for several processes holds its own copy of this library, and is
// handed its caller's World when loaded (gql/jit.hpp, CompilerOptions::ranks).
void use_program_world(const World& world) noexcept;

namespace detail {
// A parameter that `read()` reads on rank 0 as the one-process program reads it (an error there is
// every rank's), then split across the ranks (scatter_rows); both timed as the load.
template <class Whole, class Read>
auto read_on_root_then_scattered(Invocation& inv, Read&& read) {
  const World& world = program_world();
  std::optional<Whole> whole;
  world.on_every_rank([&] {
    if (world.rank() == 0) whole.emplace(read());
  });
  return inv.once(Phase::load, [&] { return scatter_rows(world, whole ? &*whole : nullptr); });
}
}  // namespace detail

// Graph parameter `name`, split in blocks of rows of equal edges.
template <class T>
SplitGraph<T> read_split_graph(Invocation& inv, const std::string& name) {
  return detail::read_on_root_then_scattered<Csr<T>>(inv, [&] { return inv.graph<T>(name); });
}

// Matrix parameter `name`, split in blocks of whole k-blocks of the distributed closure
// (gql/dist/closure.hpp).
template <class T>
SplitMatrix<T> read_split_matrix(Invocation& inv, const std::string& name) {
  return detail::read_on_root_then_scattered<Matrix<T>>(inv, [&] { return inv.matrix<T>(name); });
}

// Vertex parameter `name` of a kernel whose first graph is split: ids checked against its vertices;
// `random:` draws from every rank's candidates joined in rank order, so the roots are the ones the
// one-process program draws from the whole graph.
template <class T>
RunValues<int64_t> vertices(Invocation& inv, const std::string& name, const SplitGraph<T>& first) {
  const World& world = program_world();
  const std::function<std::vector<int64_t>(int64_t, uint64_t)> draw = [&](int64_t count, uint64_t seed) {
    const std::vector<int64_t> mine = root_candidates(first.block(), first.mine().begin);
    const Array<int64_t> all = detail::all_items<int64_t>(world, mine);
    return draw_from_candidates(std::vector<int64_t>(all.begin(), all.end()), count, seed);
  };
  return inv.vertices(name, first.n_rows(), draw);
}

}  // namespace gql::dist
