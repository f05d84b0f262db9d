// Graph500-style BFS on the device, and device single-source paths against the OpenMP back end.
//
//   bench_gpu_bfs [--scales 22,24] [--roots 64] [--edge-centric-roots 8] [--balance-roots 16]
//                 [--balance-graphs LIST] [--deep-roots 4] [--deep-graphs LIST] [--sssp LIST]
//                 [--sssp-sources 4] [--json FILE]
//
// BFS: Kronecker graphs (Graph500 generator, edgefactor 16, symmetrized), `roots` random roots with
// an edge other than a self-loop, every search validated on the device (graph500_validate.cuh),
// TEPS counted as Graph500 does (input edges of the traversed component, self-loops left out, over
// the search's time) and summarized by their harmonic mean, with min/median/max time. The seed's
// edge-centric kernel runs on the first few roots of the smallest scale for comparison, and so do
// the other schedules of the search (each load balance of its push steps, each frontier format) on
// the first `balance-roots` roots, there and on each graph of --balance-graphs (files under
// GQL_DATA_DIR, symmetrized; each stored entry u < v one input edge). Deep graphs (--deep-graphs:
// roads) run with push steps batched per host wait and with a wait per level.
// SSSP: min_plus<float> from a few sources on each graph of LIST (DIMACS files under GQL_DATA_DIR,
// "luxembourg_osm.mtx.gz" with unit weights, or "kron:S" with weights in [1, 255]), on the device
// by Bellman-Ford and by delta-stepping (automatic width) on the device, and with
// gql::cpu::single_source_paths on all host cores in the same run; results compared.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "../gpu_spgemm/bench_record.hpp"
#include "../common/bench_args.hpp"
#include "../common/gpu_context.hpp"
#include "gql/search_roots.hpp"
#include "../common/run_case.hpp"
#include "graph500_validate.cuh"
#include "gql/cpu/traversal.hpp"
#include "gql/device/traversal/traversal.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

// The semiring struct as the code generator writes it (external linkage, as in generated code).
namespace bench_bfs {

using namespace gql;

struct MinPlusF32 {
  using a_type = float;
  using b_type = float;
  using value_type = float;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(float a, float b, long long, long long, long long) { return a + b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() { return INFINITY; }
  GQL_HD static value_type terminal() { return 0.0f; }
};

}  // namespace bench_bfs

namespace {

using namespace gql;
using bench_bfs::MinPlusF32;
using Clock = std::chrono::steady_clock;

struct Args {
  std::vector<int> scales{22, 24};
  int roots = 64;
  int edge_centric_roots = 8;
  int balance_roots = 16;
  std::vector<std::string> balance_graphs;
  int deep_roots = 4;
  std::vector<std::string> deep_graphs;
  std::vector<std::string> sssp{"rome99.gr", "DE.gr.gz", "luxembourg_osm.mtx.gz", "kron:22"};
  int sssp_sources = 4;
  std::string json;
};

Args parse_args(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--scales") {
      args.scales.clear();
      for (const auto& s : bench::split_list(value)) args.scales.push_back(std::stoi(s));
    } else if (key == "--roots") {
      args.roots = std::stoi(value);
    } else if (key == "--edge-centric-roots") {
      args.edge_centric_roots = std::stoi(value);
    } else if (key == "--balance-roots") {
      args.balance_roots = std::stoi(value);
    } else if (key == "--balance-graphs") {
      args.balance_graphs = bench::split_list(value);
    } else if (key == "--deep-roots") {
      args.deep_roots = std::stoi(value);
    } else if (key == "--deep-graphs") {
      args.deep_graphs = bench::split_list(value);
    } else if (key == "--sssp") {
      args.sssp = bench::split_list(value);
    } else if (key == "--sssp-sources") {
      args.sssp_sources = std::stoi(value);
    } else if (key == "--json") {
      args.json = value;
    } else {
      throw Error(ErrorKind::usage, "unknown option " + key);
    }
  }
  return args;
}

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

struct SearchResult {
  double seconds;
  unsigned long long component_edges;
  bool valid;
  int64_t levels, pull_steps;
};

