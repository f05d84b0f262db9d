// gapbs's delta-stepping SSSP (its sssp.cc, unchanged) from several roots on one graph built once, with
// the distances written out so that bench/gap/run can check them against gql's:
//   sssp_distances FILE DELTA PREFIX ROOT...
// FILE is read as gapbs's sssp reads it with -s (marked undirected). For each root, prints
// "Trial Time: SECONDS" and writes PREFIX.ROOT: one line "VERTEX DISTANCE" (0-based) per reached
// vertex, in vertex order (from_roots.h).
// Built by bench/gap/run inside its copy of gapbs: c++ -std=c++11 -O3 -fopenmp -I gapbs/src.
#define main gapbs_sssp_main
#include "sssp.cc"
#undef main

#include "from_roots.h"

int main(int argc, char* argv[]) {
  if (argc < 5) {
    std::fprintf(stderr, "usage: %s FILE DELTA PREFIX ROOT...\n", argv[0]);
    return 2;
  }
  std::string file = argv[1], delta = argv[2], prefix = argv[3];
  char* cli_argv[] = {argv[0], const_cast<char*>("-f"), &file[0], const_cast<char*>("-s"),
                      const_cast<char*>("-d"), &delta[0], nullptr};
  CLDelta<WeightT> cli(6, cli_argv, "single-source shortest-path");
  if (!cli.ParseArgs()) return 2;
  WeightedBuilder b(cli);
  const WGraph g = b.MakeGraph();
  return search_from_roots(
      g, prefix, argv + 4, argc - 4, [&](NodeID root) { return DeltaStep(g, root, cli.delta()); },
      [&](std::FILE* out, const pvector<WeightT>& dist) {
        for (NodeID v = 0; v < g.num_nodes(); ++v)
          if (dist[v] != kDistInf) std::fprintf(out, "%d %d\n", v, static_cast<int>(dist[v]));
      });
}
