// Argument handling, timing and reporting for gqlc-built programs (see gql/program.hpp).
#include "gql/program.hpp"

#include <omp.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "gql/limits.hpp"

namespace gql {
namespace {

// The options every program takes besides its kernel's parameters.
const char* const program_options[] = {"stats", "explain", "out", "symmetrize", "drop-self-loops", "duplicates",
                                       "threads"};

// Edit distance between a and b, letters compared without case (so --g finds --G).
size_t edit_distance(std::string_view a, std::string_view b) {
  const auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// " (did you mean PREFIX + the nearest candidate?)" when one is within a third of the name's length
// (at least one edit), else nothing.
std::string did_you_mean(std::string_view name, const std::vector<std::string>& candidates, std::string_view prefix) {
  const std::string* best = nullptr;
  size_t best_distance = std::max<size_t>(1, name.size() / 3) + 1;
  for (const std::string& c : candidates) {
    const size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best = &c;
      best_distance = d;
    }
  }
  return best ? " (did you mean " + std::string(prefix) + *best + "?)" : "";
}

const char* kind_name(ParamKind kind) {
  switch (kind) {
    case ParamKind::graph: return "graph";
    case ParamKind::matrix: return "matrix";
    case ParamKind::vector: return "vector";
    case ParamKind::scalar: return "scalar";
    case ParamKind::vertex: return "vertex";
  }
  return "?";
}

std::string param_hint(const ParamSpec& p) {
  switch (p.kind) {
    case ParamKind::graph:
      return "FILE|kron:SCALE|urand:SCALE|grid:RxC  (graph<" + p.element_type + ">)";
    case ParamKind::matrix: return "FILE|kron:SCALE|...  (matrix<" + p.element_type + ">, densified)";
    case ParamKind::vector: return "FILE  (vector<" + p.element_type + ">)";
    case ParamKind::scalar: return "VALUE  (" + p.element_type + ")";
    case ParamKind::vertex: return "ID  (vertex, 0-based)";
  }
  return "";
}

void print_usage(std::ostream& os, const char* program, std::span<const KernelEntry> kernels) {
  os << "usage: " << program << " KERNEL --PARAM VALUE ... [--out FILE] [--stats] [--explain] [--threads N]\n"
     << "       [--symmetrize] [--drop-self-loops] [--duplicates first|sum|min|max|error]\n"
     << "kernels:\n";
  for (const auto& k : kernels) {
    os << "  " << k.name;
    for (const auto& p : k.params) os << " --" << p.name << ' ' << kind_name(p.kind);
    os << "  -> " << k.result_type << '\n';
    for (const auto& p : k.params) os << "      --" << p.name << ' ' << param_hint(p) << '\n';
  }
  os << "options:\n"
        "  --out FILE    write the result (Matrix Market; a scalar as one line; a tuple as FILE.0, FILE.1, ...)\n"
        "  --stats       print time, rates, result size and peak memory\n"
        "  --explain     print the plan chosen for each operation\n"
        "  --threads N   number of CPU threads (default: all)\n"
        "input policies (every graph and matrix argument, files and generators alike):\n"
        "  --symmetrize        make each graph undirected (A union A^T)\n"
        "  --drop-self-loops   remove every entry (i, i)\n"
        "  --duplicates P      how repeated entries combine: first (default), sum, min, max, error\n";
}

// Peak resident memory of this process, in bytes.
int64_t peak_memory_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<int64_t>(usage.ru_maxrss) * 1024;
}

std::string human_rate(double per_second) {
  char buf[64];
  const char* units[] = {"", "K", "M", "G", "T"};
  int u = 0;
  while (per_second >= 1000.0 && u < 4) {
    per_second /= 1000.0;
    ++u;
  }
  std::snprintf(buf, sizeof buf, "%.3g %s", per_second, units[u]);
  return buf;
}

}  // namespace

const std::string& Invocation::raw(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error(ErrorKind::usage, "missing argument --" + name);
  return it->second;
}

int64_t Invocation::vertex(const std::string& name, int64_t n_vertices) const {
  const auto id = program_detail::parse_scalar<int64_t>(name, raw(name));
  const int64_t limit = n_vertices < 0 ? max_vertices - 1 : n_vertices;
  if (id < 0 || id >= limit)
    throw Error(ErrorKind::usage, "--" + name + " " + std::to_string(id) + " is not a vertex id (ids are 0.." +
                                      std::to_string(limit - 1) + ")");
  return id;
}