SearchResult search_and_validate(gpu::DeviceBfs& bfs, int64_t root, const DeviceBuffer<unsigned>& edge_count,
                                 DeviceBuffer<bench::ValidationCounts>& counts) {
  const Clock::time_point start = Clock::now();
  const cpu::TraversalStats stats = bfs.run(root);
  const double seconds = seconds_since(start);
  const auto levels = bfs.device_levels();
  GQL_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.bytes()));
  bench::validate_levels<<<4096, 256>>>(bfs.graph(), levels.narrow, levels.wide, root, edge_count.data(),
                                        counts.data());
  GQL_CUDA_CHECK_LAUNCH();
  bench::ValidationCounts host{};
  GQL_CUDA_CHECK(cudaMemcpy(&host, counts.data(), sizeof host, cudaMemcpyDeviceToHost));
  return {seconds, host.component_edges, host.errors == 0 && host.reached >= 1, stats.levels, stats.pull_steps};
}

void bfs_records(const std::string& graph, const std::string& variant, const std::vector<SearchResult>& results,
                 const bench::RunContext& context, bench::JsonLines& out) {
  std::vector<double> times;
  double inverse_teps = 0, levels = 0, pulls = 0;
  bool valid = true;
  unsigned long long min_edges = ~0ull, max_edges = 0;
  for (const auto& r : results) {
    times.push_back(r.seconds);
    inverse_teps += r.seconds / static_cast<double>(std::max<unsigned long long>(r.component_edges, 1));
    valid = valid && r.valid;
    levels += static_cast<double>(r.levels);
    pulls += static_cast<double>(r.pull_steps);
    min_edges = std::min(min_edges, r.component_edges);
    max_edges = std::max(max_edges, r.component_edges);
  }
  const double count = static_cast<double>(results.size());
  bench::Record record;
  record.text("workload", "bfs").text("graph", graph).text("variant", variant);
  record.times(bench::summarize(times))
      .integer("roots", static_cast<long long>(results.size()))
      .boolean("validated", valid)
      .number("gteps_hmean", count / inverse_teps / 1e9)
      .integer("component_edges_min", static_cast<long long>(min_edges))
      .integer("component_edges_max", static_cast<long long>(max_edges))
      .number("steps_mean", levels / count)
      .number("pull_steps_mean", pulls / count);
  out.write(bench::stamp(record, context));
}

// The search under each other schedule on the first `count` roots: every load balance of the push
// steps (frontier auto), then the sparse and bitmap frontiers (balance edge). False if a search
// fails validation.
bool run_schedules(const Csr<bool>& g, const std::string& graph, const std::vector<int64_t>& roots, int count,
                   const DeviceBuffer<unsigned>& edge_count, DeviceBuffer<bench::ValidationCounts>& counts,
                   const bench::RunContext& context, bench::JsonLines& out) {
  std::vector<gpu::BfsSchedule> schedules;
  for (const auto balance : {gpu::LoadBalance::edge, gpu::LoadBalance::thread, gpu::LoadBalance::warp,
                             gpu::LoadBalance::block})
    schedules.push_back({gpu::BfsKernel::frontier, balance, gpu::FrontierFormat::automatic});
  for (const auto format : {gpu::FrontierFormat::sparse, gpu::FrontierFormat::bitmap})
    schedules.push_back({gpu::BfsKernel::frontier, gpu::LoadBalance::edge, format});
  bool valid = true;
  for (const gpu::BfsSchedule& schedule : schedules) {
    gpu::DeviceBfs bfs(g, g, schedule);
    search_and_validate(bfs, roots.front(), edge_count, counts);  // warm-up
    std::vector<SearchResult> results;
    for (size_t i = 0; i < roots.size() && static_cast<int>(i) < count; ++i) {
      results.push_back(search_and_validate(bfs, roots[i], edge_count, counts));
      valid = valid && results.back().valid;
    }
    const std::string variant = std::string("balance ") + gpu::to_string(schedule.balance) + ", frontier " +
                                gpu::to_string(schedule.frontier);
    bfs_records(graph, variant, results, context, out);
  }
  return valid;
}

