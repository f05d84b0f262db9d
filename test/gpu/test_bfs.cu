// The device BFS against a plain serial BFS written here (levels) and against gql::cpu::bfs_levels
// (steps, pull steps and edges examined, which the shared direction rule makes equal), in every
// direction, under every load balance and frontier format and with push steps batched per host wait
// or not (the same levels and the same counts as the default schedule), and with the edge-centric
// kernel, on generated graphs (Kronecker with its hubs, a star whose hub holds every edge, uniform,
// grids and a path deep enough to widen byte levels, a directed graph, also searched by push steps
// without a transpose) and on the real graphs under GQL_DATA_DIR (social, citation, road).
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "gpu_check.hpp"
#include "gql/cpu/transpose.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/device/traversal/traversal.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"
#include "star_graph.hpp"

namespace {

using namespace gql;

// Levels by a serial queue over G's out-edges; -1 where unreached.
std::vector<int32_t> reference_levels(const Csr<bool>& g, int64_t source) {
  std::vector<int32_t> level(static_cast<size_t>(g.n_rows()), -1);
  std::vector<int64_t> queue{source};
  level[static_cast<size_t>(source)] = 0;
  for (size_t head = 0; head < queue.size(); ++head) {
    const int64_t u = queue[head];
    for (offset_t p = g.row_offsets()[u]; p < g.row_offsets()[u + 1]; ++p) {
      const index_t v = g.col_indices()[p];
      if (level[static_cast<size_t>(v)] < 0) {
        level[static_cast<size_t>(v)] = level[static_cast<size_t>(u)] + 1;
        queue.push_back(v);
      }
    }
  }
  return level;
}

bool same_levels(const Vector<int32_t>& got, const std::vector<int32_t>& expected) {
  size_t k = 0;
  for (size_t v = 0; v < expected.size(); ++v) {
    if (expected[v] < 0) continue;
    if (k >= got.indices().size() || got.indices()[k] != static_cast<index_t>(v) || got.values()[k] != expected[v])
      return false;
    ++k;
  }
  return k == got.indices().size() && got.size() == static_cast<int64_t>(expected.size());
}

// Sources: 0, the last vertex, the vertex of highest out-degree and one in the middle (the first
// two of those in order under --small, which compute-sanitizer runs).
std::vector<int64_t> sources_of(const Csr<bool>& g) {
  const int64_t n = g.n_rows();
  int64_t hub = 0;
  for (int64_t v = 1; v < n; ++v)
    if (g.row_degree(v) > g.row_degree(hub)) hub = v;
  std::vector<int64_t> sources{0, n - 1, hub, n / 2};
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  if (gpu_test::small_inputs() && sources.size() > 2) sources.resize(2);
  return sources;
}

// The depth of a search (the highest level), from the reference levels.
int32_t depth_of(const std::vector<int32_t>& levels) { return *std::max_element(levels.begin(), levels.end()); }

// Graphs deeper than this (roads, paths, grids: thousands of steps) compare the CPU op's step
// counts for their first source only. The CPU op forks its threads twice per step and a forced pull
// step reads every open vertex, so on such graphs it costs steps x n where the device is bounded by
// its launch latency; the levels of every source and direction are still checked on the device
// against the serial reference.
constexpr int32_t deep_graph_levels = 255;

constexpr gpu::LoadBalance balances[] = {gpu::LoadBalance::thread, gpu::LoadBalance::warp, gpu::LoadBalance::block,
                                         gpu::LoadBalance::edge};
constexpr gpu::FrontierFormat formats[] = {gpu::FrontierFormat::automatic, gpu::FrontierFormat::sparse,
                                           gpu::FrontierFormat::bitmap};

std::string schedule_name(const gpu::BfsSchedule& schedule) {
  return std::string("balance ") + gpu::to_string(schedule.balance) + ", frontier " + gpu::to_string(schedule.frontier) +
         ", batch " + std::to_string(schedule.batch_levels);
}

// Every load balance and frontier format, and push steps without batches, against the default
// schedule's levels and counts, in every direction (deep graphs and --small: automatic only).
int check_schedules(const std::string& name, const Csr<bool>& G, const Csr<bool>& GT, int64_t source,
                    const std::vector<int32_t>& expected, bool deep) {
  std::vector<cpu::Direction> directions{cpu::Direction::automatic};
  if (!deep && !gpu_test::small_inputs())  // --small: what compute-sanitizer follows in reasonable time
    directions.insert(directions.end(), {cpu::Direction::push, cpu::Direction::pull});
  std::vector<cpu::TraversalStats> reference_stats;
  {
    gpu::DeviceBfs reference(G, GT);
    for (const cpu::Direction direction : directions)
      reference_stats.push_back(reference.run(source, cpu::DirectionOptions{direction}));
  }
  // Every balance and format, and the default without batched push steps (a host wait per level).
  std::vector<gpu::BfsSchedule> schedules;
  for (const gpu::LoadBalance balance : balances)
    for (const gpu::FrontierFormat format : formats) schedules.push_back({gpu::BfsKernel::frontier, balance, format});
  schedules.push_back(gpu::BfsSchedule{});
  schedules.back().batch_levels = 1;
  int runs = 0;
  for (const gpu::BfsSchedule& schedule : schedules) {
    gpu::DeviceBfs search(G, GT, schedule);
    for (size_t d = 0; d < directions.size(); ++d) {
      const cpu::DirectionOptions options{directions[d]};
      const std::string what = name + " source " + std::to_string(source) + " " + schedule_name(schedule) +
                               " direction " + std::to_string(static_cast<int>(directions[d]));
      const cpu::TraversalStats& want = reference_stats[d];
      const cpu::TraversalStats got = search.run(source, options);
      GPU_CHECK_MSG(same_levels(search.levels(), expected), what);
      GPU_CHECK_MSG(got.levels == want.levels && got.pull_steps == want.pull_steps &&
                        got.edges_examined == want.edges_examined,
                    what + ": steps " + std::to_string(got.levels) + "/" + std::to_string(want.levels) + ", pulled " +
                        std::to_string(got.pull_steps) + "/" + std::to_string(want.pull_steps) + ", examined " +
                        std::to_string(got.edges_examined) + "/" + std::to_string(want.edges_examined));
      ++runs;
    }
  }
  return runs;
}

void check_graph(const std::string& name, const Csr<bool>& G, const Csr<bool>& GT) {
  const auto start = std::chrono::steady_clock::now();
  gpu::DeviceBfs frontier(G, GT);
  gpu::DeviceBfs edge_centric(G, GT, gpu::BfsSchedule{gpu::BfsKernel::edge_centric});
  // A directed graph searched by push steps only needs no transpose: generated code passes G.
  const bool directed = &G != &GT;
  std::optional<gpu::DeviceBfs> push_only;
  if (directed) push_only.emplace(G, G);
  int runs = 0, cpu_runs = 0;
  int32_t depth = 0;
  for (const int64_t source : sources_of(G)) {
    const std::vector<int32_t> expected = reference_levels(G, source);
    depth = std::max(depth, depth_of(expected));
    const bool compare_cpu = runs == 0 || depth <= deep_graph_levels;
    for (const cpu::Direction direction : {cpu::Direction::push, cpu::Direction::pull, cpu::Direction::automatic}) {
      const cpu::DirectionOptions options{direction};
      const std::string what = name + " source " + std::to_string(source) + " direction " +
                               std::to_string(static_cast<int>(direction));
      const cpu::TraversalStats stats = frontier.run(source, options);
      GPU_CHECK_MSG(same_levels(frontier.levels(), expected), what);
      ++runs;
      if (!compare_cpu) continue;
      cpu::TraversalStats cpu_stats;
      cpu::bfs_levels(G, GT, source, options, &cpu_stats);
      ++cpu_runs;
      GPU_CHECK_MSG(stats.levels == cpu_stats.levels, what + ": " + std::to_string(stats.levels) + " steps, CPU " +
                                                          std::to_string(cpu_stats.levels));
      GPU_CHECK_MSG(stats.pull_steps == cpu_stats.pull_steps, what + ": pull steps " +
                                                                  std::to_string(stats.pull_steps) + ", CPU " +
                                                                  std::to_string(cpu_stats.pull_steps));
      GPU_CHECK_MSG(stats.edges_examined == cpu_stats.edges_examined,
                    what + ": edges examined " + std::to_string(stats.edges_examined) + ", CPU " +
                        std::to_string(cpu_stats.edges_examined));
    }
    edge_centric.run(source);
    GPU_CHECK_MSG(same_levels(edge_centric.levels(), expected), name + " edge-centric source " + std::to_string(source));
    if (push_only) {
      push_only->run(source, cpu::DirectionOptions{cpu::Direction::push});
      GPU_CHECK_MSG(same_levels(push_only->levels(), expected), name + " push without a transpose, source " +
                                                                    std::to_string(source));
    }
    if (compare_cpu) runs += check_schedules(name, G, GT, source, expected, depth > deep_graph_levels);
    // The entry point generated code calls: upload, search, results back.
    cpu::TraversalStats stats;
    GPU_CHECK_MSG(same_levels(gpu::bfs_levels(G, GT, source, {}, &stats), expected), name + " bfs_levels");
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  %-34s n=%-9lld nvals=%-10lld depth %-5d %d searches (%d against the CPU op) %.2f s\n", name.c_str(),
              static_cast<long long>(G.n_rows()), static_cast<long long>(G.nvals()), depth, runs, cpu_runs, seconds);
}

void check_symmetric(const std::string& name, const Csr<bool>& g) { check_graph(name, g, g); }

void check_directed(const std::string& name, const Csr<bool>& g) {
  const Csr<bool> gt = cpu::transpose(g);
  check_graph(name, g, gt);
}

void check_errors() {
  const Csr<bool> g = grid<bool>(2, 3);
  bool threw = false;
  try {
    gpu::bfs_levels(g, g, 6);
  } catch (const Error& e) {
    threw = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK_MSG(threw, "a source outside the graph is a usage error");
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_bfs", [] {
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    const bool small = gpu_test::small_inputs();
    check_errors();
    check_symmetric("empty-edges", Csr<bool>(5, 5));
    check_symmetric("path 1x300 (levels widen past a byte)", grid<bool>(1, 300));
    check_symmetric(small ? "kron:8" : "kron:16", generate_graph<bool>(small ? "kron:8" : "kron:16", symmetric));
    check_symmetric(small ? "star of 600" : "star of 200000", gpu_test::star(small ? 600 : 200000));
    check_directed(small ? "kron:8 directed" : "kron:14 directed", generate_graph<bool>(small ? "kron:8" : "kron:14"));
    if (small) return;
    check_symmetric("urand:16", generate_graph<bool>("urand:16", symmetric));
    check_symmetric("grid:300x300", generate_graph<bool>("grid:300x300"));
    check_symmetric("path 1x2000", grid<bool>(1, 2000));
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    const std::string dir = std::string(data) + "/";
    check_directed("soc-slashdot0902", read_graph<bool>(dir + "soc-slashdot0902-directed.jlg"));
    check_directed("wiki-Vote", read_graph<bool>(dir + "wiki-Vote.txt.gz"));
    check_directed("arxiv-cit-hep-th", read_graph<bool>(dir + "arxiv-cit-hep-th.jlg"));
    check_directed("rome99", read_graph<bool>(dir + "rome99.gr"));
    check_directed("DE", read_graph<bool>(dir + "DE.gr.gz"));
    check_symmetric("luxembourg_osm", read_graph<bool>(dir + "luxembourg_osm.mtx.gz", symmetric));
  });
}
