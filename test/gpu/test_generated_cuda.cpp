// Generated CUDA programs against generated OpenMP programs: the stdlib's fof, bfs, sssp, components
// and apsp, the end-to-end products.gql, dense_products.gql and stores.gql, and the masked graph ops
// of specs/graph_ops.gql, each built by gqlc for both targets at build time (bfs and sssp are loops
// recognized as one traversal, sssp's also on a graph where its loop runs as written, apsp's
// closures with and without paths run on device matrices, components a loop of vector products,
// stores.gql's loops of element stores and reads into graphs and vectors on the device), run kernel
// by kernel on generated graphs and on the real graphs in $GQL_DATA_DIR (left out when unset). Both
// write sorted Matrix Market (or a scalar line), so their --out files must match byte for byte
// (apsp_paths' predecessors on matrices of several tiles: where equally short paths tie, each must
// end a shortest path); the OpenMP results are themselves checked against reference code by
// test/e2e. The two programs of a pair run at the same time (one on the GPU, one on the host cores).
//
// --small (for compute-sanitizer, which follows the CUDA programs): two small graphs, four kernels.
#include <sys/wait.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpu_check.hpp"
#include "gql/generate.hpp"
#include "gql/io.hpp"

namespace {

namespace fs = std::filesystem;

struct Program {
  const char* spec;  // the spec's stem: PROGRAM_DIR/generated_<stem>_{cuda,openmp}
  std::vector<const char*> pattern_kernels;   // take graph<bool>
  std::vector<const char*> weighted_kernels;  // take a weighted graph
  const char* more_arguments = "";            // after --G: the kernels' other parameters
};

const std::vector<Program>& programs() {
  static const std::vector<Program> all = {
      {"products",
       {"count2", "any_pair2", "first_middle2", "fof_new", "triangles"},
       {"min_plus2", "widest2", "max_times2", "heaviest2"}},
      {"fof", {"fof", "fof_new"}, {}},
      {"bfs", {"bfs"}, {}, "--src 0"},
      {"components", {"components"}, {}},
      {"sssp", {}, {"sssp"}, "--src 0"},
      {"graph_ops", {}, {"masked_merge", "value_masked", "heavy_edges", "bands_through"}},
  };
  return all;
}

std::string program_path(const char* spec, const char* target) {
  return std::string(GQL_GENERATED_PROGRAM_DIR) + "/generated_" + spec + "_" + target;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs a shell command with its output in `log`; returns the exit status (-1 when killed).
int run(const std::string& command, const std::string& log) {
  const int raw = std::system((command + " >" + log + " 2>&1").c_str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

// The first line where two texts differ, for the failure message.
std::string first_difference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la)), gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "same lines, different bytes";
    if (!ga || !gb || la != lb)
      return "line " + std::to_string(line) + ": cuda '" + (ga ? la : "<end>") + "' vs openmp '" + (gb ? lb : "<end>") + "'";
  }
}

// Runs `kernel` of both programs of `spec` (CUDA and OpenMP, side by side) with `arguments`, each
// writing BASE.TARGET.mtx and its log BASE.TARGET.log; false (and a failed check) when either exits
// otherwise than 0.
bool run_both(const std::string& spec, const std::string& kernel, const std::string& arguments,
              const std::string& base, const std::string& what) {
  int status[2] = {-1, -1};
  const char* targets[2] = {"cuda", "openmp"};
  std::vector<std::thread> runs;
  for (int t = 0; t < 2; ++t)
    runs.emplace_back([&, t] {
      status[t] = run(program_path(spec.c_str(), targets[t]) + " " + kernel + " " + arguments + " --out " + base + "." +
                          targets[t] + ".mtx",
                      base + "." + targets[t] + ".log");
    });
  for (auto& r : runs) r.join();
  bool ran = true;
  for (int t = 0; t < 2; ++t)
    ran = GPU_CHECK_MSG(status[t] == 0, what + ": the " + targets[t] + " program exited " + std::to_string(status[t]) +
                                            ": " + read_file(base + "." + targets[t] + ".log")) && ran;
  return ran;
}

