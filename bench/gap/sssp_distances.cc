// gapbs's delta-stepping SSSP (its sssp.cc, unchanged) from several roots on one graph built once, with
// the distances written out so that bench/gap/run can check them against gql's:
//   sssp_distances FILE DELTA PREFIX ROOT...
// FILE is read as gapbs's sssp reads it with -s (marked undirected). For each root, prints
// "Trial Time: SECONDS" (gapbs's Timer around DeltaStep alone, as its BenchmarkKernel times a trial)
// and writes PREFIX.ROOT: one line "VERTEX DISTANCE" (0-based) per reached vertex, in vertex order.
// Built by bench/gap/run inside its copy of gapbs: c++ -std=c++11 -O3 -fopenmp -I gapbs/src.
#define main gapbs_sssp_main
#include "sssp.cc"
#undef main

#include <cstdio>
#include <cstdlib>
#include <string>

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
  WGraph g = b.MakeGraph();
  for (int a = 4; a < argc; ++a) {
    const NodeID root = static_cast<NodeID>(std::atol(argv[a]));
    if (root < 0 || root >= g.num_nodes()) {
      std::fprintf(stderr, "root %d is not a vertex of gapbs's graph\n", root);
      return 1;
    }
    Timer t;
    t.Start();
    pvector<WeightT> dist = DeltaStep(g, root, cli.delta());
    t.Stop();
    PrintTime("Trial Time", t.Seconds());
    const std::string path = prefix + "." + argv[a];
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
      std::perror(path.c_str());
      return 1;
    }
    for (NodeID v = 0; v < g.num_nodes(); ++v)
      if (dist[v] != kDistInf) std::fprintf(out, "%d %d\n", v, static_cast<int>(dist[v]));
    std::fclose(out);
  }
  return 0;
}