// A real graph from GQL_DATA_DIR, symmetrized, with each vertex's input edges (stored entries u < v
// counted at u) on the device for validation.
struct FileGraph {
  Csr<bool> g;
  DeviceBuffer<unsigned> edge_count;
};

FileGraph load_file_graph(const std::string& file) {
  const char* data = std::getenv("GQL_DATA_DIR");
  if (data == nullptr) throw Error(ErrorKind::usage, file + ": GQL_DATA_DIR is not set");
  ReadOptions symmetric;
  symmetric.symmetrize = true;
  FileGraph f{read_graph<bool>(std::string(data) + "/" + file, symmetric), {}};
  const Csr<bool>& g = f.g;
  std::vector<unsigned> edge_count(static_cast<size_t>(g.n_rows()), 0);
  int64_t max_degree = 0;
  for (int64_t u = 0; u < g.n_rows(); ++u) {
    max_degree = std::max(max_degree, g.row_degree(u));
    for (offset_t p = g.row_offsets()[u]; p < g.row_offsets()[u + 1]; ++p)
      if (u < g.col_indices()[p]) ++edge_count[static_cast<size_t>(u)];
  }
  f.edge_count = DeviceBuffer<unsigned>(std::max<size_t>(edge_count.size(), 1));
  GQL_CUDA_CHECK(cudaMemcpy(f.edge_count.data(), edge_count.data(), edge_count.size() * sizeof(unsigned),
                            cudaMemcpyHostToDevice));
  std::printf("%s: n=%lld stored=%lld (symmetrized), max degree %lld\n", file.c_str(),
              static_cast<long long>(g.n_rows()), static_cast<long long>(g.nvals()), static_cast<long long>(max_degree));
  return f;
}

// The other schedules on `balance_roots` roots of a real graph.
bool run_bfs_file(const std::string& file, const Args& args, const bench::RunContext& context,
                  bench::JsonLines& out) {
  const FileGraph f = load_file_graph(file);
  DeviceBuffer<bench::ValidationCounts> counts(1);
  const std::vector<int64_t> roots = gql::draw_search_roots(f.g, args.balance_roots, 7);
  return run_schedules(f.g, file, roots, args.balance_roots, f.edge_count, counts, context, out);
}

// A deep graph (roads: thousands of levels) with push steps batched 16 per host wait (the default)
// and with a host wait per level, on `deep_roots` roots.
bool run_deep_file(const std::string& file, const Args& args, const bench::RunContext& context,
                   bench::JsonLines& out) {
  const FileGraph f = load_file_graph(file);
  DeviceBuffer<bench::ValidationCounts> counts(1);
  const std::vector<int64_t> roots = gql::draw_search_roots(f.g, args.deep_roots, 11);
  bool valid = true;
  for (const int batch : {1, 16}) {
    gpu::BfsSchedule schedule;
    schedule.batch_levels = batch;
    gpu::DeviceBfs bfs(f.g, f.g, schedule);
    search_and_validate(bfs, roots.front(), f.edge_count, counts);  // warm-up
    std::vector<SearchResult> results;
    for (const int64_t root : roots) {
      results.push_back(search_and_validate(bfs, root, f.edge_count, counts));
      valid = valid && results.back().valid;
    }
    bfs_records(file, batch == 1 ? "a host wait per level" : "push steps batched 16 per host wait", results, context,
                out);
  }
  return valid;
}

