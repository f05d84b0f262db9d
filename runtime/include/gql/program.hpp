// The command line of programs that gqlc builds ahead of time:
//
//   prog KERNEL --PARAM VALUE ... [--out FILE] [--stats] [--explain] [--threads N]
//        [--symmetrize] [--drop-self-loops] [--duplicates first|sum|min|max|error]
//
// Generated code describes each kernel (name, typed parameters, a run function) and calls
// gql::run_program; this file owns argument checking, loading inputs, timing, --stats, --explain,
// the progress line and writing the result. Wrong arguments print a usage message and exit 2.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
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

namespace gql {

enum class ParamKind { graph, matrix, vector, scalar, vertex };

struct ParamSpec {
  std::string name;
  ParamKind kind;
  std::string element_type;  // as the language spells it: "bool", "u64", "f32", ...
};

// One call of a kernel from the command line: the parsed arguments and the output options.
class Invocation {
 public:
  // `start_device` (CUDA programs) runs after the inputs are loaded and before the kernel is timed.
  Invocation(std::string kernel, std::map<std::string, std::string> values, std::string out_path,
             bool stats, bool explain, ReadOptions read = {}, void (*start_device)() = nullptr)
      : kernel_(std::move(kernel)),
        values_(std::move(values)),
        out_path_(std::move(out_path)),
        stats_(stats),
        read_(read),
        start_device_(start_device),
        context_(explain) {}

  // Inputs, loaded from a file path or a generator spec (gql/io.hpp's rules).
  template <class T> Csr<T> graph(const std::string& name) const;
  template <class T> Matrix<T> matrix(const std::string& name) const;
  template <class T> Vector<T> vector(const std::string& name) const;
  // A scalar literal of the parameter's type; out-of-range or malformed literals are usage errors.
  template <class T> T scalar(const std::string& name) const;
  // A vertex id, checked against the number of vertices of the graph it indexes (n_vertices < 0:
  // the kernel has no graph parameter, so only the range of a vertex id is checked).
  int64_t vertex(const std::string& name, int64_t n_vertices) const;

  KernelContext& context() noexcept { return context_; }

  // Runs the kernel body, timing it (inputs are loaded before, output written after), then writes
  // the result to --out and prints --stats / --explain. A progress line is shown on a terminal
  // while the body runs for more than a second.
  template <class F>
  void run(F&& body) {
    auto result = timed(std::forward<F>(body));
    finish(result);
  }

 private:
  template <class F>
  auto timed(F&& body) {
    ProgressLine progress(kernel_);
    if (start_device_) {
      const auto begin = std::chrono::steady_clock::now();
      start_device_();
      device_start_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    }
    const auto start = std::chrono::steady_clock::now();
    auto result = body(context_);
    seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

  const std::string& raw(const std::string& name) const;
  template <class R> void finish(const R& result);
  void print_stats(int64_t result_size) const;
  void print_summary(int64_t result_size) const;
  template <class T> void print_scalar(T x) const;

  std::string kernel_;
  std::map<std::string, std::string> values_;
  std::string out_path_;
  bool stats_;
  ReadOptions read_;  // --symmetrize, --drop-self-loops, --duplicates: applied to every graph input
  void (*start_device_)();
  KernelContext context_;
  double seconds_ = 0;
  double device_start_seconds_ = -1;  // -1: no device
};

struct KernelEntry {
  std::string name;
  std::vector<ParamSpec> params;
  std::string result_type;  // as the language spells it, for the usage message
  std::function<void(Invocation&)> run;
};

// Parses argv, runs the chosen kernel, and returns the process exit status (0 ok, 1 runtime
// error, 2 usage error). Never throws. CUDA programs pass gql::start_device, timed apart from the kernel.
int run_program(int argc, char** argv, std::span<const KernelEntry> kernels, void (*start_device)() = nullptr);

// ---- implementation details of the templates above ---------------------------------------------

namespace program_detail {
// Parses a scalar literal of type T, throwing Error(usage) that names the parameter on failure.
template <class T> T parse_scalar(const std::string& name, const std::string& text);
// Writers for --out (Matrix Market for graphs, matrices and vectors; one line of text for scalars;
// the path "-" is standard output).
template <class T> void write_result(const std::string& path, const Csr<T>& g) { write_matrix_market(path, g); }
template <class T> void write_result(const std::string& path, const Matrix<T>& m) { write_matrix_market(path, m); }
template <class T> void write_result(const std::string& path, const Vector<T>& v) { write_matrix_market(path, v); }
// A scalar as one line: integers exactly, floats with the shortest digits that read back exactly.
template <class T> requires std::is_arithmetic_v<T> void write_result(const std::string& path, T x);
template <class T> int64_t result_size(const Csr<T>& g) { return g.nvals(); }
template <class T> int64_t result_size(const Matrix<T>& m) { return m.n_rows() * m.n_cols(); }
template <class T> int64_t result_size(const Vector<T>& v) { return v.nvals(); }
template <class T> requires std::is_arithmetic_v<T> int64_t result_size(T) { return 1; }

template <class Tuple, size_t... I>
void write_tuple(const std::string& path, const Tuple& t, std::index_sequence<I...>) {
  (write_result(path + "." + std::to_string(I), std::get<I>(t)), ...);
}
template <class Tuple, size_t... I>
int64_t tuple_size(const Tuple& t, std::index_sequence<I...>) {
  return (result_size(std::get<I>(t)) + ... + 0);
}
template <class T> struct is_tuple : std::false_type {};
template <class... T> struct is_tuple<std::tuple<T...>> : std::true_type {};
}  // namespace program_detail

template <class R>
void Invocation::finish(const R& result) {
  using namespace program_detail;
  int64_t size = 0;
  if constexpr (is_tuple<R>::value) {
    constexpr auto n = std::tuple_size_v<R>;
    if (!out_path_.empty()) write_tuple(out_path_, result, std::make_index_sequence<n>{});
    size = tuple_size(result, std::make_index_sequence<n>{});
  } else {
    if (!out_path_.empty()) write_result(out_path_, result);
    size = result_size(result);
  }
  // Without --out, a scalar result is printed; a container is summarized by its size.
  if (out_path_.empty()) {
    if constexpr (std::is_arithmetic_v<R>) print_scalar(result);
    else if (!stats_) print_summary(size);
  }
  print_stats(size);
}
template <class T>
void Invocation::print_scalar(T x) const {
  program_detail::write_result(std::string("-"), x);
}

template <class T>
Csr<T> Invocation::graph(const std::string& name) const {
  return read_graph<T>(raw(name), read_);
}
template <class T>
Matrix<T> Invocation::matrix(const std::string& name) const {
  return read_matrix<T>(raw(name), read_);
}
template <class T>
Vector<T> Invocation::vector(const std::string& name) const {
  return read_vector<T>(raw(name), read_);
}

template <class T>
T Invocation::scalar(const std::string& name) const {
  return program_detail::parse_scalar<T>(name, raw(name));
}

}  // namespace gql
