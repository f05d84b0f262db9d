// bench_jit_calls [--bfs-scale 22] [--roots 64] [--fof-scale 16] [--apsp-n 8192] [--apsp-host-n 0]
// [--lu-n 16384] [--lu-host 0|1] [--runs 7] [--json FILE]: the stdlib's CUDA kernels called as a C++
// program calls them through the JIT, the input loaded and put on the device once. One record per measurement (workload "jit-call").
//   bfs  std/bfs.gql on kron:SCALE symmetrized, graph and result on the device, `roots` searches from
//        Graph500's roots (random vertices with an edge other than a self-loop); each result checked
//        on the host by Graph500's rules; TEPS as Graph500 counts them (input edges of the traversed
//        component, self-loops left out), summarized by their harmonic mean. Twice: the searches
//        back to back (validated after the last), and each validated before the next.
//   fof  std/fof.gql on kron:SCALE: graph and result on the device, and host in and out; median time.
//   apsp std/apsp.gql on a random digraph of n vertices (16 arcs per vertex, weights 1..100) as a
//        distance matrix, matrix and result on the device; rows of 8 sources checked against Dijkstra.
//        With --apsp-host-n, also at that n with the matrix in host memory and the result brought there.
//   lu   std/lu.gql lu_factor on a random n x n matrix of [-1, 1], matrix and factors on the device;
//        rows of P A - L U checked on the host; with --lu-host, also host in and out. (0 leaves a case out.)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gql/device.hpp>
#include <gql/gql.hpp>
#include <gql/jit.hpp>

#include "bench_args.hpp"
#include "bench_record.hpp"
#include "gql/search_roots.hpp"
#include "host_context.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class F>
double seconds(F&& call) {
  const auto start = Clock::now();
  call();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Graph500's checks of a symmetric graph's BFS levels: the root at 0; an edge's ends both reached or
// both not, their levels at most 1 apart; every other reached vertex has a neighbour one level up.
// Returns the input edges of the traversed component (0 when a check fails).
uint64_t validated_edges(const gql::Csr<bool>& g, const gql::Vector<int32_t>& levels, int32_t root) {
  std::vector<int32_t> level(static_cast<size_t>(g.n_rows()), -1);
  for (size_t e = 0; e < levels.indices().size(); ++e) level[static_cast<size_t>(levels.indices()[e])] = levels.values()[e];
  if (level[static_cast<size_t>(root)] != 0) return 0;
  uint64_t edges = 0, errors = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : edges, errors)
  for (int64_t u = 0; u < g.n_rows(); ++u) {
    const int32_t lu = level[static_cast<size_t>(u)];
    bool has_parent = lu <= 0;
    for (gql::offset_t p = g.row_offsets()[u]; p < g.row_offsets()[u + 1]; ++p) {
      const int32_t v = g.col_indices()[p];
      const int32_t lv = level[static_cast<size_t>(v)];
      if ((lu < 0) != (lv < 0) || (lu >= 0 && (lu - lv > 1 || lv - lu > 1))) ++errors;
      if (lu > 0 && lv == lu - 1) has_parent = true;
      if (lu >= 0 && v != u) ++edges;
    }
    if (!has_parent) ++errors;
  }
  return errors == 0 ? edges / 2 : 0;
}

// A random digraph of n vertices with `degree` arcs per vertex (weights 1..100) as a min_plus
// distance matrix (inf where there is no arc, 0 on the diagonal), and its arcs.
struct DistanceInput {
  gql::Matrix<float> matrix;
  std::vector<std::vector<std::pair<int64_t, float>>> arcs;
};

DistanceInput random_distances(int64_t n, int degree, uint64_t seed) {
  DistanceInput in{gql::Matrix<float>(n, n, std::numeric_limits<float>::infinity()),
                   std::vector<std::vector<std::pair<int64_t, float>>>(static_cast<size_t>(n))};
  std::mt19937_64 rng(seed);
  for (int64_t u = 0; u < n; ++u) {
    in.matrix(u, u) = 0;
    for (int e = 0; e < degree; ++e) {
      const auto v = static_cast<int64_t>(rng() % static_cast<uint64_t>(n));
      const auto w = static_cast<float>(rng() % 100 + 1);
      in.arcs[static_cast<size_t>(u)].emplace_back(v, w);
      if (w < in.matrix(u, v)) in.matrix(u, v) = w;
    }
  }
  return in;
}

