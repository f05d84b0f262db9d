// The command line of programs that gqlc builds ahead of time:
//
//   prog KERNEL --PARAM VALUE ... [--out FILE] [--stats] [--explain] [--threads N] [--repeat N]
//        [--symmetrize] [--drop-self-loops] [--duplicates first|sum|min|max|error]
//
// Generated code describes each kernel (name, typed parameters, a run function) and calls
// gql::run_program; this file owns argument checking, loading inputs, the runs (one per value of a
// list parameter, times --repeat), timing by phase, --stats, --explain, the progress line and
// writing the results. Wrong arguments print a usage message and exit 2.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gql/graph.hpp"
#include "gql/io.hpp"
#include "gql/kernel_context.hpp"
#include "gql/progress_line.hpp"
#include "gql/search_roots.hpp"

namespace gql {

enum class ParamKind { graph, matrix, vector, scalar, vertex };

struct ParamSpec {
  std::string name;
  ParamKind kind;
  std::string element_type;  // as the language spells it: "bool", "u64", "f32", ...
};

// The phases of a program done once, before its runs (--stats reports each); the compute, download
// and writing of every run are timed per run (RunRecord).
enum class Phase { load, device_start, upload };

// Each run's value of a scalar parameter: one value for every run, or one per value of a list
// (`--src 0,17,4242`, `--src random:64`), indexed by Run::value_index().
template <class T>
class RunValues {
 public:
  explicit RunValues(std::vector<T> values) : values_(std::move(values)) {}
  const T& operator[](size_t value_index) const { return values_[values_.size() == 1 ? 0 : value_index]; }

 private:
  std::vector<T> values_;
};

// One run of the kernel: which run it is, the context it fills, and (CUDA programs) where its compute
// ends and the result's download begins.
class Run {
 public:
  Run(size_t value_index, KernelContext& context) : value_index_(value_index), context_(context) {}
  size_t value_index() const noexcept { return value_index_; }
  KernelContext& context() noexcept { return context_; }
  // The compute is done (the device synchronized); what follows is the download.
  void computed() { computed_at_ = std::chrono::steady_clock::now(); }
  const std::optional<std::chrono::steady_clock::time_point>& computed_at() const noexcept { return computed_at_; }

 private:
  size_t value_index_;
  KernelContext& context_;
  std::optional<std::chrono::steady_clock::time_point> computed_at_;
};

// What --stats reports of one run.
struct RunRecord {
  std::string values;  // the list parameters' values of this run, as "--src 17"
  double compute_seconds = 0;
  double download_seconds = -1;  // -1: the result was made where it is returned (no download)
  WorkCounts work;
};

// How many runs the command line asks for: the length of its value lists, times --repeat.
struct RunCount {
  int64_t values = 1;  // each list parameter has this many values (the others one)
  int64_t repeat = 1;  // --repeat: runs per value
  int64_t runs() const noexcept { return values * repeat; }
};

// The calls of a kernel from the command line: the parsed arguments and the output options.
class Invocation {
 public:
  Invocation(std::string kernel, std::map<std::string, std::string> values, std::string out_path, bool stats,
             bool explain, ReadOptions read = {}, RunCount runs = {}, std::optional<std::string> fill = {})
      : kernel_(std::move(kernel)),
        values_(std::move(values)),
        out_path_(std::move(out_path)),
        stats_(stats),
        explain_(explain),
        read_(read),
        runs_(runs),
        fill_(std::move(fill)) {}

  // Inputs, loaded from a file path or a generator spec (gql/io.hpp's rules), timed as the load.
  template <class T> Csr<T> graph(const std::string& name) { return once(Phase::load, [&] { return read_graph<T>(raw(name), read_); }); }
  // A matrix given a sparse file or a generator holds --fill's value where it has no entry.
  template <class T> Matrix<T> matrix(const std::string& name);
  template <class T> Vector<T> vector(const std::string& name) { return once(Phase::load, [&] { return read_vector<T>(raw(name), read_); }); }
  // A scalar parameter's values: literals of its type (range-checked; malformed ones are usage
  // errors), one or a comma-separated list.
  template <class T> RunValues<T> scalars(const std::string& name);
  // A vertex parameter's values: ids checked against the first graph or matrix parameter (none:
  // only the range of an id), one, a list, or `random:COUNT[:SEED]`, distinct vertices with an edge
  // other than a self-loop drawn as Graph500 draws search roots (a graph parameter needed).
  template <class G> RunValues<int64_t> vertices(const std::string& name, const G& first);
  RunValues<int64_t> vertices(const std::string& name) { return vertex_values(name, -1, nullptr); }
  // The same for a graph of n_vertices whose roots `draw(count, seed)` draws (a graph split across
  // processes draws them together: gql/dist/program.hpp).
  RunValues<int64_t> vertices(const std::string& name, int64_t n_vertices,
                              const std::function<std::vector<int64_t>(int64_t, uint64_t)>& draw) {
    return vertex_values(name, n_vertices, &draw);
  }

