// Device single-source paths against a plain serial label-correcting loop written here (the same
// fixpoint, so values must match bit for bit) and against gql::cpu::single_source_paths, for
// min_plus on float, double and int (native atomics on non-negative floats and integers, CAS on
// negative candidates) and a widest-path max_min on bytes (a user agg: CAS on the word around a
// byte), on weighted Kronecker and uniform graphs, grids and the DIMACS road graphs under
// GQL_DATA_DIR, by Bellman-Ford and by delta-stepping (two bucket widths), each under every load
// balance of its rounds, and as the kernel op over a graph on the device or on the host (its paths
// left on the device, equal to the CPU op's); a cycle that keeps improving is an error.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu_check.hpp"
#include "gql/cpu/traversal.hpp"
#include "gql/device/traversal/traversal.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

// The semiring structs as the code generator writes them.
namespace sssp_test {

using namespace gql;

template <class T>
struct MinPlus {
  using a_type = T;
  using b_type = T;
  using value_type = T;
  static constexpr Monoid monoid = Monoid::min;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(T a, T b, long long, long long, long long) { return a + b; }
  GQL_HD static value_type agg(value_type x, value_type y) { return y < x ? y : x; }
  GQL_HD static value_type zero() {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(INFINITY);
    else return static_cast<T>(2147483647);
  }
  GQL_HD static value_type terminal() { return 0; }
};

struct WidestBytes {  // max_min on bytes: the widest bottleneck of any path
  using a_type = unsigned char;
  using b_type = unsigned char;
  using value_type = unsigned char;
  static constexpr Monoid monoid = Monoid::user;
  static constexpr bool reads_values = true, positional = false, has_terminal = false;
  GQL_HD static value_type con(unsigned char a, unsigned char b, long long, long long, long long) {
    return a < b ? a : b;
  }
  GQL_HD static value_type agg(value_type x, value_type y) { return y > x ? y : x; }
  GQL_HD static value_type zero() { return 0; }
  GQL_HD static value_type terminal() { return 255; }
};

}  // namespace sssp_test