// Dijkstra from `source` over the arcs: the row of the closure (integer weights: exact in f32).
std::vector<float> dijkstra(const DistanceInput& in, int64_t source) {
  std::vector<float> dist(in.arcs.size(), std::numeric_limits<float>::infinity());
  using Item = std::pair<float, int64_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  dist[static_cast<size_t>(source)] = 0;
  open.emplace(0.0f, source);
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[static_cast<size_t>(u)]) continue;
    for (const auto& [v, w] : in.arcs[static_cast<size_t>(u)])
      if (d + w < dist[static_cast<size_t>(v)]) {
        dist[static_cast<size_t>(v)] = d + w;
        open.emplace(d + w, v);
      }
  }
  return dist;
}

// max over sampled rows i and all j of |(P A)(i, j) - (L U)(i, j)| / max |A|, from the packed factors
// and LAPACK-style pivots.
double sampled_lu_residual(const gql::Matrix<double>& A, const gql::Matrix<double>& LU,
                           const std::vector<int32_t>& pivots, const std::vector<int64_t>& rows) {
  const int64_t n = A.n_rows();
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) perm[static_cast<size_t>(i)] = i;
  for (int64_t k = 0; k < n; ++k) std::swap(perm[static_cast<size_t>(k)], perm[static_cast<size_t>(pivots[static_cast<size_t>(k)])]);
  double largest = 0, worst = 0;
  for (const double a : A.data()) largest = std::max(largest, std::abs(a));
  std::vector<double> row(static_cast<size_t>(n));
  for (const int64_t i : rows) {
    // (L U)(i, j) = sum over k <= min(i, j) of L(i, k) U(k, j), L(i, i) = 1, U(k, j) = 0 below the diagonal.
    std::fill(row.begin(), row.end(), 0.0);
    for (int64_t k = 0; k <= i; ++k) {
      const double l = k == i ? 1.0 : LU(i, k);
#pragma omp parallel for schedule(static)
      for (int64_t j = k; j < n; ++j) row[static_cast<size_t>(j)] += l * LU(k, j);
    }
    for (int64_t j = 0; j < n; ++j)
      worst = std::max(worst, std::abs(A(perm[static_cast<size_t>(i)], j) - row[static_cast<size_t>(j)]));
  }
  return worst / std::max(largest, 1e-300);
}

}  // namespace

