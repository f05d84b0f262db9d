// package_app PREFIX: runs two_hop.gql as generated at build time (gql_add_kernels) and through the
// JIT of the installed gql, checks both answers against a direct count, and checks that the JIT
// built against the installation under PREFIX.
#include <cstdio>
#include <filesystem>
#include <string>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "two_hop.gql.hpp"

int main(int argc, char** argv) try {
  if (argc != 2) return 2;
  gql::Compiler compiler;
  namespace fs = std::filesystem;
  if (fs::weakly_canonical(compiler.options().root) != fs::weakly_canonical(argv[1])) {
    std::fprintf(stderr, "package_app: the JIT uses '%s', not the installation '%s'\n",
                 compiler.options().root.c_str(), argv[1]);
    return 1;
  }
  auto paths2 = compiler.compile_file(SPEC).kernel("paths2").bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
  // A directed 4-cycle 0 -> 1 -> 2 -> 3 -> 0 plus the chord 0 -> 2: two-hop paths 0->2 (via 1),
  // 0->3 (via 2), 1->3, 2->0, 3->1, 3->2 (via 0): six entries, each one path.
  const gql::Csr<bool> G(4, 4, {0, 2, 3, 4, 5}, {1, 2, 2, 3, 0});
  gql::KernelContext context;
  const gql::Csr<uint64_t> jit = paths2(G);
  const gql::Csr<uint64_t> aot = gqlgen::paths2(G, context);
  for (const gql::Csr<uint64_t>* C : {&jit, &aot}) {
    C->validate();
    uint64_t total = 0;
    for (uint64_t v : C->values()) total += v;
    if (C->nvals() != 6 || total != 6) {
      std::fprintf(stderr, "package_app: wrong answer from the %s kernel (%lld entries, %llu paths)\n",
                   C == &jit ? "JIT" : "build-time", static_cast<long long>(C->nvals()),
                   static_cast<unsigned long long>(total));
      return 1;
    }
  }
  std::printf("package_app: ok\n");
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "package_app: %s\n", e.what());
  return 1;
}
