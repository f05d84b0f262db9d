// C = A * A over several semirings: gql's OpenMP SpGEMM against SuiteSparse:GraphBLAS GrB_mxm with
// the matching built-in semiring, same graph, same run, both outputs checksummed and compared.
//   paths     plus_pair, counts in uint64 (fof)    GxB_PLUS_PAIR_UINT64
//   min_plus  fp32, hashed weights 1..100          GrB_MIN_PLUS_SEMIRING_FP32
//   max_min   fp32, hashed weights 1..100          GrB_MAX_MIN_SEMIRING_FP32
//   any_pair  bool (the pattern of A * A)          GxB_ANY_PAIR_BOOL
// Graphs: generator specs ("kron:16": Graph500's generator, seed 1) or files; self-loops dropped.
// "products" is the number of con applications (the same for both libraries).
#include <cstdint>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <omp.h>
#include <sys/resource.h>

#include "bench_args.hpp"
#include "gql/cpu/spgemm.hpp"
#include "gql/io.hpp"
#include "graph_inputs.hpp"
#include "graphblas_peer.hpp"
#include "bench_semirings.hpp"
#include "host_context.hpp"
#include "measure.hpp"

namespace {

using namespace gql::bench;

// CPU seconds (user + system, all threads) and page faults of this process so far.
struct Usage {
  double cpu_seconds = 0;
  int64_t minor_faults = 0, major_faults = 0;
};

Usage usage_now() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto seconds = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return {seconds(u.ru_utime) + seconds(u.ru_stime), u.ru_minflt, u.ru_majflt};
}

// VmRSS of /proc/self/status in MiB (0 where it cannot be read).
int64_t resident_mib() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  long long kib = 0;
  while (std::fgets(line, sizeof line, f))
    if (std::sscanf(line, "VmRSS: %lld", &kib) == 1) break;
  std::fclose(f);
  return kib / 1024;
}

// One run's wall phases (gql's own timers), CPU time and page faults, on stderr: where the time of a
// run goes, and why one run differs from another.
void report_run(const char* semiring, const gql::cpu::SpgemmStats& s, const Usage& before, const Usage& after,
                int64_t rss_before) {
  std::fprintf(stderr,
               "  %s run: bounds %.3f s, symbolic %.3f s, allocate %.3f s, numeric %.3f s; cpu %.3f s; "
               "minor faults %lld, major %lld; VmRSS %lld -> %lld MiB\n",
               semiring, s.seconds_bounds, s.seconds_symbolic, s.seconds_allocate, s.seconds_numeric,
               after.cpu_seconds - before.cpu_seconds, static_cast<long long>(after.minor_faults - before.minor_faults),
               static_cast<long long>(after.major_faults - before.major_faults), static_cast<long long>(rss_before),
               static_cast<long long>(resident_mib()));
}

class Runner {
 public:
  Runner(JsonLines& out, const RunContext& context, const Repeat& repeat, bool with_peer)
      : out_(out), context_(context), repeat_(repeat), with_peer_(with_peer) {}