int main(int argc, char** argv) try {
  using namespace gql::bench;
  Args args(argc, argv,
            "usage: bench_jit_calls [--bfs-scale 22] [--roots 64] [--fof-scale 16] [--apsp-n 8192] [--apsp-host-n 0] "
            "[--lu-n 16384] [--lu-host 0|1] [--runs 7] [--json FILE]");
  const int bfs_scale = static_cast<int>(args.integer("bfs-scale", 22));
  const int roots_wanted = static_cast<int>(args.integer("roots", 64));
  const int fof_scale = static_cast<int>(args.integer("fof-scale", 16));
  const int64_t apsp_n = args.integer("apsp-n", 8192);
  const int64_t apsp_host_n = args.integer("apsp-host-n", 0);
  const int64_t lu_n = args.integer("lu-n", 16384);
  const bool lu_host = args.integer("lu-host", 0) != 0;
  const int runs = static_cast<int>(args.integer("runs", 7));
  JsonLines out(args.text("json", ""));
  args.check_all_used();
  RunContext context = host_context();
  const auto record = [&] {
    Record r;
    r.text("workload", "jit-call").text("target", "cuda");
    return r;
  };

  gql::Compiler compiler({.target = gql::Target::cuda});
  const gql::Stream stream;

  // ---- BFS: 64 searches on one device graph ----
  if (bfs_scale > 0) {
    auto bfs = compiler.compile_file(GQL_STDLIB_DIR "/bfs.gql").kernel("bfs")
                   .bind<gql::DeviceVector<int32_t>(const gql::DeviceCsr<bool>&, int32_t)>();
    gql::ReadOptions symmetric;
    symmetric.symmetrize = true;
    const std::string graph = "kron:" + std::to_string(bfs_scale);
    const gql::Csr<bool> G = gql::read_graph<bool>(graph, symmetric);
    const gql::DeviceCsr<bool> dG = gql::to_device(G, stream);
    stream.synchronize();
    const std::vector<int64_t> roots = gql::draw_search_roots(G, roots_wanted, 2);
    (void)bfs(dG, static_cast<int32_t>(roots.at(0)));  // loads the kernel and sets the search up on the graph
    // Two orders of the same 64 timed searches: back to back, each result kept on the device and
    // validated after the last (the device stays busy, as between a program's searches), and each
    // validated on the host before the next (the device idles for the validation's tens of ms).
    struct Order {
      const char* variant;
      bool validate_between;
    };
    for (const Order order : {Order{"graph and result on the device, searches back to back", false},
                              Order{"graph and result on the device, each validated before the next", true}}) {
      std::vector<double> times;
      std::vector<gql::DeviceVector<int32_t>> kept;
      double inverse_teps = 0;
      bool valid = true;
      const auto validate = [&](const gql::DeviceVector<int32_t>& levels, size_t i) {
        const uint64_t edges = validated_edges(G, levels.to_host(stream), static_cast<int32_t>(roots[i]));
        valid = valid && edges > 0;
        inverse_teps += times[i] / static_cast<double>(std::max<uint64_t>(edges, 1));
      };
      for (const int64_t root : roots) {
        gql::DeviceVector<int32_t> levels;
        times.push_back(seconds([&] { levels = bfs(dG, static_cast<int32_t>(root)); }));
        if (order.validate_between) validate(levels, times.size() - 1);
        else kept.push_back(std::move(levels));
      }
      for (size_t i = 0; i < kept.size(); ++i) validate(kept[i], i);
      const double gteps = static_cast<double>(roots.size()) / inverse_teps / 1e9;
      std::printf("bfs %s: %zu searches through the JIT, %s: median %.3f ms, %.1f GTEPS (harmonic mean), %s\n",
                  graph.c_str(), roots.size(), order.variant, summarize(times).median * 1e3, gteps,
                  valid ? "all valid" : "INVALID");
      Record r = record();
      r.text("case", "std/bfs.gql bfs")
          .text("graph", graph + " symmetrized")
          .text("variant", order.variant)
          .number("searches", static_cast<double>(roots.size()))
          .number("median_s", summarize(times).median)
          .number("gteps_hmean", gteps)
          .boolean("valid", valid);
      out.write(stamp_host(r, context));
      if (!valid) return 1;
    }
  }

  // ---- fof: device in and out, and host in and out ----
  if (fof_scale > 0) {
    const gql::Kernel fof = compiler.compile_file(GQL_STDLIB_DIR "/fof.gql").kernel("fof");
    auto on_device = fof.bind<gql::DeviceCsr<uint64_t>(const gql::DeviceCsr<bool>&)>();
    auto on_host = fof.bind<gql::Csr<uint64_t>(const gql::Csr<bool>&)>();
    const std::string graph = "kron:" + std::to_string(fof_scale);
    const gql::Csr<bool> G = gql::read_graph<bool>(graph);
    const gql::DeviceCsr<bool> dG = gql::to_device(G, stream);
    stream.synchronize();
    std::vector<double> device_times, host_times;
    int64_t device_entries = 0, host_entries = 0;
    for (int r = 0; r <= runs; ++r) {  // the first run loads the kernel
      const double d = seconds([&] { device_entries = on_device(dG).nvals(); });
      const double h = seconds([&] { host_entries = on_host(G).nvals(); });
      if (r > 0) device_times.push_back(d), host_times.push_back(h);
    }
    std::printf("fof %s: %lld entries; median %.1f ms with graph and result on the device, %.1f ms host in and out\n",
                graph.c_str(), static_cast<long long>(device_entries), summarize(device_times).median * 1e3,
                summarize(host_times).median * 1e3);
    for (const bool device : {true, false}) {
      Record r = record();
      r.text("case", "std/fof.gql fof")
          .text("graph", graph)
          .text("variant", device ? "graph and result on the device" : "graph and result on the host")
          .number("entries", static_cast<double>(device ? device_entries : host_entries))
          .number("median_s", summarize(device ? device_times : host_times).median);
      out.write(stamp_host(r, context));
    }
    if (device_entries != host_entries) return 1;
  }

  // An apsp result's rows of 8 sources against Dijkstra's, printed and recorded; false when one differs.
  const auto report_apsp = [&](const DistanceInput& in, const gql::Matrix<float>& closed,
                               const std::vector<double>& times, const char* variant) {
    const int64_t n = closed.n_rows();
    int64_t wrong = 0;
    for (int s = 0; s < 8; ++s) {
      const int64_t source = s * (n / 8);
      const std::vector<float> expected = dijkstra(in, source);
      for (int64_t j = 0; j < n; ++j) wrong += closed(source, j) != expected[static_cast<size_t>(j)];
    }
    std::printf("apsp n=%lld: median %.1f ms with %s; 8 rows against Dijkstra: %s\n", static_cast<long long>(n),
                summarize(times).median * 1e3, variant, wrong == 0 ? "equal" : "DIFFER");
    Record r = record();
    r.text("case", "std/apsp.gql apsp")
        .number("n", static_cast<double>(n))
        .text("variant", variant)
        .number("median_s", summarize(times).median)
        .boolean("valid", wrong == 0);
    out.write(stamp_host(r, context));
    return wrong == 0;
  };

  // ---- apsp: matrix and result on the device ----
  if (apsp_n > 0) {
    auto apsp = compiler.compile_file(GQL_STDLIB_DIR "/apsp.gql").kernel("apsp")
                    .bind<gql::DeviceMatrix<float>(const gql::DeviceMatrix<float>&)>();
    const DistanceInput in = random_distances(apsp_n, 16, 5);
    const gql::DeviceMatrix<float> dD = gql::to_device(in.matrix, stream);
    gql::DeviceMatrix<float> result = apsp(dD);  // loads the kernel
    std::vector<double> times;
    for (int r = 0; r < std::max(runs / 2, 2); ++r) times.push_back(seconds([&] { result = apsp(dD); }));
    if (!report_apsp(in, result.to_host(stream), times, "matrix and result on the device")) return 1;
  }

  // ---- apsp: matrix in host memory, result brought there (a call's upload, closure and download) ----
  if (apsp_host_n > 0) {
    auto apsp = compiler.compile_file(GQL_STDLIB_DIR "/apsp.gql").kernel("apsp")
                    .bind<gql::Matrix<float>(const gql::Matrix<float>&)>();
    const DistanceInput in = random_distances(apsp_host_n, 16, 5);
    gql::Matrix<float> closed = apsp(in.matrix);  // loads the kernel
    std::vector<double> times;
    for (int r = 0; r < 3; ++r) times.push_back(seconds([&] { closed = apsp(in.matrix); }));
    if (!report_apsp(in, closed, times, "matrix and result in host memory")) return 1;
  }

  // ---- lu: matrix and factors on the device ----
  if (lu_n > 0) {
    using Factors = std::tuple<gql::DeviceMatrix<double>, gql::DeviceVector<int32_t>>;
    auto lu = compiler.compile_file(GQL_STDLIB_DIR "/lu.gql").kernel("lu_factor")
                  .bind<Factors(const gql::DeviceMatrix<double>&)>();
    gql::Matrix<double> A(lu_n, lu_n);
#pragma omp parallel
    {
      std::mt19937_64 rng(17 + static_cast<uint64_t>(omp_get_thread_num()));
      std::uniform_real_distribution<double> value(-1.0, 1.0);
#pragma omp for
      for (int64_t i = 0; i < lu_n; ++i)
        for (int64_t j = 0; j < lu_n; ++j) A(i, j) = value(rng);
    }
    const gql::DeviceMatrix<double> dA = gql::to_device(A, stream);
    Factors factors = lu(dA);  // loads the kernel
    std::vector<double> times;
    for (int r = 0; r < std::max(runs / 2, 2); ++r) times.push_back(seconds([&] { factors = lu(dA); }));
    // The factors' sampled residual (rows of P A - L U), printed and recorded; false when it is large.
    const auto report_lu = [&](const gql::Matrix<double>& packed, const gql::Vector<int32_t>& pivots,
                               const std::vector<double>& lu_times, const char* variant) {
      const std::vector<int32_t> pivot_rows(pivots.values().begin(), pivots.values().end());
      const double residual = sampled_lu_residual(A, packed, pivot_rows, {0, lu_n / 3, lu_n / 2, lu_n - 1});
      const double median = summarize(lu_times).median;
      std::printf("lu n=%lld: median %.1f ms (%.1f TFLOP/s) with %s; sampled residual %.2e\n",
                  static_cast<long long>(lu_n), median * 1e3,
                  2.0 / 3.0 * std::pow(static_cast<double>(lu_n), 3) / median / 1e12, variant, residual);
      Record r = record();
      r.text("case", "std/lu.gql lu_factor")
          .number("n", static_cast<double>(lu_n))
          .text("variant", variant)
          .number("median_s", median)
          .number("sampled_residual", residual)
          .boolean("valid", residual < 1e-10);
      out.write(stamp_host(r, context));
      return residual < 1e-10;
    };
    if (!report_lu(std::get<0>(factors).to_host(stream), std::get<1>(factors).to_host(stream), times,
                   "matrix and factors on the device"))
      return 1;
    if (lu_host) {
      // The same matrix from host memory, the factors brought there.
      using HostFactors = std::tuple<gql::Matrix<double>, gql::Vector<int32_t>>;
      auto lu_on_host = compiler.compile_file(GQL_STDLIB_DIR "/lu.gql").kernel("lu_factor")
                            .bind<HostFactors(const gql::Matrix<double>&)>();
      HostFactors host_factors = lu_on_host(A);
      std::vector<double> host_times;
      for (int run = 0; run < 3; ++run) host_times.push_back(seconds([&] { host_factors = lu_on_host(A); }));
      if (!report_lu(std::get<0>(host_factors), std::get<1>(host_factors), host_times, "matrix and factors in host memory"))
        return 1;
    }
  }
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "bench_jit_calls: %s\n", e.what());
  return 1;
}
