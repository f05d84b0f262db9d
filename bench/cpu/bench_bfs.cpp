// BFS levels on a symmetrized Kronecker graph: gql's direction-switching BFS beside GraphBLAS's
// BFS written as masked vxm (q<!v, replace> = q any.pair A), same graph, same roots, same run.
// Prints edges/s (Graph500 TEPS: input edges of the reached component per second, harmonic mean).
//
// The graph comes from the runtime's Graph500 Kronecker generator (gql::kronecker, seed 1).
//
// Usage: bench_bfs [SCALE=20] [ROOTS=8]
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <omp.h>

#include "gql/cpu/traversal.hpp"
#include "gql/generate.hpp"
#include "graphblas_peer.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// GraphBLAS BFS: level vector v, frontier q; returns the number of reached vertices.
GrB_Index graphblas_bfs(GrB_Matrix A, GrB_Index n, GrB_Index source, GrB_Vector v) {
  GrB_Vector q = nullptr;
  gql::bench::grb_check(GrB_Vector_new(&q, GrB_BOOL, n), "GrB_Vector_new");
  gql::bench::grb_check(GrB_Vector_setElement_BOOL(q, true, source), "setElement");
  gql::bench::grb_check(GrB_Vector_clear(v), "clear");
  GrB_Descriptor desc = nullptr;
  gql::bench::grb_check(GrB_Descriptor_new(&desc), "GrB_Descriptor_new");
  gql::bench::grb_check(GrB_Descriptor_set(desc, GrB_MASK, GrB_COMP), "desc");
  gql::bench::grb_check(GrB_Descriptor_set(desc, GrB_MASK, GrB_STRUCTURE), "desc");
  gql::bench::grb_check(GrB_Descriptor_set(desc, GrB_OUTP, GrB_REPLACE), "desc");
  GrB_Index nq = 1;
  for (int32_t level = 0; nq > 0; ++level) {
    gql::bench::grb_check(GrB_Vector_assign_INT32(v, q, nullptr, level, GrB_ALL, n, GrB_DESC_S), "assign");
    gql::bench::grb_check(GrB_vxm(q, v, nullptr, GxB_ANY_PAIR_BOOL, q, A, desc), "GrB_vxm");
    gql::bench::grb_check(GrB_Vector_nvals(&nq, q), "nvals");
  }
  GrB_Index reached = 0;
  gql::bench::grb_check(GrB_Vector_nvals(&reached, v), "nvals");
  GrB_Vector_free(&q);
  GrB_Descriptor_free(&desc);
  return reached;
}

}  // namespace

int main(int argc, char** argv) {
  gql::KroneckerOptions ko;  // the runtime's Graph500 generator, as `--G kron:20 --symmetrize` gives it
  ko.scale = argc > 1 ? std::atoi(argv[1]) : 20;
  const int n_roots = argc > 2 ? std::atoi(argv[2]) : 8;
  gql::ReadOptions read;
  read.symmetrize = true;
  read.self_loops = gql::SelfLoops::drop;
  const auto G = gql::kronecker<bool>(ko, read);
  const auto n = G.n_rows();
  std::printf("graph: kron:%d edgefactor %lld symmetrized, n = %lld, stored entries = %lld, threads = %d\n", ko.scale,
              static_cast<long long>(ko.edge_factor), static_cast<long long>(n), static_cast<long long>(G.nvals()), omp_get_max_threads());

  gql::bench::grb_check(GrB_init(GrB_NONBLOCKING), "GrB_init");
  gql::bench::grb_check(GxB_Global_Option_set_INT32(GxB_GLOBAL_NTHREADS, omp_get_max_threads()), "nthreads");
  GrB_Matrix A = gql::bench::to_graphblas(G);
  GrB_Vector v = nullptr;
  gql::bench::grb_check(GrB_Vector_new(&v, GrB_INT32, static_cast<GrB_Index>(n)), "GrB_Vector_new");

  std::mt19937_64 rng(11);
  double inv_ours = 0, inv_theirs = 0;
  int roots = 0;
  bool agree = true;
  while (roots < n_roots) {
    const auto root = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    if (G.row_degree(root) == 0) continue;  // Graph500 picks roots with edges
    auto t0 = std::chrono::steady_clock::now();
    const auto levels = gql::cpu::bfs_levels(G, G, root);
    const double ours = seconds_since(t0);
    int64_t component_entries = 0;
    for (auto u : levels.indices()) component_entries += G.row_degree(u);
    const double edges = static_cast<double>(component_entries) / 2;  // each undirected edge stored twice
    t0 = std::chrono::steady_clock::now();
    const GrB_Index reached = graphblas_bfs(A, static_cast<GrB_Index>(n), static_cast<GrB_Index>(root), v);
    const double theirs = seconds_since(t0);
    agree = agree && reached == static_cast<GrB_Index>(levels.nvals());
    inv_ours += ours / edges;
    inv_theirs += theirs / edges;
    ++roots;
  }
  std::printf("gql BFS (push/pull, alpha 15, beta 18): %.3f G edges/s (harmonic mean over %d roots)\n",
              roots / inv_ours * 1e-9, roots);
  std::printf("GraphBLAS masked vxm BFS:               %.3f G edges/s\n", roots / inv_theirs * 1e-9);
  std::printf("reached sets %s\n", agree ? "equal in size" : "DIFFER");
  GrB_Vector_free(&v);
  GrB_Matrix_free(&A);
  GrB_finalize();
  return agree ? 0 : 1;
}