namespace {

using namespace gql;
using sssp_test::MinPlus;
using sssp_test::WidestBytes;

// Serial label-correcting: a FIFO of vertices whose value improved; value[v] = agg(value[v], con(...)).
template <class S, class TG>
void reference_paths(const Csr<TG>& g, int64_t source, typename S::value_type source_value,
                     std::vector<typename S::value_type>& value, std::vector<char>& reached) {
  using V = typename S::value_type;
  value.assign(static_cast<size_t>(g.n_rows()), S::zero());
  reached.assign(static_cast<size_t>(g.n_rows()), 0);
  std::vector<char> queued(static_cast<size_t>(g.n_rows()), 0);
  value[static_cast<size_t>(source)] = source_value;
  reached[static_cast<size_t>(source)] = 1;
  std::deque<int64_t> queue{source};
  while (!queue.empty()) {
    const int64_t u = queue.front();
    queue.pop_front();
    queued[static_cast<size_t>(u)] = 0;
    for (offset_t p = g.row_offsets()[u]; p < g.row_offsets()[u + 1]; ++p) {
      const index_t v = g.col_indices()[p];
      const V candidate = S::con(value[static_cast<size_t>(u)], convert_element<typename S::b_type>(g.value_at(p)),
                                 source, u, v);
      const V better = S::agg(value[static_cast<size_t>(v)], candidate);
      if (std::memcmp(&better, &value[static_cast<size_t>(v)], sizeof(V)) == 0) continue;
      value[static_cast<size_t>(v)] = better;
      reached[static_cast<size_t>(v)] = 1;
      if (!queued[static_cast<size_t>(v)]) {
        queued[static_cast<size_t>(v)] = 1;
        queue.push_back(v);
      }
    }
  }
}

template <class V>
bool same_values(const Vector<V>& a, const Vector<V>& b) {
  return std::equal(a.indices().begin(), a.indices().end(), b.indices().begin(), b.indices().end()) &&
         a.values().size() == b.values().size() &&
         std::memcmp(a.values().data(), b.values().data(), a.values().size() * sizeof(storage_t<V>)) == 0;
}

constexpr int64_t narrow_delta_vertices = 4096;

// Searches of more rounds than this (road graphs: hundreds to thousands) compare with the CPU op
// for the first source only: the CPU op forks its threads once per round, so its cost there grows
// with the rounds, not the edges. Every source is still checked against the serial reference.
constexpr int64_t many_rounds = 255;

template <class S, class TG>
void check_paths(const std::string& name, const Csr<TG>& g, typename S::value_type source_value) {
  using V = typename S::value_type;
  const auto start = std::chrono::steady_clock::now();
  gpu::DevicePaths<S, TG> search(g);
  const int64_t n = g.n_rows();
  // Delta-stepping where it applies (min semirings; elsewhere the schedule runs Bellman-Ford): the
  // automatic bucket width, and on small graphs one so narrow that nearly every vertex waits in the
  // far pile and the threshold moves once per distinct value (a step per vertex: too many for big graphs).
  gpu::DevicePaths<S, TG> delta_auto(g, gpu::SsspSchedule{gpu::PathsKernel::delta_stepping});
  std::optional<gpu::DevicePaths<S, TG>> delta_narrow;
  if (n <= narrow_delta_vertices) delta_narrow.emplace(g, gpu::SsspSchedule{gpu::PathsKernel::delta_stepping, 0.5});
  // The other load balances of the rounds over large frontiers (every round of delta-stepping).
  std::vector<std::pair<std::string, std::unique_ptr<gpu::DevicePaths<S, TG>>>> balanced;
  for (const gpu::LoadBalance balance : {gpu::LoadBalance::thread, gpu::LoadBalance::warp, gpu::LoadBalance::block})
    for (const gpu::PathsKernel kernel : {gpu::PathsKernel::bellman_ford, gpu::PathsKernel::delta_stepping})
      balanced.emplace_back(std::string(kernel == gpu::PathsKernel::delta_stepping ? "delta-stepping" : "bellman-ford") +
                                " balance " + gpu::to_string(balance),
                            std::make_unique<gpu::DevicePaths<S, TG>>(g, gpu::SsspSchedule{kernel, 0, balance}));
  // The kernel op: over the graph's device copy (its search state kept with it across sources), the
  // paths left on the device; exact wherever no weight is negative (the weights here are finite).
  const DeviceCsr<TG> on_device = to_device(g, Stream());
  gpu::Resident<Csr<TG>> resident_graph = gpu::Resident<Csr<TG>>::borrow(on_device);
  bool any_negative = false;
  if constexpr (stores_values<TG>)
    for (const auto w : g.values()) any_negative |= !(static_cast<double>(w) >= 0.0);  // or NaN
  int64_t rounds = 0;
  int cpu_runs = 0;
  for (const int64_t source : {int64_t{0}, n / 2, n - 1}) {
    const std::string what = name + " source " + std::to_string(source);
    std::vector<V> expected;
    std::vector<char> reached;
    reference_paths<S>(g, source, source_value, expected, reached);
    const cpu::TraversalStats stats = search.run(source, source_value);
    const Vector<V> got = search.values();
    std::optional<Vector<V>> cpu_result;
    if (source == 0 || stats.levels <= many_rounds) {
      cpu_result = cpu::single_source_paths<S>(g, source, source_value);
      ++cpu_runs;
      GPU_CHECK_MSG(got.nvals() == cpu_result->nvals(), what + ": reached " + std::to_string(got.nvals()) + ", CPU " +
                                                            std::to_string(cpu_result->nvals()));
    }
    rounds = std::max(rounds, stats.levels);
    size_t k = 0;
    int64_t wrong = 0;
    for (int64_t v = 0; v < n; ++v) {
      if (!reached[static_cast<size_t>(v)]) continue;
      if (k >= got.indices().size() || got.indices()[k] != v ||
          std::memcmp(&got.values()[k], &expected[static_cast<size_t>(v)], sizeof(V)) != 0) {
        ++wrong;
        if (k < got.indices().size() && got.indices()[k] != v) break;  // misaligned: the count says enough
      }
      ++k;
    }
    GPU_CHECK_MSG(wrong == 0 && k == got.indices().size(), what + ": " + std::to_string(wrong) + " values differ");
    GPU_CHECK_MSG(stats.levels >= 1, what + ": at least one round");
    delta_auto.run(source, source_value);
    GPU_CHECK_MSG(same_values(delta_auto.values(), got), what + ": delta-stepping (automatic width)");
    if (delta_narrow) {
      delta_narrow->run(source, source_value);
      GPU_CHECK_MSG(same_values(delta_narrow->values(), got), what + ": delta-stepping (width 0.5)");
    }
    for (auto& [schedule, paths] : balanced) {
      paths->run(source, source_value);
      GPU_CHECK_MSG(same_values(paths->values(), got), what + ": " + schedule);
    }
    KernelContext ctx;
    gpu::Resident<Vector<V>> kept;
    cpu::TraversalStats op_stats;
    const bool exact = gpu::single_source_paths<S>(kept, resident_graph, source, source_value, &op_stats,
                                                   gpu::SsspSchedule{}, ctx);
    GPU_CHECK_MSG(exact == !any_negative, what + ": the op's exactness (negative weights: " +
                                              std::to_string(any_negative) + ")");
    if (exact) {
      GPU_CHECK_MSG(kept.on_device(), what + ": the op leaves the paths on the device");
      const Vector<V> op_paths = kept.take_host(Stream());
      GPU_CHECK_MSG(same_values(op_paths, got), what + ": the kernel op over the device graph");
      if (cpu_result) GPU_CHECK_MSG(same_values(op_paths, *cpu_result), what + ": the kernel op against the CPU op");
      // (How many rounds a search takes depends on the order of the relaxations inside a round.)
      GPU_CHECK_MSG(op_stats.levels >= 1, what + ": the kernel op counts its rounds");
    }
    // The same op over a program's graph, borrowed on the host: uploaded at its first read, the paths
    // left on the device (the first source, where the CPU op ran).
    if (source == 0) {
      gpu::Resident<Csr<TG>> host_graph = gpu::Resident<Csr<TG>>::borrow(g);
      gpu::Resident<Vector<V>> from_host;
      const bool host_exact = gpu::single_source_paths<S>(from_host, host_graph, source, source_value, nullptr,
                                                          gpu::SsspSchedule{}, ctx);
      GPU_CHECK_MSG(host_exact == exact, what + ": the op's exactness over a host graph");
      GPU_CHECK_MSG(host_graph.on_device(), what + ": the op reads a host graph on the device");
      if (host_exact) {
        GPU_CHECK_MSG(from_host.on_device(), what + ": the op over a host graph leaves the paths on the device");
        GPU_CHECK_MSG(same_values(from_host.take_host(Stream()), *cpu_result),
                      what + ": the kernel op over a host graph against the CPU op");
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("  %-40s n=%-9lld nvals=%-10lld rounds %-5lld (%d against the CPU op) %.2f s\n", name.c_str(),
              static_cast<long long>(n), static_cast<long long>(g.nvals()), static_cast<long long>(rounds), cpu_runs,
              seconds);
}

// Byte weights for the widest-path semiring: 1 + w mod 255 (road lengths exceed a byte).
template <class T>
Csr<unsigned char> byte_weights(const Csr<T>& g) {
  Csr<unsigned char> out = convert<unsigned char>(convert<bool>(g));
  for (size_t p = 0; p < out.values().size(); ++p)
    out.values()[p] = static_cast<unsigned char>(1 + static_cast<long long>(g.values()[p]) % 255);
  return out;
}

// min_plus on float, double and int and max_min on bytes, on one weighted graph.
template <class T>
void check_all_semirings(const std::string& name, const Csr<T>& g) {
  check_paths<MinPlus<float>>(name + " min_plus<float>", convert<float>(g), 0.0f);
  check_paths<MinPlus<double>>(name + " min_plus<double>", convert<double>(g), 0.0);
  check_paths<MinPlus<int>>(name + " min_plus<int>", convert<int>(g), 0);
  check_paths<WidestBytes>(name + " max_min<u8>", byte_weights(g), static_cast<unsigned char>(255));
}

// Negative weights: candidates below zero take the CAS path of float min.
void check_negative_weights() {
  // Vertices 0 and 1 joined both ways by -1: a cycle that improves every path through it.
  Csr<float> g = grid<float>(20, 20);
  for (int64_t r = 0; r < g.n_rows(); ++r)
    for (offset_t p = g.row_offsets()[r]; p < g.row_offsets()[r + 1]; ++p)
      g.values()[p] = r <= 1 && g.col_indices()[p] <= 1 ? -1.0f : 1.0f;
  bool threw = false;
  try {
    gpu::single_source_paths<MinPlus<float>>(g, 0, 0.0f);
  } catch (const Error& e) {
    threw = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK_MSG(threw, "a negative cycle is a usage error");
  threw = false;
  try {
    gpu::single_source_paths<MinPlus<float>>(g, 0, 0.0f, nullptr, gpu::SsspSchedule{gpu::PathsKernel::delta_stepping});
  } catch (const Error& e) {
    threw = e.kind() == ErrorKind::usage;
  }
  GPU_CHECK_MSG(threw, "a negative cycle is a usage error under delta-stepping");
  // A directed acyclic grid (right and down only) with negative weights has a fixpoint.
  gql::Array<offset_t> offsets{0};
  gql::Array<index_t> cols;
  gql::Array<float> vals;
  const int side = 30;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      if (c + 1 < side) {
        cols.push_back(r * side + c + 1);
        vals.push_back((r * 31 + c) % 5 == 0 ? -2.0f : 1.5f);
      }
      if (r + 1 < side) {
        cols.push_back((r + 1) * side + c);
        vals.push_back((r * 17 + c) % 3 == 0 ? -1.25f : 0.75f);
      }
      offsets.push_back(static_cast<offset_t>(cols.size()));
    }
  const Csr<float> dag(side * side, side * side, std::move(offsets), std::move(cols), std::move(vals));
  check_paths<MinPlus<float>>("dag 30x30 negative weights", dag, 0.0f);
}

// Where the search's values are not the relaxation loop's, the kernel op says so and leaves its
// output alone: a vertex whose only path sums to infinity (the loop writes it, the search does not
// reach it), a NaN weight.
void check_inexact_paths() {
  const float inf = std::numeric_limits<float>::infinity();
  for (const float second : {inf, std::numeric_limits<float>::quiet_NaN()}) {
    // 0 -> 1 (weight 1), 1 -> 2 (weight `second`), 0 -> 3 (weight 2).
    const Csr<float> g(4, 4, gql::Array<offset_t>{0, 2, 3, 3, 3}, gql::Array<index_t>{1, 3, 2},
                       gql::Array<float>{1.0f, 2.0f, second});
    const DeviceCsr<float> on_device = to_device(g, Stream());
    gpu::Resident<Csr<float>> graph = gpu::Resident<Csr<float>>::borrow(on_device);
    gpu::Resident<Vector<float>> out(Vector<float>::sparse(4, gql::Array<index_t>{2}, gql::Array<float>{7.0f}));
    KernelContext ctx;
    const bool exact = gpu::single_source_paths<MinPlus<float>>(out, graph, 0, 0.0f, nullptr, gpu::SsspSchedule{}, ctx);
    const std::string what = std::string("edge 1 -> 2 of weight ") + (std::isnan(second) ? "NaN" : "inf");
    GPU_CHECK_MSG(!exact, what + ": the op cannot reproduce the loop");
    const Vector<float> untouched = out.take_host(Stream());
    GPU_CHECK_MSG(untouched.nvals() == 1 && untouched.indices()[0] == 2 && untouched.values()[0] == 7.0f,
                  what + ": the output is left as it was");
  }
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_sssp", [] {
    ReadOptions symmetric;
    symmetric.symmetrize = true;
    symmetric.duplicates = Duplicates::min;
    const bool small = gpu_test::small_inputs();
    check_negative_weights();
    check_inexact_paths();
    check_paths<MinPlus<float>>("no edges", Csr<float>(4, 4), 0.0f);
    check_all_semirings("kron weighted", kronecker<float>({small ? 8 : 15, 16, 7, true}, symmetric));
    check_all_semirings("grid", grid<float>(small ? 8 : 200, small ? 9 : 150));
    if (small) return;
    check_all_semirings("urand weighted", urand<float>({15, 8, 3, true}, symmetric));
    check_paths<MinPlus<float>>("kron:16 pattern (hop counts)", generate_graph<bool>("kron:16", symmetric), 0.0f);
    const char* data = std::getenv("GQL_DATA_DIR");
    if (data == nullptr) {
      std::printf("  real graphs skipped: GQL_DATA_DIR is not set\n");
      return;
    }
    const std::string dir = std::string(data) + "/";
    check_all_semirings("rome99", read_graph<float>(dir + "rome99.gr"));
    check_all_semirings("DE", read_graph<float>(dir + "DE.gr.gz"));
    check_paths<MinPlus<float>>("luxembourg_osm (unit weights)", read_graph<bool>(dir + "luxembourg_osm.mtx.gz", symmetric),
                                0.0f);
  });
}