// Runs `kernel` of both programs of `spec` with `arguments` and compares their --out files.
void compare(const char* spec, const char* kernel, const std::string& arguments, const std::string& label,
             const fs::path& dir) {
  const std::string base = (dir / (std::string(spec) + "." + kernel + "." + label)).string();
  const std::string what = std::string(spec) + " " + kernel + " on " + label;
  if (!run_both(spec, kernel, arguments, base, what)) return;
  const std::string cuda = read_file(base + ".cuda.mtx"), openmp = read_file(base + ".openmp.mtx");
  GPU_CHECK_MSG(!openmp.empty(), what + ": empty output");
  if (GPU_CHECK_MSG(cuda == openmp, what + ": " + first_difference(cuda, openmp))) {
    fs::remove(base + ".cuda.mtx");
    fs::remove(base + ".openmp.mtx");
  }
}

struct Input {
  std::string path_or_spec;
  std::string label;  // a file-name-safe name
};

// A program's arguments: the graph and the kernel's other parameters.
std::string graph_arguments(const Input& in, const char* more_arguments = "") {
  return "--G '" + in.path_or_spec + "' " + more_arguments;
}

// Real graphs used when they are in $GQL_DATA_DIR: small and mid-sized, every reader format.
std::vector<Input> real_graphs(const std::vector<const char*>& names) {
  std::vector<Input> found;
  const char* dir = std::getenv("GQL_DATA_DIR");
  if (dir == nullptr || *dir == '\0') return found;
  for (const char* name : names) {
    const fs::path path = fs::path(dir) / name;
    if (fs::exists(path)) found.push_back({path.string(), name});
  }
  return found;
}

// A dense core of `core` vertices (every core vertex linked to every other) inside a sparse periphery
// of `n` vertices in all (a few random edges each, half of them into the core), weights in [1, 255].
// Each core row has about core^2 products, beyond the large-row threshold of the CUDA schedules
// (4096), so the dense-accumulator path runs beside the shared-memory classes while the output
// stays small.
template <class T>
gql::Csr<T> core_periphery(int64_t n, int64_t core, uint64_t seed) {
  std::mt19937_64 rng(seed);
  gql::Array<gql::offset_t> offsets{0};
  gql::Array<gql::index_t> columns;
  gql::Array<gql::storage_t<T>> values;
  for (int64_t i = 0; i < n; ++i) {
    std::map<gql::index_t, int> row;
    if (i < core)
      for (int64_t j = 0; j < core; ++j) row[static_cast<gql::index_t>(j)] = static_cast<int>(1 + rng() % 255);
    for (int e = 0; e < 4; ++e) {
      const uint64_t range = rng() % 2 ? static_cast<uint64_t>(core) : static_cast<uint64_t>(n);
      row[static_cast<gql::index_t>(rng() % range)] = static_cast<int>(1 + rng() % 255);
    }
    for (const auto& [j, w] : row) {
      columns.push_back(j);
      if constexpr (gql::stores_values<T>) values.push_back(static_cast<gql::storage_t<T>>(w));
    }
    offsets.push_back(static_cast<gql::offset_t>(columns.size()));
  }
  gql::Csr<T> g(n, n, std::move(offsets), std::move(columns), std::move(values));
  g.validate();
  return g;
}

template <class T>
Input written(const gql::Csr<T>& graph, const std::string& label, const fs::path& dir) {
  const std::string path = (dir / (label + ".mtx")).string();
  gql::write_matrix_market(path, graph);
  return {path, label};
}

// A generated weighted graph written as Matrix Market: Kronecker with weights in [1, 255].
Input weighted_kronecker(int scale, const fs::path& dir) {
  gql::KroneckerOptions options;
  options.scale = scale;
  options.edge_factor = 8;
  options.weighted = true;
  const std::string path = (dir / ("kron" + std::to_string(scale) + "_weighted.mtx")).string();
  gql::write_matrix_market(path, gql::kronecker<double>(options));
  return {path, "kron" + std::to_string(scale) + "_weighted"};
}