bool run_bfs_scale(int scale, const Args& args, const bench::RunContext& context, bench::JsonLines& out) {
  Clock::time_point start = Clock::now();
  EdgeList<bool> edges = kronecker_edges<bool>({scale, 16, default_generator_seed, false});
  // Input edges counted at their first endpoint, self-loops left out.
  std::vector<unsigned> edge_count(static_cast<size_t>(edges.n_rows), 0);
  for (size_t e = 0; e < edges.rows.size(); ++e)
    if (edges.rows[e] != edges.cols[e]) ++edge_count[static_cast<size_t>(edges.rows[e])];
  const long long input_edges = static_cast<long long>(edges.rows.size());
  ReadOptions symmetric;
  symmetric.symmetrize = true;
  const Csr<bool> g = build_csr(std::move(edges), symmetric, "kron:" + std::to_string(scale));
  const double build_seconds = seconds_since(start);
  start = Clock::now();
  gpu::DeviceBfs bfs(g, g);
  DeviceBuffer<unsigned> device_edge_count(edge_count.size());
  GQL_CUDA_CHECK(cudaMemcpy(device_edge_count.data(), edge_count.data(), edge_count.size() * sizeof(unsigned),
                            cudaMemcpyHostToDevice));
  DeviceBuffer<bench::ValidationCounts> counts(1);
  const double upload_seconds = seconds_since(start);
  const std::string graph = "kron:" + std::to_string(scale);
  std::printf("%s: n=%lld input edges=%lld stored=%lld (built in %.1f s, uploaded in %.2f s)\n", graph.c_str(),
              static_cast<long long>(g.n_rows()), input_edges, static_cast<long long>(g.nvals()), build_seconds,
              upload_seconds);
  const std::vector<int64_t> roots = gql::draw_search_roots(g, args.roots, 2 + static_cast<uint64_t>(scale));
  search_and_validate(bfs, roots.front(), device_edge_count, counts);  // warm-up
  std::vector<SearchResult> results;
  bool valid = true;
  for (const int64_t root : roots) {
    results.push_back(search_and_validate(bfs, root, device_edge_count, counts));
    const SearchResult& r = results.back();
    if (!r.valid) std::printf("  root %lld: VALIDATION FAILED\n", static_cast<long long>(root));
    valid = valid && r.valid;
  }
  bfs_records(graph, "direction-optimizing", results, context, out);
  if (scale == *std::min_element(args.scales.begin(), args.scales.end()) && args.edge_centric_roots > 0) {
    gpu::DeviceBfs edge_centric(g, g, gpu::BfsSchedule{gpu::BfsKernel::edge_centric});
    std::vector<SearchResult> seed;
    for (size_t i = 0; i < roots.size() && static_cast<int>(i) < args.edge_centric_roots; ++i) {
      seed.push_back(search_and_validate(edge_centric, roots[i], device_edge_count, counts));
      valid = valid && seed.back().valid;
    }
    bfs_records(graph, "edge-centric (seed)", seed, context, out);
  }
  if (scale == *std::min_element(args.scales.begin(), args.scales.end()) && args.balance_roots > 0)
    valid = run_schedules(g, graph, roots, args.balance_roots, device_edge_count, counts, context, out) && valid;
  return valid;
}

template <class T>
Csr<float> as_float(const Csr<T>& g) {
  return convert<float>(g);
}

Csr<float> load_weighted(const std::string& spec) {
  ReadOptions symmetric;
  symmetric.symmetrize = true;
  symmetric.duplicates = Duplicates::min;
  if (spec.rfind("kron:", 0) == 0) return kronecker<float>({std::stoi(spec.substr(5)), 16, 1, true}, symmetric);
  const char* data = std::getenv("GQL_DATA_DIR");
  if (data == nullptr) throw Error(ErrorKind::usage, spec + ": GQL_DATA_DIR is not set");
  const std::string path = std::string(data) + "/" + spec;
  if (spec.find(".mtx") != std::string::npos) return as_float(read_graph<bool>(path, symmetric));  // unit weights
  return read_graph<float>(path);
}