  // One semiring on one graph: gql, then GraphBLAS (unless the peer is left out); returns whether the
  // outputs agree.
  template <class S, class T>
  bool run(const char* semiring, const std::string& graph, const gql::Csr<T>& A, GrB_Semiring peer_semiring) {
    using V = typename S::value_type;
    gql::cpu::SpgemmStats stats;
    gql::Csr<V> C;
    // Each run first releases the previous run's output (both libraries), as a program computing one
    // product would not hold it: holding it doubled the footprint and sent the next output's first
    // touch to memory the hypervisor had taken back (see docs/performance.md, CPU).
    const Measurement ours = measure(repeat_, [&] {
      C = {};
      const Usage before = usage_now();
      const int64_t rss = resident_mib();
      C = gql::cpu::spgemm<S>(A, A, {}, {}, &stats);
      report_run(semiring, stats, before, usage_now(), rss);
    });
    const Checksum our_sum = csr_checksum(C);
    const auto products = static_cast<double>(stats.products);
    if (!with_peer_) {
      emit(semiring, graph, A, "gql", "gql", ours, products, our_sum, true,
           "rows dense " + std::to_string(stats.rows_dense) + ", hash " + std::to_string(stats.rows_hash));
      std::fprintf(stderr, "%s %s: gql %.3f s, checksum %s (%lld entries)\n", semiring, graph.c_str(), ours.time.median,
                   our_sum.hex().c_str(), static_cast<long long>(our_sum.entries));
      return true;
    }

    GrB_Matrix a = to_graphblas(A);
    GrB_Matrix c = nullptr;
    grb_check(GrB_Matrix_new(&c, grb_type<V>(), static_cast<GrB_Index>(A.n_rows()), static_cast<GrB_Index>(A.n_cols())),
              "GrB_Matrix_new");
    const Measurement theirs = measure(repeat_, [&] {
      grb_check(GrB_Matrix_clear(c), "GrB_Matrix_clear");
      const Usage before = usage_now();
      grb_check(GrB_mxm(c, nullptr, nullptr, peer_semiring, a, a, GrB_DESC_R), "GrB_mxm");
      grb_check(GrB_Matrix_wait(c, GrB_MATERIALIZE), "GrB_Matrix_wait");
      const Usage after = usage_now();
      std::fprintf(stderr, "  %s GraphBLAS run: cpu %.3f s, minor faults %lld\n", semiring,
                   after.cpu_seconds - before.cpu_seconds, static_cast<long long>(after.minor_faults - before.minor_faults));
    });
    const Checksum their_sum = graphblas_checksum<V>(c);
    GrB_Matrix_free(&a);
    GrB_Matrix_free(&c);

    const bool same = our_sum == their_sum;
    emit(semiring, graph, A, "gql", "gql", ours, products, our_sum, true,
         "rows dense " + std::to_string(stats.rows_dense) + ", hash " + std::to_string(stats.rows_hash));
    emit(semiring, graph, A, "GraphBLAS", "peer", theirs, products, their_sum, same, "GrB_mxm, built-in semiring");
    std::fprintf(stderr, "%s %s: gql %.3f s, GraphBLAS %.3f s (%.2fx), checksums %s %s: %s\n", semiring,
                 graph.c_str(), ours.time.median, theirs.time.median, theirs.time.median / ours.time.median,
                 our_sum.hex().c_str(), their_sum.hex().c_str(), same ? "equal" : "DIFFER");
    return same;
  }

 private:
  template <class T>
  void emit(const char* semiring, const std::string& graph, const gql::Csr<T>& A, const char* variant, const char* role,
            const Measurement& m, double products, const Checksum& sum, bool same, const std::string& detail) {
    Record r;
    r.text("workload", "products").text("case", semiring).text("graph", graph).integer("n", A.n_rows())
        .integer("nvals", A.nvals()).text("variant", variant).text("role", role);
    measured(r, m);
    r.number("products", products).number("rate", products / m.time.median).text("rate_unit", "products/s")
        .integer("output_nvals", sum.entries).text("checksum", sum.hex()).boolean("same_as_gql", same)
        .text("detail", detail);
    out_.write(stamp_host(r, context_));
  }

  JsonLines& out_;
  const RunContext& context_;
  Repeat repeat_;
  bool with_peer_;
};

}  // namespace

int main(int argc, char** argv) try {
  Args args(argc, argv,
            "usage: bench_products [--graphs kron:14,FILE,...] [--semirings paths,min_plus,max_min,any_pair] "
            "[--peer graphblas|none] [--warmup 1] [--repeats 3] [--json FILE]");
  const auto graphs = args.list("graphs", {"kron:14"});
  const auto semirings = args.list("semirings", {"paths", "min_plus", "max_min", "any_pair"});
  const Repeat repeat{static_cast<int>(args.integer("warmup", 1)), static_cast<int>(args.integer("repeats", 3))};
  const std::string peer = args.text("peer", "graphblas");
  if (peer != "graphblas" && peer != "none") throw std::invalid_argument("--peer " + peer + ": graphblas or none");
  JsonLines out(args.text("json", ""));
  args.check_all_used();

  const RunContext context = host_context();
  GraphblasSession session(omp_get_max_threads());
  Runner runner(out, context, repeat, peer == "graphblas");
  bool all_same = true;
  for (const std::string& spec : graphs) {
    gql::ReadOptions read;
    read.self_loops = gql::SelfLoops::drop;  // duplicates collapse into one entry
    const auto pattern = gql::read_graph<bool>(spec, read);
    const auto weighted = hashed_weights<float>(pattern);
    const std::string name = graph_name(spec);
    for (const std::string& s : semirings) {
      if (s == "paths") all_same &= runner.run<Paths>("paths", name, pattern, GxB_PLUS_PAIR_UINT64);
      else if (s == "min_plus") all_same &= runner.run<MinPlus<float>>("min_plus", name, weighted, GrB_MIN_PLUS_SEMIRING_FP32);
      else if (s == "max_min") all_same &= runner.run<MaxMin<float>>("max_min", name, weighted, GrB_MAX_MIN_SEMIRING_FP32);
      else if (s == "any_pair") all_same &= runner.run<AnyPair>("any_pair", name, pattern, GxB_ANY_PAIR_BOOL);
      else throw std::invalid_argument("unknown semiring " + s);
    }
  }
  return all_same ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_products: %s\n", e.what());
  return 2;
}