  // Runs f once before the runs, timed as phase p (device start, upload); returns what f returns.
  template <class F>
  auto once(Phase p, F&& f) {
    const auto begin = std::chrono::steady_clock::now();
    if constexpr (std::is_void_v<decltype(f())>) {
      f();
      add_phase(p, begin);
    } else {
      auto result = f();
      add_phase(p, begin);
      return result;
    }
  }

  // Runs the kernel once per run: body(Run&) returns the result, which goes to --out; then prints
  // --stats and --explain. A progress line is shown on a terminal while the runs last over a second.
  template <class F>
  void run(F&& body);

 private:
  const std::string& raw(const std::string& name) const;
  void add_phase(Phase p, std::chrono::steady_clock::time_point begin);
  RunValues<int64_t> vertex_values(const std::string& name, int64_t n_vertices,
                                   const std::function<std::vector<int64_t>(int64_t, uint64_t)>* draw);
  void note_values(const std::string& name, std::vector<std::string> texts);
  std::string run_values_text(size_t value_index) const;
  std::string out_path_of(int64_t run) const;
  void print_header() const;  // the kernel and the phases done once, before the runs
  void print_run(int64_t run, const RunRecord& record) const;
  void print_stats(const std::string& result_summary, std::span<const std::string> plan) const;
  void print_summary(const std::string& result_summary) const;
  template <class R> std::string write(const R& result, int64_t run);