bool run_sssp(const std::string& spec, const Args& args, const bench::RunContext& context, bench::JsonLines& out) {
  const Csr<float> g = load_weighted(spec);
  gpu::DevicePaths<MinPlusF32, float> paths(g);
  gpu::DevicePaths<MinPlusF32, float> delta_paths(g, gpu::SsspSchedule{gpu::PathsKernel::delta_stepping});
  std::vector<int64_t> sources;
  {
    const Csr<bool> pattern = convert<bool>(g);
    sources = gql::draw_search_roots(pattern, args.sssp_sources, 99);
  }
  paths.run(sources.front(), 0.0f);  // warm-up
  delta_paths.run(sources.front(), 0.0f);
  std::vector<double> gpu_times, cpu_times, delta_times;
  bool equal = true, delta_equal = true;
  long long rounds = 0, reached = 0, delta_rounds = 0;
  for (const int64_t source : sources) {
    Clock::time_point start = Clock::now();
    const cpu::TraversalStats stats = paths.run(source, 0.0f);
    gpu_times.push_back(seconds_since(start));
    const Vector<float> got = paths.values();
    start = Clock::now();
    const cpu::TraversalStats delta_stats = delta_paths.run(source, 0.0f);
    delta_times.push_back(seconds_since(start));
    const Vector<float> delta_got = delta_paths.values();
    delta_equal = delta_equal && delta_got.nvals() == got.nvals() &&
                  std::equal(got.indices().begin(), got.indices().end(), delta_got.indices().begin()) &&
                  std::memcmp(got.values().data(), delta_got.values().data(), got.values().size() * sizeof(float)) == 0;
    delta_rounds += delta_stats.levels;
    start = Clock::now();
    const Vector<float> expected = cpu::single_source_paths<MinPlusF32>(g, source, 0.0f);
    cpu_times.push_back(seconds_since(start));
    equal = equal && got.nvals() == expected.nvals() &&
            std::equal(got.indices().begin(), got.indices().end(), expected.indices().begin()) &&
            std::memcmp(got.values().data(), expected.values().data(), got.values().size() * sizeof(float)) == 0;
    rounds += stats.levels;
    reached += got.nvals();
  }
  const bench::TimeSummary gpu = bench::summarize(gpu_times), cpu = bench::summarize(cpu_times),
                           delta = bench::summarize(delta_times);
  bench::Record record;
  record.text("workload", "sssp").text("graph", spec).text("variant", "gpu bellman-ford frontier");
  record.times(gpu)
      .integer("sources", static_cast<long long>(sources.size()))
      .integer("n", g.n_rows())
      .integer("nvals", g.nvals())
      .number("rounds_mean", static_cast<double>(rounds) / static_cast<double>(sources.size()))
      .number("reached_mean", static_cast<double>(reached) / static_cast<double>(sources.size()))
      .number("cpu_time_min_s", cpu.min)
      .number("cpu_time_median_s", cpu.median)
      .number("cpu_time_max_s", cpu.max)
      .integer("cpu_threads", omp_get_max_threads())
      .number("speedup_median", cpu.median / gpu.median)
      .boolean("equal_to_cpu", equal)
      .number("delta_stepping_time_median_s", delta.median)
      .number("delta_stepping_rounds_mean", static_cast<double>(delta_rounds) / static_cast<double>(sources.size()))
      .boolean("delta_stepping_equal", delta_equal);
  out.write(bench::stamp(record, context));
  return equal && delta_equal;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Args args = parse_args(argc, argv);
    if (device_count() == 0) {
      std::fprintf(stderr, "bench_gpu_bfs: no CUDA device\n");
      return 1;
    }
    const bench::RunContext context = bench::gpu_context();
    bench::JsonLines out(args.json);
    bool ok = true;
    for (const int scale : args.scales) ok = run_bfs_scale(scale, args, context, out) && ok;
    for (const auto& file : args.balance_graphs)
      ok = bench::run_case("bfs", file, [&] { return run_bfs_file(file, args, context, out); }) && ok;
    for (const auto& file : args.deep_graphs)
      ok = bench::run_case("bfs", file, [&] { return run_deep_file(file, args, context, out); }) && ok;
    for (const auto& spec : args.sssp)
      ok = bench::run_case("sssp", spec, [&] { return run_sssp(spec, args, context, out); }) && ok;
    std::printf("bench_gpu_bfs: %s\n", ok ? "all searches validated, SSSP equal to the CPU" : "FAILED");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_gpu_bfs: %s\n", e.what());
    return 1;
  }
}
