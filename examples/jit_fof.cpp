// Friends of friends through the JIT: jit_fof [--target cuda|openmp] [GRAPH] (a file or a generator
// spec, default kron:12).
// The first run compiles fof.gql; later runs find the kernel in the cache (GQL_JIT_VERBOSE=1 says which).
#include <chrono>
#include <cstdio>
#include <string>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "jit_target.hpp"

int main(int argc, char** argv) try {
  const gql::Target target = take_target_option(argc, argv);
  const std::string graph = argc > 1 ? argv[1] : "kron:12";
  const auto start = std::chrono::steady_clock::now();
  gql::Compiler compiler({.target = target});
  auto fof = compiler.compile_file(GQL_EXAMPLES_DIR "/fof.gql").kernel("fof")
                 .bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  const double ready = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const gql::Csr<bool> G = gql::read_graph<bool>(graph);
  const gql::Csr<uint64_t> C = fof(G);
  std::printf("%s: %lld vertices, %lld edges; fof has %lld entries (kernel ready after %.3f s)\n", graph.c_str(),
              static_cast<long long>(G.n_rows()), static_cast<long long>(G.nvals()),
              static_cast<long long>(C.nvals()), ready);
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "jit_fof: %s\n", e.what());
  return 1;
}
