// BFS levels on a symmetrized Kronecker graph: gql's direction-switching BFS beside GraphBLAS's
// BFS written as masked vxm (q<!v, replace> = q any.pair A), same graph, same roots, same run.
// Prints edges/s (Graph500 TEPS: input edges of the reached component per second, harmonic mean).
//
// The graph comes from the runtime's Graph500 Kronecker generator (gql::kronecker, seed 1).
//
// Each root is timed with warm-up and repeats; a record per library carries the harmonic mean over
// roots (rate) and each root's min/median/max time summed over roots (time_s).
//
// Usage: bench_bfs [--scale 20] [--roots 8] [--warmup 1] [--repeats 3] [--json FILE]
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

#include <omp.h>

#include "bench_args.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/generate.hpp"
#include "graphblas_peer.hpp"
#include "host_context.hpp"
#include "measure.hpp"

namespace {

// GraphBLAS BFS: level vector v, frontier q; returns the number of reached vertices.
using gql::bench::grb_check;

GrB_Index graphblas_bfs(GrB_Matrix A, GrB_Index n, GrB_Index source, GrB_Vector v) {
  GrB_Vector q = nullptr;
  grb_check(GrB_Vector_new(&q, GrB_BOOL, n), "GrB_Vector_new");
  grb_check(GrB_Vector_setElement_BOOL(q, true, source), "setElement");
  grb_check(GrB_Vector_clear(v), "clear");
  GrB_Descriptor desc = nullptr;
  grb_check(GrB_Descriptor_new(&desc), "GrB_Descriptor_new");
  grb_check(GrB_Descriptor_set(desc, GrB_MASK, GrB_COMP), "desc");
  grb_check(GrB_Descriptor_set(desc, GrB_MASK, GrB_STRUCTURE), "desc");
  grb_check(GrB_Descriptor_set(desc, GrB_OUTP, GrB_REPLACE), "desc");
  GrB_Index nq = 1;
  for (int32_t level = 0; nq > 0; ++level) {
    grb_check(GrB_Vector_assign_INT32(v, q, nullptr, level, GrB_ALL, n, GrB_DESC_S), "assign");
    grb_check(GrB_vxm(q, v, nullptr, GxB_ANY_PAIR_BOOL, q, A, desc), "GrB_vxm");
    grb_check(GrB_Vector_nvals(&nq, q), "nvals");
  }
  GrB_Index reached = 0;
  grb_check(GrB_Vector_nvals(&reached, v), "nvals");
  GrB_Vector_free(&q);
  GrB_Descriptor_free(&desc);
  return reached;
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace gql::bench;
  Args args(argc, argv, "usage: bench_bfs [--scale 20] [--roots 8] [--warmup 1] [--repeats 3] [--json FILE]");
  gql::KroneckerOptions ko;  // the runtime's Graph500 generator, as `--G kron:20 --symmetrize` gives it
  ko.scale = static_cast<int>(args.integer("scale", 20));
  const int n_roots = static_cast<int>(args.integer("roots", 8));
  const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  const RunContext context = host_context();
  gql::ReadOptions read;
  read.symmetrize = true;
  read.self_loops = gql::SelfLoops::drop;
  const auto G = gql::kronecker<bool>(ko, read);
  const auto n = G.n_rows();

  GraphblasSession session(omp_get_max_threads());
  GrB_Matrix A = to_graphblas(G);
  GrB_Vector v = nullptr;
  grb_check(GrB_Vector_new(&v, GrB_INT32, static_cast<GrB_Index>(n)), "GrB_Vector_new");

  std::mt19937_64 rng(11);
  double inv_ours = 0, inv_theirs = 0;
  std::vector<double> ours_sum(3, 0.0), theirs_sum(3, 0.0);  // min, median, max summed over roots
  int64_t peak_ours = 0, peak_theirs = 0;
  Checksum ours_reached, theirs_reached;  // (root, reached count) per root
  int roots = 0;
  while (roots < n_roots) {
    const auto root = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
    if (G.row_degree(root) == 0) continue;  // Graph500 picks roots with edges
    gql::Vector<int32_t> levels;
    const Measurement ours = measure(repeat, [&] { levels = gql::cpu::bfs_levels(G, G, root); });
    int64_t component_entries = 0;
    for (auto u : levels.indices()) component_entries += G.row_degree(u);
    const double edges = static_cast<double>(component_entries) / 2;  // each undirected edge stored twice
    GrB_Index reached = 0;
    const Measurement theirs = measure(repeat, [&] {
      reached = graphblas_bfs(A, static_cast<GrB_Index>(n), static_cast<GrB_Index>(root), v);
    });
    ours_reached.add(static_cast<uint64_t>(root), 0, levels.nvals());
    theirs_reached.add(static_cast<uint64_t>(root), 0, static_cast<int64_t>(reached));
    inv_ours += ours.time.median / edges;
    inv_theirs += theirs.time.median / edges;
    for (auto [sum, m] : {std::pair{&ours_sum, &ours}, std::pair{&theirs_sum, &theirs}}) {
      (*sum)[0] += m->time.min;
      (*sum)[1] += m->time.median;
      (*sum)[2] += m->time.max;
    }
    peak_ours = std::max(peak_ours, ours.peak_rss);
    peak_theirs = std::max(peak_theirs, theirs.peak_rss);
    ++roots;
  }
  const bool same = ours_reached == theirs_reached;
  for (const bool gql_side : {true, false}) {
    const auto& t = gql_side ? ours_sum : theirs_sum;
    Record r;
    r.text("workload", "bfs").text("case", std::to_string(roots) + " roots").text("graph", "kron:" + std::to_string(ko.scale) + " sym")
        .integer("n", n).integer("nvals", G.nvals()).text("variant", gql_side ? "gql" : "GraphBLAS")
        .text("role", gql_side ? "gql" : "peer");
    r.times({t[0], t[1], t[2], repeat.repeats}).integer("peak_rss_bytes", gql_side ? peak_ours : peak_theirs);
    r.number("rate", roots / (gql_side ? inv_ours : inv_theirs)).text("rate_unit", "TEPS (harmonic mean)")
        .text("checksum", (gql_side ? ours_reached : theirs_reached).hex()).boolean("same_as_gql", same)
        .text("detail", gql_side ? "push/pull, alpha 15, beta 18; times summed over roots" : "masked vxm q<!v,replace> = q any.pair A");
    out.write(stamp_host(r, context));
  }
  std::fprintf(stderr, "bfs kron:%d: gql %.3f G TEPS, GraphBLAS %.3f G TEPS, reached sets %s\n", ko.scale,
               roots / inv_ours * 1e-9, roots / inv_theirs * 1e-9, same ? "equal in size" : "DIFFER");
  GrB_Vector_free(&v);
  GrB_Matrix_free(&A);
  return same ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_bfs: %s\n", e.what());
  return 2;
}
