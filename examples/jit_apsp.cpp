// All-pairs shortest paths through the JIT: jit_apsp [--target cuda|openmp] [N] (a random N x N
// distance matrix, default 512).
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "jit_target.hpp"

int main(int argc, char** argv) try {
  const gql::Target target = take_target_option(argc, argv);
  const int64_t n = argc > 1 ? std::atoll(argv[1]) : 512;
  gql::Compiler compiler({.target = target});
  auto apsp = compiler.compile_file(GQL_EXAMPLES_DIR "/apsp.gql").kernel("apsp")
                  .bind<gql::Matrix<float>(const gql::Matrix<float>&)>();
  // About 4 edges per vertex with weights 1..100; no edge is +inf.
  gql::Matrix<float> D(n, n, std::numeric_limits<float>::infinity());
  std::mt19937 rng(1);
  std::uniform_int_distribution<int64_t> vertex(0, n - 1);
  std::uniform_int_distribution<int> weight(1, 100);
  for (int64_t i = 0; i < n; ++i)
    for (int e = 0; e < 4; ++e) D(i, vertex(rng)) = static_cast<float>(weight(rng));
  const gql::Matrix<float> dist = apsp(D);
  int64_t reachable = 0;
  for (float d : dist.data()) reachable += d < std::numeric_limits<float>::infinity();
  std::printf("apsp on %lld vertices: %lld of %lld pairs connected, d(0, %lld) = %g\n", static_cast<long long>(n),
              static_cast<long long>(reachable), static_cast<long long>(n * n), static_cast<long long>(n - 1),
              static_cast<double>(dist(0, n - 1)));
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "jit_apsp: %s\n", e.what());
  return 1;
}