void Invocation::print_summary(int64_t result_size) const {
  std::cout << kernel_ << ": " << result_size << " entries (--out FILE writes them, --stats times the run)\n";
}

void Invocation::print_stats(int64_t result_size) const {
  if (context_.explaining()) {
    std::cout << "plan:\n";
    for (const auto& line : context_.plan()) std::cout << "  " << line << '\n';
  }
  if (!stats_) return;
  const auto& w = context_.work();
  std::cout << "kernel:  " << kernel_ << '\n';
  if (device_start_seconds_ >= 0) std::printf("device start: %.6f s (before the kernel's time)\n", device_start_seconds_);
  std::printf("time:    %.6f s\n", seconds_);
  std::fflush(stdout);
  const double t = seconds_ > 0 ? seconds_ : 1e-9;
  if (w.products) std::cout << "products: " << w.products << " (" << human_rate(w.products / t) << "products/s)\n";
  if (w.edges) std::cout << "edges:   " << w.edges << " (" << human_rate(w.edges / t) << "edges/s)\n";
  if (w.updates) std::cout << "updates: " << w.updates << " (" << human_rate(w.updates / t) << "updates/s)\n";
  std::cout << "result:  " << result_size << " entries\n";
  std::cout << "peak memory: " << peak_memory_bytes() / (1024 * 1024) << " MiB\n";
  std::cout << "threads: " << omp_get_max_threads() << '\n';
}

