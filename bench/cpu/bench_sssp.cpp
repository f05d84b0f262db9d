// Single-source shortest paths (min_plus, fp64): gql's frontier Bellman-Ford (the runtime's
// single_source_paths, what the stdlib's sssp kernel runs on the CPU) against GraphBLAS's
// Bellman-Ford as a min_plus vxm loop (d = d min (d min.+ A) until d stops changing), same graph,
// same sources, same run; distance vectors checksummed and compared.
// Graphs: DIMACS road graphs (their integer weights) or generator specs / unweighted files (weights
// 1..100 hashed from each entry's coordinates). Self-loops dropped, parallel arcs keep the lightest.
#include <cstdint>
#include <cstdio>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <omp.h>

#include "bench_args.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/semiring.hpp"
#include "gql/io.hpp"
#include "graph_inputs.hpp"
#include "graphblas_peer.hpp"
#include "bench_semirings.hpp"
#include "host_context.hpp"
#include "measure.hpp"

namespace {

using namespace gql::bench;

using MinPlusF64 = gql::bench::MinPlus<double>;

// GraphBLAS Bellman-Ford: d = {source: 0}; repeat d<min accum> = d min.+ A until d is unchanged.
void graphblas_sssp(GrB_Matrix A, GrB_Index n, GrB_Index source, GrB_Vector d) {
  grb_check(GrB_Vector_clear(d), "clear");
  grb_check(GrB_Vector_setElement_FP64(d, 0.0, source), "setElement");
  GrB_Vector previous = nullptr, same = nullptr;
  grb_check(GrB_Vector_new(&previous, GrB_FP64, n), "GrB_Vector_new");
  grb_check(GrB_Vector_new(&same, GrB_BOOL, n), "GrB_Vector_new");
  for (GrB_Index round = 0; round < n; ++round) {
    grb_check(GrB_Vector_apply(previous, nullptr, nullptr, GrB_IDENTITY_FP64, d, nullptr), "copy");
    grb_check(GrB_vxm(d, nullptr, GrB_MIN_FP64, GrB_MIN_PLUS_SEMIRING_FP64, d, A, nullptr), "GrB_vxm");
    GrB_Index before = 0, after = 0, equal = 0;
    grb_check(GrB_Vector_nvals(&before, previous), "nvals");
    grb_check(GrB_Vector_nvals(&after, d), "nvals");
    if (before != after) continue;
    grb_check(GrB_Vector_eWiseMult_BinaryOp(same, nullptr, nullptr, GrB_EQ_FP64, previous, d, nullptr), "eWiseMult");
    bool all = false;
    grb_check(GrB_Vector_reduce_BOOL(&all, nullptr, GrB_LAND_MONOID_BOOL, same, nullptr), "reduce");
    grb_check(GrB_Vector_nvals(&equal, same), "nvals");
    if (all && equal == after) break;
  }
  GrB_Vector_free(&previous);
  GrB_Vector_free(&same);
}

Checksum vector_checksum(const gql::Vector<double>& v) {
  Checksum sum;
  const auto val = v.values();
  if (v.is_dense()) {  // unreached vertices hold the semiring's zero, absent in GraphBLAS's result
    for (size_t p = 0; p < val.size(); ++p)
      if (val[p] != MinPlusF64::zero()) sum.add(static_cast<uint64_t>(p), 0, val[p]);
    return sum;
  }
  const auto idx = v.indices();
  for (size_t p = 0; p < idx.size(); ++p) sum.add(static_cast<uint64_t>(idx[p]), 0, val[p]);
  return sum;
}

Checksum graphblas_vector_checksum(GrB_Vector v) {
  GrB_Index nvals = 0;
  grb_check(GrB_Vector_nvals(&nvals, v), "nvals");
  std::vector<GrB_Index> I(nvals);
  std::vector<double> X(nvals);
  GrB_Index got = nvals;
  grb_check(GrB_Vector_extractTuples_FP64(I.data(), X.data(), &got, v), "extractTuples");
  Checksum sum;
  for (GrB_Index p = 0; p < got; ++p) sum.add(I[p], 0, X[p]);
  return sum;
}

// A DIMACS file keeps its weights; anything else gets hashed weights on its structure.
gql::Csr<double> load(const std::string& spec) {
  gql::ReadOptions read;
  read.self_loops = gql::SelfLoops::drop;
  read.duplicates = gql::Duplicates::min;
  const bool dimacs = spec.find(".gr") != std::string::npos;
  if (dimacs) return gql::read_graph<double>(spec, read);
  return hashed_weights<double>(gql::read_graph<bool>(spec, read));
}

}  // namespace