// A dense integer matrix with values in [-20, 79], written as a Matrix Market array.
std::string written_matrix(int64_t rows, int64_t cols, uint64_t seed, const std::string& name, const fs::path& dir) {
  std::mt19937_64 rng(seed);
  gql::Matrix<int64_t> m(rows, cols);
  for (auto& x : m.data()) x = static_cast<int64_t>(rng() % 100) - 20;
  const std::string path = (dir / (name + ".mtx")).string();
  gql::write_matrix_market(path, m);
  return path;
}

// test/e2e/specs/dense_products.gql: the products whose results are exact (integers, min over sums of
// small integers) must be equal byte for byte; float sums (plus_times by cuBLAS against OpenBLAS,
// noisy-or) differ in their last bits and are compared to a tolerance by gpu_test_dense_products.
// On CUDA, matrix x matrix runs on the GPU and the pairings with a graph or a vector on the host.
int compare_dense_products(const fs::path& dir, bool small) {
  const int64_t n = small ? 40 : 300;
  const std::string A = written_matrix(n, n + 7, 1, "dense_A", dir), B = written_matrix(n + 7, n - 3, 2, "dense_B", dir);
  const std::string M = written_matrix(n, n, 3, "dense_M", dir);
  const Input G = written(core_periphery<int64_t>(n, n / 4, 9), "dense_G", dir);
  gql::Vector<int64_t> v(n);
  for (int64_t k = 0; k < n; k += 7) v.set_entry(k, k % 13);
  const std::string V = (dir / "dense_v.mtx").string();
  gql::write_matrix_market(V, v);
  const std::vector<std::pair<const char*, std::string>> runs = {
      {"mm_min_plus", "--A " + A + " --B " + B},
      {"mm_via_k", "--A " + A + " --B " + B},
      {"mm_plus_times_i64", "--A " + A + " --B " + B},
      {"gm_min_plus", "--G " + G.path_or_spec + " --B " + M},
      {"mg_via_k", "--A " + M + " --G " + G.path_or_spec},
      {"vm_min_plus", "--v " + V + " --A " + M},
      {"densified", "--G " + G.path_or_spec},
      {"two_hops", "--G " + G.path_or_spec},
  };
  for (const auto& [kernel, arguments] : runs) compare("dense_products", kernel, arguments, "dense", dir);
  return static_cast<int>(runs.size());
}

// test/e2e/specs/stores.gql: loops of element stores, with reads between them, into graphs the host holds
// and graphs an op made (on CUDA on the device, where the stores wait and are merged in one pass and the
// reads read single entries), and into a sparse vector on the device. Generated graphs only: a loop that
// reads between its stores merges what waits at each read, on either target.
int compare_stores(const fs::path& dir, bool small) {
  std::vector<Input> inputs{{"kron:6", "kron6"}};
  if (!small) inputs = {{"kron:10", "kron10"}, {"grid:30x40", "grid30x40"}, {"urand:9:4", "urand9"}};
  const std::vector<std::pair<const char*, const char*>> kernels = {
      {"graph_stores", "--rounds 3"},   {"device_graph_stores", "--rounds 3"},
      {"pattern_stores", "--rounds 2"}, {"device_pattern_stores", "--rounds 2"},
      {"stores_and_reads", ""},         {"device_stores_and_reads", ""}};
  int compared = 0;
  for (const Input& in : inputs)
    for (const auto& [kernel, arguments] : kernels) {
      compare("stores", kernel, graph_arguments(in, arguments), in.label, dir);
      ++compared;
    }
  compare("stores", "vector_stores", small ? "--n 300" : "--n 30000", "n", dir);
  return compared + 1;
}

