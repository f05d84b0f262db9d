// gapbs's direction-optimizing BFS (its bfs.cc, unchanged) from several given roots on one graph built
// once, the roots gql's program searches from, with each search's parents written out so that
// bench/gap/run can check gql's levels against them:
//   bfs_parents FILE PREFIX ROOT...
// FILE is read as gapbs's bfs reads it with -s (marked undirected). For each root, prints
// "Trial Time: SECONDS" (gapbs's Timer around DOBFS alone, as its BenchmarkKernel times a trial) and
// writes PREFIX.ROOT: one line "VERTEX PARENT" (0-based; the root its own parent) per reached vertex.
// Built by bench/gap/run inside its copy of gapbs: c++ -std=c++11 -O3 -fopenmp -I gapbs/src.
#define main gapbs_bfs_main
#include "bfs.cc"
#undef main

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char* argv[]) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FILE PREFIX ROOT...\n", argv[0]);
    return 2;
  }
  std::string file = argv[1], prefix = argv[2];
  char* cli_argv[] = {argv[0], const_cast<char*>("-f"), &file[0], const_cast<char*>("-s"), nullptr};
  CLApp cli(4, cli_argv, "breadth-first search");
  if (!cli.ParseArgs()) return 2;
  Builder b(cli);
  Graph g = b.MakeGraph();
  for (int a = 3; a < argc; ++a) {
    const NodeID root = static_cast<NodeID>(std::atol(argv[a]));
    if (root < 0 || root >= g.num_nodes()) {
      std::fprintf(stderr, "root %d is not a vertex of gapbs's graph\n", root);
      return 1;
    }
    Timer t;
    t.Start();
    pvector<NodeID> parent = DOBFS(g, root);
    t.Stop();
    PrintTime("Trial Time", t.Seconds());
    const std::string path = prefix + "." + argv[a];
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
      std::perror(path.c_str());
      return 1;
    }
    for (NodeID v = 0; v < g.num_nodes(); ++v)
      if (parent[v] >= 0) std::fprintf(out, "%d %d\n", v, parent[v]);
    std::fclose(out);
  }
  return 0;
}