  std::string kernel_;
  std::map<std::string, std::string> values_;
  std::string out_path_;
  bool stats_;
  bool explain_;
  ReadOptions read_;  // --symmetrize, --drop-self-loops, --duplicates: applied to every graph input
  RunCount runs_;
  std::optional<std::string> fill_;  // --fill: the absent entries of a matrix read from a sparse source
  std::map<std::string, std::vector<std::string>> listed_;  // list parameters: each value as text
  std::map<Phase, double> once_seconds_;                     // load, device start, upload
  std::vector<RunRecord> records_;
  double write_seconds_ = 0;
};

struct KernelEntry {
  std::string name;
  std::vector<ParamSpec> params;
  std::string result_type;  // as the language spells it, for the usage message
  std::function<void(Invocation&)> run;
};

// Whether this process writes what the program says: its results, summary, --stats, --explain and
// errors (the default). In a distributed run (gql/dist/program.hpp) every rank computes the same
// results and only rank 0 writes them.
void set_program_writes(bool writes);
bool program_writes();

// Parses argv, runs the chosen kernel, and returns the process exit status (0 ok, 1 runtime
// error, 2 usage error). Never throws.
int run_program(int argc, char** argv, std::span<const KernelEntry> kernels);

// ---- implementation details of the templates above ---------------------------------------------

namespace program_detail {
// Parses a scalar literal of type T, throwing Error(usage) that names the parameter on failure.
template <class T> T parse_scalar(const std::string& name, const std::string& text);
// Writers for --out: a graph in the format its file name says (Matrix Market, edge list, DIMACS,
// binary; write_graph), dense matrices and vectors as Matrix Market, scalars as one line of text (the
// path "-" is standard output). `named` is the --out name the format comes from (a tuple's members
// go to NAME.0, NAME.1, ...).
template <class T> void write_result(const std::string& path, const Csr<T>& g, const std::string& named) {
  write_graph(path, g, output_format(named));
}
// Error(usage) unless `named` says Matrix Market, the one format of dense matrices and vectors.
void require_matrix_market(const std::string& named, const char* what);
template <class T> void write_result(const std::string& path, const Matrix<T>& m, const std::string& named) {
  require_matrix_market(named, "a dense matrix");
  write_matrix_market(path, m);
}
template <class T> void write_result(const std::string& path, const Vector<T>& v, const std::string& named) {
  require_matrix_market(named, "a vector");
  write_matrix_market(path, v);
}
// A scalar as one line: integers exactly, floats with the shortest digits that read back exactly.
template <class T> requires std::is_arithmetic_v<T> void write_result(const std::string& path, T x);
template <class T> requires std::is_arithmetic_v<T> void write_result(const std::string& path, T x, const std::string&) {
  write_result(path, x);
}
// A scalar as the programs print and write it (bool as true/false, 8-bit integers as numbers,
// floats in their shortest exact form).
template <class T> requires std::is_arithmetic_v<T> std::string scalar_text(T x);
// A result's line on standard output, flushed; an error when it cannot be written.
void print_result_line(const std::string& line);
// What a result is, for the summary and --stats: its kind, shape and entries, or a scalar's value.
template <class T> std::string result_summary(const Csr<T>& g) {
  return "graph " + std::to_string(g.n_rows()) + "x" + std::to_string(g.n_cols()) + ", " + std::to_string(g.nvals()) +
         " entries";
}
template <class T> std::string result_summary(const Matrix<T>& m) {
  return "matrix " + std::to_string(m.n_rows()) + "x" + std::to_string(m.n_cols());
}
template <class T> std::string result_summary(const Vector<T>& v) {
  return "vector of " + std::to_string(v.size()) + ", " + std::to_string(v.nvals()) + " entries";
}
template <class T> requires std::is_arithmetic_v<T> std::string result_summary(T x) { return scalar_text(x); }

template <class Tuple, size_t... I>
void write_tuple(const std::string& path, const Tuple& t, std::index_sequence<I...>) {
  (write_result(path + "." + std::to_string(I), std::get<I>(t), path), ...);
}
// The items' summaries joined by `separator`.
template <class Tuple, size_t... I>
std::string tuple_summary(const Tuple& t, const char* separator, std::index_sequence<I...>) {
  std::string out;
  ((out += (I == 0 ? "" : separator) + result_summary(std::get<I>(t))), ...);
  return out;
}
// Merges the element stores a result's graphs and vectors hold waiting (gql/pending_stores.hpp), so
// that a run's time includes them.
template <class T> void settle(const Csr<T>& g) { g.settle(); }
template <class T> void settle(const Vector<T>& v) { v.settle(); }
template <class R> void settle(const R&) {}
template <class... T> void settle(const std::tuple<T...>& t) {
  std::apply([](const T&... member) { (settle(member), ...); }, t);
}
template <class T> struct is_tuple : std::false_type {};
template <class... T> struct is_tuple<std::tuple<T...>> : std::true_type {};
// Results that print as values without --out: scalars and tuples of scalars.
template <class R> constexpr bool prints_values = std::is_arithmetic_v<R>;
template <class... T> constexpr bool prints_values<std::tuple<T...>> = (std::is_arithmetic_v<T> && ...);
// The items of a comma-separated list (one item when there is no comma).
std::vector<std::string> split_list(const std::string& text);
}  // namespace program_detail

template <class R>
std::string Invocation::write(const R& result, int64_t run) {
  using namespace program_detail;
  const std::string path = out_path_of(run);
  std::string summary;
  if constexpr (is_tuple<R>::value) summary = "(" + tuple_summary(result, ", ", std::make_index_sequence<std::tuple_size_v<R>>{}) + ")";
  else summary = result_summary(result);
  if (!program_writes()) return summary;
  if (path.empty()) {
    // Without --out, a scalar result is printed (each run's), a tuple of scalars as its values on a line.
    if constexpr (std::is_arithmetic_v<R>) write_result(std::string("-"), result);
    else if constexpr (prints_values<R>) print_result_line(tuple_summary(result, " ", std::make_index_sequence<std::tuple_size_v<R>>{}));
  } else {
    const auto begin = std::chrono::steady_clock::now();
    if constexpr (is_tuple<R>::value) write_tuple(path, result, std::make_index_sequence<std::tuple_size_v<R>>{});
    else write_result(path, result, path);
    write_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  }
  return summary;
}

template <class F>
void Invocation::run(F&& body) {
  ProgressLine progress(kernel_);
  std::vector<std::string> plan;
  std::string summary;
  print_header();
  for (int64_t r = 0; r < runs_.runs(); ++r) {
    const auto value_index = static_cast<size_t>(r / runs_.repeat);
    KernelContext context(explain_ && r == 0);  // runs are independent; the first one's plan is printed
    Run run(value_index, context);
    const auto start = std::chrono::steady_clock::now();
    auto result = body(run);
    program_detail::settle(result);
    const auto end = std::chrono::steady_clock::now();
    RunRecord record{run_values_text(value_index), 0, -1, context.work()};
    const auto computed = run.computed_at().value_or(end);
    record.compute_seconds = std::chrono::duration<double>(computed - start).count();
    if (run.computed_at()) record.download_seconds = std::chrono::duration<double>(end - computed).count();
    if (r == 0) plan.assign(context.plan().begin(), context.plan().end());
    summary = write(result, r);
    if (stats_ && runs_.runs() > 1) print_run(r, record);
    records_.push_back(std::move(record));
  }
  // Without --out, a result holding a container is summarized (scalars were printed).
  if constexpr (!program_detail::prints_values<std::decay_t<std::invoke_result_t<F&, Run&>>>)
    if (out_path_.empty() && !stats_) print_summary(summary);
  print_stats(summary, plan);
}

template <class T>
Matrix<T> Invocation::matrix(const std::string& name) {
  return once(Phase::load, [&] {
    const std::optional<T> fill =
        fill_ ? std::optional<T>(program_detail::parse_scalar<T>("fill", *fill_)) : std::nullopt;
    return read_matrix<T>(raw(name), read_, fill);
  });
}

template <class T>
RunValues<T> Invocation::scalars(const std::string& name) {
  std::vector<T> values;
  std::vector<std::string> texts = program_detail::split_list(raw(name));
  for (const std::string& text : texts) values.push_back(program_detail::parse_scalar<T>(name, text));
  note_values(name, std::move(texts));
  return RunValues<T>(std::move(values));
}

template <class G>
RunValues<int64_t> Invocation::vertices(const std::string& name, const G& first) {
  if constexpr (requires { first.col_indices(); }) {
    const std::function<std::vector<int64_t>(int64_t, uint64_t)> draw = [&](int64_t count, uint64_t seed) {
      return draw_search_roots(first, count, seed);
    };
    return vertex_values(name, rows(first), &draw);
  } else {
    return vertex_values(name, rows(first), nullptr);
  }
}

}  // namespace gql