// A weighted graph with negative weights and no cycle (a grid's right and down edges; one in five
// weighs -2, the rest 1.5), where single-source paths cannot reproduce the relaxation loop: both
// programs run the loop as written (on CUDA over its device values).
Input negative_dag(int side, const fs::path& dir) {
  gql::Array<gql::offset_t> offsets{0};
  gql::Array<gql::index_t> columns;
  gql::Array<double> values;
  for (int r = 0; r < side; ++r)
    for (int c = 0; c < side; ++c) {
      if (c + 1 < side) {
        columns.push_back(r * side + c + 1);
        values.push_back((r * 31 + c) % 5 == 0 ? -2.0 : 1.5);
      }
      if (r + 1 < side) {
        columns.push_back((r + 1) * side + c);
        values.push_back((r * 17 + c) % 5 == 0 ? -2.0 : 1.5);
      }
      offsets.push_back(static_cast<gql::offset_t>(columns.size()));
    }
  return written(gql::Csr<double>(side * side, side * side, std::move(offsets), std::move(columns), std::move(values)),
                 "negative_dag" + std::to_string(side), dir);
}

// std/apsp.gql on a weighted graph read with --fill inf (integer weights, so every f32 sum is exact):
// apsp's distances equal byte for byte; apsp_paths' distances (FILE.0) too, and its predecessors
// (FILE.1) equal where the OpenMP closure is one tile (n <= 128: plain Floyd-Warshall, the GPU
// kernel's order); on larger matrices the tiles may pick another of equally short paths, so each
// CUDA predecessor must end a shortest path, and be -1 exactly where the OpenMP one is.
void compare_apsp_paths(const Input& in, int64_t n, const fs::path& dir) {
  const std::string base = (dir / ("apsp.apsp_paths." + in.label)).string();
  const std::string what = "apsp apsp_paths on " + in.label;
  if (!run_both("apsp", "apsp_paths", "--D '" + in.path_or_spec + "' --fill inf", base, what)) return;
  const auto member = [&](const char* target, int m) { return base + "." + target + ".mtx." + std::to_string(m); };
  const std::string cuda = read_file(member("cuda", 0)), openmp = read_file(member("openmp", 0));
  GPU_CHECK_MSG(!openmp.empty() && cuda == openmp, what + ": distances: " + first_difference(cuda, openmp));
  const std::string cuda_pred = read_file(member("cuda", 1)), openmp_pred = read_file(member("openmp", 1));
  if (n <= 128) {
    GPU_CHECK_MSG(!openmp_pred.empty() && cuda_pred == openmp_pred,
                  what + ": predecessors: " + first_difference(cuda_pred, openmp_pred));
    return;
  }
  const float inf = std::numeric_limits<float>::infinity();
  const gql::Matrix<float> w = gql::read_matrix<float>(in.path_or_spec, {}, inf);
  // A tuple's members are Matrix Market files whose names (FILE.mtx.0) do not say so.
  const gql::ReadOptions written_mtx{.format = gql::Format::matrix_market};
  const gql::Matrix<float> d = gql::read_matrix<float>(member("cuda", 0), written_mtx);
  const gql::Matrix<int32_t> pred = gql::read_matrix<int32_t>(member("cuda", 1), written_mtx);
  const gql::Matrix<int32_t> twin = gql::read_matrix<int32_t>(member("openmp", 1), written_mtx);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      const int32_t p = pred(i, j);
      if (i == j || d(i, j) == inf) {
        bad += p != -1 || twin(i, j) != -1;
        continue;
      }
      bad += p < 0 || p >= n || twin(i, j) == -1 || w(p, j) == inf || d(i, j) != (p == i ? 0.0f : d(i, p)) + w(p, j);
    }
  GPU_CHECK_MSG(bad == 0, what + ": " + std::to_string(bad) + " predecessors do not end a shortest path");
}

