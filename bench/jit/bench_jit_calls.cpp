// bench_jit_calls [--bfs-scale 22] [--roots 64] [--fof-scale 16] [--runs 7] [--json FILE]: the stdlib's
// CUDA kernels called as a C++ program calls them through the JIT, the graph loaded and put on the
// device once. One record per measurement (workload "jit-call").
//   bfs  std/bfs.gql on kron:SCALE symmetrized, graph and result on the device, `roots` searches from
//        Graph500's roots (random vertices with an edge other than a self-loop); each result checked
//        on the host by Graph500's rules; TEPS as Graph500 counts them (input edges of the traversed
//        component, self-loops left out), summarized by their harmonic mean.
//   fof  std/fof.gql on kron:SCALE: graph and result on the device, and host in and out; median time.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include <gql/device.hpp>
#include <gql/gql.hpp>

#include "bench_args.hpp"
#include "bench_record.hpp"
#include "graph500_roots.hpp"
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

}  // namespace

int main(int argc, char** argv) try {
  using namespace gql::bench;
  Args args(argc, argv, "usage: bench_jit_calls [--bfs-scale 22] [--roots 64] [--fof-scale 16] [--runs 7] [--json FILE]");
  const int bfs_scale = static_cast<int>(args.integer("bfs-scale", 22));
  const int roots_wanted = static_cast<int>(args.integer("roots", 64));
  const int fof_scale = static_cast<int>(args.integer("fof-scale", 16));
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
  {
    auto bfs = compiler.compile_file(GQL_STDLIB_DIR "/bfs.gql").kernel("bfs")
                   .bind<gql::DeviceVector<int32_t>(const gql::DeviceCsr<bool>&, int32_t)>();
    gql::ReadOptions symmetric;
    symmetric.symmetrize = true;
    const std::string graph = "kron:" + std::to_string(bfs_scale);
    const gql::Csr<bool> G = gql::read_graph<bool>(graph, symmetric);
    const gql::DeviceCsr<bool> dG = gql::to_device(G, stream);
    stream.synchronize();
    const std::vector<int64_t> roots = pick_roots(G, roots_wanted, 2);
    (void)bfs(dG, static_cast<int32_t>(roots.at(0)));  // loads the kernel and sets the search up on the graph
    std::vector<double> times;
    double inverse_teps = 0;
    bool valid = true;
    for (const int64_t root : roots) {
      gql::DeviceVector<int32_t> levels;
      times.push_back(seconds([&] { levels = bfs(dG, static_cast<int32_t>(root)); }));
      const uint64_t edges = validated_edges(G, levels.to_host(stream), static_cast<int32_t>(root));
      valid = valid && edges > 0;
      inverse_teps += times.back() / static_cast<double>(std::max<uint64_t>(edges, 1));
    }
    const double gteps = static_cast<double>(roots.size()) / inverse_teps / 1e9;
    std::printf("bfs %s: %zu searches through the JIT, graph and result on the device: median %.3f ms, "
                "%.1f GTEPS (harmonic mean), %s\n",
                graph.c_str(), roots.size(), summarize(times).median * 1e3, gteps, valid ? "all valid" : "INVALID");
    Record r = record();
    r.text("case", "std/bfs.gql bfs")
        .text("graph", graph + " symmetrized")
        .text("variant", "graph and result on the device")
        .number("searches", static_cast<double>(roots.size()))
        .number("median_s", summarize(times).median)
        .number("gteps_hmean", gteps)
        .boolean("valid", valid);
    out.write(stamp_host(r, context));
    if (!valid) return 1;
  }

  // ---- fof: device in and out, and host in and out ----
  {
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
  return 0;
} catch (const gql::Error& e) {
  std::fprintf(stderr, "bench_jit_calls: %s\n", e.what());
  return 1;
}
