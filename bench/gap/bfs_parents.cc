// gapbs's direction-optimizing BFS (its bfs.cc, unchanged) from several given roots on one graph built
// once, the roots gql's program searches from, with each search's parents written out so that
// bench/gap/run can check gql's levels against them:
//   bfs_parents FILE PREFIX ROOT...
// FILE is read as gapbs's bfs reads it with -s (marked undirected). For each root, prints
// "Trial Time: SECONDS" and writes PREFIX.ROOT: one line "VERTEX PARENT" (0-based; the root its own
// parent) per reached vertex (from_roots.h).
// Built by bench/gap/run inside its copy of gapbs: c++ -std=c++11 -O3 -fopenmp -I gapbs/src.
#define main gapbs_bfs_main
#include "bfs.cc"
#undef main

#include "from_roots.h"

int main(int argc, char* argv[]) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s FILE PREFIX ROOT...\n", argv[0]);
    return 2;
  }
  std::string file = argv[1];
  char* cli_argv[] = {argv[0], const_cast<char*>("-f"), &file[0], const_cast<char*>("-s"), nullptr};
  CLApp cli(4, cli_argv, "breadth-first search");
  if (!cli.ParseArgs()) return 2;
  Builder b(cli);
  const Graph g = b.MakeGraph();
  return search_from_roots(
      g, argv[2], argv + 3, argc - 3, [&](NodeID root) { return DOBFS(g, root); },
      [&](std::FILE* out, const pvector<NodeID>& parent) {
        for (NodeID v = 0; v < g.num_nodes(); ++v)
          if (parent[v] >= 0) std::fprintf(out, "%d %d\n", v, parent[v]);
      });
}
