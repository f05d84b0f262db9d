// The part that bench/gap's gapbs drivers share: one search per root given on the command line, on a
// graph built once, each timed as gapbs's BenchmarkKernel times a trial ("Trial Time: SECONDS", its
// Timer around the search alone) and written to PREFIX.ROOT by `write` (one line per reached
// vertex). Included after gapbs's sources (C++11, as gapbs builds).
#include <cstdio>
#include <cstdlib>
#include <string>

template <class Graph, class Search, class Write>
int search_from_roots(const Graph& g, const std::string& prefix, char** roots, int count, Search search,
                      Write write) {
  for (int a = 0; a < count; ++a) {
    const NodeID root = static_cast<NodeID>(std::atol(roots[a]));
    if (root < 0 || root >= g.num_nodes()) {
      std::fprintf(stderr, "root %d is not a vertex of gapbs's graph\n", root);
      return 1;
    }
    Timer t;
    t.Start();
    const auto result = search(root);
    t.Stop();
    PrintTime("Trial Time", t.Seconds());
    const std::string path = prefix + "." + roots[a];
    std::FILE* out = std::fopen(path.c_str(), "w");
    if (!out) {
      std::perror(path.c_str());
      return 1;
    }
    write(out, result);
    std::fclose(out);
  }
  return 0;
}
