// Breadth-first search through the JIT: jit_bfs [--target cuda|openmp] [GRAPH] [SOURCE] (default
// kron:14 from its highest-degree vertex: many Kronecker vertices are isolated).
#include <cstdio>
#include <cstdlib>
#include <string>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "jit_target.hpp"

int main(int argc, char** argv) try {
  const gql::Target target = take_target_option(argc, argv);
  const std::string graph = argc > 1 ? argv[1] : "kron:14";
  gql::Compiler compiler({.target = target});
  auto bfs = compiler.compile_file(GQL_EXAMPLES_DIR "/bfs.gql").kernel("bfs")
                 .bind<gql::Vector<int32_t>(const gql::Csr<bool>&, int32_t)>();
  const gql::Csr<bool> G = gql::read_graph<bool>(graph);
  int32_t source = 0;
  if (argc > 2) {
    source = static_cast<int32_t>(std::atoi(argv[2]));
  } else {
    for (int64_t v = 1; v < G.n_rows(); ++v)
      if (G.row_degree(v) > G.row_degree(source)) source = static_cast<int32_t>(v);
  }
  const gql::Vector<int32_t> depth = bfs(G, source);
  int32_t deepest = 0;
  for (int32_t d : depth.values()) deepest = d > deepest ? d : deepest;
  std::printf("%s: %lld of %lld vertices reached from %d, deepest level %d\n", graph.c_str(),
              static_cast<long long>(depth.nvals()), static_cast<long long>(G.n_rows()), source, deepest);
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "jit_bfs: %s\n", e.what());
  return 1;
}