namespace program_detail {

template <class T>
T parse_scalar(const std::string& name, const std::string& text) {
  auto bad = [&](const char* why) {
    return Error(ErrorKind::usage, "--" + name + " '" + text + "': " + why);
  };
  if constexpr (std::is_same_v<T, bool>) {
    if (text == "true" || text == "1") return true;
    if (text == "false" || text == "0") return false;
    throw bad("expected true or false");
  } else {
    T value{};
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (!text.empty() && text[0] == '+') ++first;
    std::from_chars_result r;
    if constexpr (std::is_floating_point_v<T>) {
      if (text == "inf" || text == "+inf") return std::numeric_limits<T>::infinity();
      if (text == "-inf") return -std::numeric_limits<T>::infinity();
      r = std::from_chars(first, last, value);
    } else {
      r = std::from_chars(first, last, value);
    }
    if (r.ec == std::errc::result_out_of_range) throw bad("out of range for the parameter's type");
    if (r.ec != std::errc() || r.ptr != last || first == last) throw bad("not a number of the parameter's type");
    return value;
  }
}

template <class T>
  requires std::is_arithmetic_v<T>
void write_result(const std::string& path, T x) {
  std::string line;
  if constexpr (std::is_same_v<T, bool>) {
    line = x ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    line.assign(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
  } else {
    line = std::to_string(x);  // promotes 8-bit integers, so they print as numbers
  }
  if (path == "-") {
    std::cout << line << '\n' << std::flush;
    if (!std::cout) throw Error(ErrorKind::io, "cannot write the result", {"standard output"});
    return;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << line << '\n';
  file.close();
  if (!file) throw Error(ErrorKind::io, "cannot write the result", {path});
}

#define GQL_INSTANTIATE_SCALAR(T)                                          \
  template T parse_scalar<T>(const std::string&, const std::string&); \
  template void write_result<T>(const std::string&, T);
GQL_INSTANTIATE_SCALAR(bool)
GQL_INSTANTIATE_SCALAR(int8_t)
GQL_INSTANTIATE_SCALAR(int16_t)
GQL_INSTANTIATE_SCALAR(int32_t)
GQL_INSTANTIATE_SCALAR(int64_t)
GQL_INSTANTIATE_SCALAR(uint8_t)
GQL_INSTANTIATE_SCALAR(uint16_t)
GQL_INSTANTIATE_SCALAR(uint32_t)
GQL_INSTANTIATE_SCALAR(uint64_t)
GQL_INSTANTIATE_SCALAR(float)
GQL_INSTANTIATE_SCALAR(double)
#undef GQL_INSTANTIATE_SCALAR

}  // namespace program_detail

int run_program(int argc, char** argv, std::span<const KernelEntry> kernels, void (*start_device)()) {
  const char* program = argc > 0 ? argv[0] : "prog";
  auto usage_error = [&](const std::string& message) {
    std::cerr << program << ": " << message << '\n';
    print_usage(std::cerr, program, kernels);
    return 2;
  };
  if (argc < 2) return usage_error("no kernel named");
  const std::string first = argv[1];
  if (first == "--help" || first == "-h") {
    print_usage(std::cout, program, kernels);
    return 0;
  }
  const KernelEntry* kernel = nullptr;
  for (const auto& k : kernels)
    if (k.name == first) kernel = &k;
  if (!kernel) {
    std::vector<std::string> names;
    for (const auto& k : kernels) names.push_back(k.name);
    return usage_error("unknown kernel '" + first + "'" + did_you_mean(first, names, ""));
  }

  std::map<std::string, std::string> values;
  std::string out_path;
  bool stats = false, explain = false;
  ReadOptions read;
  std::vector<std::string> option_names(std::begin(program_options), std::end(program_options));
  for (const auto& p : kernel->params) option_names.push_back(p.name);
  for (int a = 2; a < argc; ++a) {
    // --NAME=VALUE is --NAME VALUE.
    std::string arg = argv[a];
    std::optional<std::string> inline_value;
    if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = arg.substr(eq + 1);
      arg.resize(eq);
    }
    auto next = [&]() -> const char* {
      if (inline_value) return inline_value->c_str();
      return a + 1 < argc ? argv[++a] : nullptr;
    };
    if (inline_value && (arg == "--stats" || arg == "--explain" || arg == "--symmetrize" || arg == "--drop-self-loops"))
      return usage_error(arg + " takes no value");
    if (arg == "--stats") {
      stats = true;
    } else if (arg == "--explain") {
      explain = true;
    } else if (arg == "--out") {
      const char* v = next();
      if (!v) return usage_error("--out needs a file name");
      out_path = v;
    } else if (arg == "--symmetrize") {
      read.symmetrize = true;
    } else if (arg == "--drop-self-loops") {
      read.self_loops = SelfLoops::drop;
    } else if (arg == "--duplicates") {
      const char* given = next();
      const std::string v = given ? given : "";
      if (v == "first") read.duplicates = Duplicates::first;
      else if (v == "sum") read.duplicates = Duplicates::sum;
      else if (v == "min") read.duplicates = Duplicates::min;
      else if (v == "max") read.duplicates = Duplicates::max;
      else if (v == "error") read.duplicates = Duplicates::error;
      else return usage_error("--duplicates takes first, sum, min, max or error");
    } else if (arg == "--threads") {
      const char* v = next();
      int threads = 0;
      // The bound the schedules' `threads` directive has: more threads than that is a mistake.
      if (!v || std::from_chars(v, v + std::string_view(v).size(), threads).ec != std::errc() || threads < 1 ||
          threads > max_threads)
        return usage_error("--threads needs a whole number from 1 to " + std::to_string(max_threads));
      omp_set_num_threads(threads);
    } else if (arg.rfind("--", 0) == 0) {
      const std::string name = arg.substr(2);
      bool known = false;
      for (const auto& p : kernel->params) known = known || p.name == name;
      if (!known)
        return usage_error("kernel '" + kernel->name + "' has no parameter --" + name +
                           did_you_mean(name, option_names, "--"));
      const char* v = next();
      if (!v) return usage_error("--" + name + " needs a value");
      if (!values.emplace(name, v).second) return usage_error("--" + name + " given twice");
    } else {
      return usage_error("unexpected argument '" + arg + "'");
    }
  }
  for (const auto& p : kernel->params)
    if (!values.count(p.name)) return usage_error("missing argument --" + p.name);

  try {
    Invocation invocation(kernel->name, std::move(values), std::move(out_path), stats, explain, read, start_device);
    kernel->run(invocation);
    return 0;
  } catch (const Error& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return e.kind() == ErrorKind::usage ? 2 : 1;
  } catch (const std::bad_alloc&) {
    std::cerr << program << ": out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << program << ": internal error: " << e.what() << '\n';
    return 1;
  }
}

}  // namespace gql