// std/apsp.gql: the closure (register tiles on CUDA) and the closure with paths (the global-memory
// kernel), both over the kernel's device values, against the OpenMP programs.
int compare_apsp(const fs::path& dir, bool small) {
  int compared = 0;
  for (const int64_t n : small ? std::vector<int64_t>{60} : std::vector<int64_t>{100, 300}) {
    const Input in = written(core_periphery<float>(n, n / 5, 11), "apsp" + std::to_string(n), dir);
    compare("apsp", "apsp", "--D '" + in.path_or_spec + "' --fill inf", in.label, dir);
    compare_apsp_paths(in, n, dir);
    compared += 2;
  }
  return compared;
}

void body() {
  char pattern[] = "/tmp/gql-gpu-generated-XXXXXX";
  const char* made = mkdtemp(pattern);
  if (!GPU_CHECK_MSG(made != nullptr, "mkdtemp failed")) return;
  const fs::path dir(made);
  const bool small = gql::gpu_test::small_inputs();

  std::vector<Input> pattern_inputs, weighted_inputs;
  if (small) {
    pattern_inputs = {{"kron:6", "kron6"}, written(core_periphery<bool>(400, 190, 7), "core_periphery", dir)};
  } else {
    pattern_inputs = {{"kron:11", "kron11"}, {"urand:11:8", "urand11"}, {"grid:30x40", "grid30x40"},
                      written(core_periphery<bool>(3000, 300, 7), "core_periphery", dir)};
    weighted_inputs = {weighted_kronecker(10, dir), {"grid:6x5", "grid6x5"},
                       written(core_periphery<double>(3000, 300, 8), "core_periphery_weighted", dir)};
    for (const auto& g : real_graphs({"karate.mtx", "dolphins.mtx", "polbooks.mtx", "email-Eu-core.txt.gz",
                                      "hollins.dat", "ca-GrQc.csv", "p2p-Gnutella31.txt.gz"}))
      pattern_inputs.push_back(g);
    for (const auto& g : real_graphs({"rome99.gr", "netscience.mtx", "DE.gr.gz"})) weighted_inputs.push_back(g);
  }
  std::printf("inputs: %zu pattern, %zu weighted%s\n", pattern_inputs.size(), weighted_inputs.size(),
              std::getenv("GQL_DATA_DIR") ? "" : " (GQL_DATA_DIR unset: generated graphs only)");

  int compared = 0;
  for (const Program& p : programs()) {
    for (const char* kernel : p.pattern_kernels) {
      // Under the sanitizer: the sum path, a positional con, a complemented mask, a traversal.
      if (small && std::string(kernel) != "count2" && std::string(kernel) != "first_middle2" &&
          std::string(kernel) != "fof_new" && std::string(kernel) != "bfs")
        continue;
      for (const auto& in : pattern_inputs) {
        compare(p.spec, kernel, graph_arguments(in, p.more_arguments), in.label, dir);
        ++compared;
      }
    }
    for (const char* kernel : p.weighted_kernels)
      for (const auto& in : weighted_inputs) {
        compare(p.spec, kernel, graph_arguments(in, p.more_arguments), in.label, dir);
        ++compared;
      }
  }
  if (small) {  // a user-written agg (the CAS loop) under the sanitizer too, on a tiny weighted graph
    compare("products", "heaviest2", graph_arguments({"grid:4x5", "grid4x5"}), "grid4x5", dir);
    ++compared;
  }
  // Single-source paths' fallback: the loop as written, where the traversal cannot reproduce it.
  compare("sssp", "sssp", graph_arguments(negative_dag(small ? 8 : 40, dir), "--src 0"), "negative_dag", dir);
  ++compared;
  compared += compare_apsp(dir, small);
  compared += compare_dense_products(dir, small);
  compared += compare_stores(dir, small);
  std::printf("compared %d kernel runs of the CUDA and OpenMP programs\n", compared);
  if (gql::gpu_test::failures() == 0) fs::remove_all(dir);
  else std::printf("outputs and logs kept in %s\n", dir.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  return gql::gpu_test::run_main(argc, argv, "gpu_test_generated_cuda", body);
}