int main(int argc, char** argv) try {
  Args args(argc, argv, "usage: bench_sssp [--graphs FILE.gr,kron:12,...] [--sources 4] [--warmup 1] [--repeats 3] [--json FILE]");
  const auto graphs = args.list("graphs", {"kron:12"});
  const int n_sources = static_cast<int>(args.integer("sources", 4));
  const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
  JsonLines out(args.text("json", ""));
  args.check_all_used();

  const RunContext context = host_context();
  GraphblasSession session(omp_get_max_threads());
  bool all_same = true;
  for (const std::string& spec : graphs) {
    const auto G = load(spec);
    const auto n = G.n_rows();
    std::vector<int64_t> sources;  // seeded picks among the vertices with out-edges
    std::mt19937_64 rng(5);
    while (static_cast<int>(sources.size()) < n_sources) {
      const auto s = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      if (G.row_degree(s) > 0) sources.push_back(s);
    }
    // One measured run answers every source in turn; the checksum sums all distance vectors.
    Checksum ours_sum, theirs_sum;
    const Measurement ours = measure(repeat, [&] {
      ours_sum = {};
      for (const int64_t s : sources) {
        const auto d = gql::cpu::single_source_paths<MinPlusF64>(G, s, 0.0);
        const Checksum one = vector_checksum(d);
        ours_sum.sum += one.sum;
        ours_sum.entries += one.entries;
      }
    });
    GrB_Matrix A = to_graphblas(G);
    GrB_Vector d = nullptr;
    grb_check(GrB_Vector_new(&d, GrB_FP64, static_cast<GrB_Index>(n)), "GrB_Vector_new");
    const Measurement theirs = measure(repeat, [&] {
      theirs_sum = {};
      for (const int64_t s : sources) {
        graphblas_sssp(A, static_cast<GrB_Index>(n), static_cast<GrB_Index>(s), d);
        const Checksum one = graphblas_vector_checksum(d);
        theirs_sum.sum += one.sum;
        theirs_sum.entries += one.entries;
      }
    });
    GrB_Vector_free(&d);
    GrB_Matrix_free(&A);
    const bool same = ours_sum == theirs_sum;
    all_same &= same;
    for (const bool gql_side : {true, false}) {
      const Measurement& m = gql_side ? ours : theirs;
      const Checksum& sum = gql_side ? ours_sum : theirs_sum;
      Record r;
      r.text("workload", "sssp").text("case", std::to_string(sources.size()) + " sources").text("graph", graph_name(spec))
          .integer("n", n).integer("nvals", G.nvals()).text("variant", gql_side ? "gql" : "GraphBLAS")
          .text("role", gql_side ? "gql" : "peer");
      measured(r, m);
      // Rate: stored edges per second per source (each source may scan an edge more than once).
      r.number("rate", static_cast<double>(G.nvals()) * static_cast<double>(sources.size()) / m.time.median)
          .text("rate_unit", "edges/s").integer("output_nvals", sum.entries).text("checksum", sum.hex())
          .boolean("same_as_gql", same)
          .text("detail", gql_side ? "frontier Bellman-Ford (single_source_paths)" : "GrB_vxm min_plus loop, MIN accum");
      out.write(stamp_host(r, context));
    }
    std::fprintf(stderr, "sssp %s: gql %.4f s, GraphBLAS %.4f s, checksums %s %s: %s\n", graph_name(spec).c_str(),
                 ours.time.median, theirs.time.median, ours_sum.hex().c_str(), theirs_sum.hex().c_str(),
                 same ? "equal" : "DIFFER");
  }
  return all_same ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_sssp: %s\n", e.what());
  return 2;
}
