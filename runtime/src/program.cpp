// Argument handling, timing and reporting for gqlc-built programs (see gql/program.hpp).
#include "gql/program.hpp"

#include <malloc.h>
#include <omp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
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
                                       "fill", "threads", "repeat"};

// The most runs one command line may ask for (a list's values times --repeat).
constexpr int64_t max_runs = 1'000'000;

// `random:COUNT[:SEED]` of a vertex parameter: the count and the seed (1 when not given); nothing when
// `text` is not a draw. Error(usage) for a malformed draw.
std::optional<std::pair<int64_t, uint64_t>> parse_draw(const std::string& name, const std::string& text) {
  if (text.rfind("random:", 0) != 0) return std::nullopt;
  const std::string rest = text.substr(7);
  const size_t colon = rest.find(':');
  const auto bad = [&] {
    return Error(ErrorKind::usage, "--" + name + " '" + text + "': expected random:COUNT[:SEED], COUNT from 1 to " +
                                       std::to_string(max_runs));
  };
  int64_t count = 0;
  uint64_t seed = 1;
  const std::string count_text = rest.substr(0, colon);
  auto r = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  if (r.ec != std::errc() || r.ptr != count_text.data() + count_text.size() || count < 1 || count > max_runs) throw bad();
  if (colon != std::string::npos) {
    const std::string seed_text = rest.substr(colon + 1);
    r = std::from_chars(seed_text.data(), seed_text.data() + seed_text.size(), seed);
    if (r.ec != std::errc() || r.ptr != seed_text.data() + seed_text.size() || seed_text.empty()) throw bad();
  }
  return std::pair{count, seed};
}

// How many values a scalar or vertex parameter's argument holds (a list's items, a draw's count).
int64_t value_count(const ParamSpec& p, const std::string& text) {
  if (const auto draw = parse_draw(p.name, text)) {
    if (p.kind != ParamKind::vertex)
      throw Error(ErrorKind::usage, "--" + p.name + " '" + text + "': random: draws vertices, and --" + p.name +
                                        " is a " + p.element_type);
    return draw->first;
  }
  return static_cast<int64_t>(program_detail::split_list(text).size());
}

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
    case ParamKind::matrix:
      return "FILE|kron:SCALE|...  (matrix<" + p.element_type + ">; a sparse one densified with --fill)";
    case ParamKind::vector: return "FILE  (vector<" + p.element_type + ">)";
    case ParamKind::scalar: return "VALUE[,VALUE...]  (" + p.element_type + "; a list runs the kernel once per value)";
    case ParamKind::vertex: return "ID[,ID...]|random:COUNT[:SEED]  (vertex, 0-based; one run per vertex)";
  }
  return "";
}

void print_usage(std::ostream& os, const char* program, std::span<const KernelEntry> kernels) {
  os << "usage: " << program << " KERNEL --PARAM VALUE ... [--out FILE] [--stats] [--explain] [--threads N] [--repeat N]\n"
     << "       [--symmetrize] [--drop-self-loops] [--duplicates first|sum|min|max|error] [--fill VALUE]\n"
     << "kernels:\n";
  for (const auto& k : kernels) {
    os << "  " << k.name;
    for (const auto& p : k.params) os << " --" << p.name << ' ' << kind_name(p.kind);
    os << "  -> " << k.result_type << '\n';
    for (const auto& p : k.params) os << "      --" << p.name << ' ' << param_hint(p) << '\n';
  }
  os << "options:\n"
        "  --out FILE    write the result in the format FILE's extension names (.mtx, .txt, .gr, .gqlb, .gz of\n"
        "                text; a scalar as one line; a tuple as FILE.0, FILE.1, ...);\n"
        "                with several runs FILE holds {run}, replaced by each run's number\n"
        "  --stats       print the time of each phase, rates, result size and peak memory\n"
        "  --explain     print the plan chosen for each operation\n"
        "  --threads N   number of CPU threads (default: all)\n"
        "  --repeat N    run the kernel N times per value (inputs loaded once)\n"
        "input policies (every graph and matrix argument, files and generators alike):\n"
        "  --symmetrize        make each graph undirected (A union A^T)\n"
        "  --drop-self-loops   remove every entry (i, i)\n"
        "  --duplicates P      how repeated entries combine: first (default), sum, min, max, error\n"
        "  --fill VALUE        a matrix given a sparse file or a generator holds VALUE where it has no entry\n"
        "                      (e.g. inf for distances, 0 for sums); required for those\n";
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

// Whether --out can take the kernel's result, checked before anything is loaded: a format that holds
// each graph, matrix or vector of the result (`result_type` as the language spells it) and a folder
// that can be written. Returns the error's text, empty when the path is good.
std::string out_path_problem(std::string path, const std::string& result_type) {
  if (const size_t at = path.find("{run}"); at != std::string::npos) path.replace(at, 5, "1");
  try {
    // A tuple's members share the name's format: one dense member makes it Matrix Market.
    if (result_type.find("matrix<") != std::string::npos || result_type.find("vector<") != std::string::npos)
      program_detail::require_matrix_market(path, ("a " + result_type).c_str());
    else if (result_type.find("graph<") != std::string::npos)
      output_format(path);
  } catch (const Error& e) {
    return e.reason();
  }
  const size_t slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode)) return "it is a folder";
  if (access(folder.c_str(), W_OK) != 0) return "cannot write in " + folder + ": " + std::strerror(errno);
  return "";
}

}  // namespace

const std::string& Invocation::raw(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw Error(ErrorKind::usage, "missing argument --" + name);
  return it->second;
}

void Invocation::add_phase(Phase p, std::chrono::steady_clock::time_point begin) {
  once_seconds_[p] += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

RunValues<int64_t> Invocation::vertex_values(const std::string& name, int64_t n_vertices,
                                             const std::function<std::vector<int64_t>(int64_t, uint64_t)>* draw) {
  const std::string& text = raw(name);
  std::vector<int64_t> ids;
  std::vector<std::string> texts;
  if (const auto wanted = parse_draw(name, text)) {
    if (!draw)
      throw Error(ErrorKind::usage, "--" + name + " '" + text + "': random: draws the vertices of a graph parameter, "
                                    "and kernel '" + kernel_ + "' has none before it");
    ids = (*draw)(wanted->first, wanted->second);
    for (int64_t id : ids) texts.push_back(std::to_string(id));
  } else {
    texts = program_detail::split_list(text);
    const int64_t limit = n_vertices < 0 ? max_vertices - 1 : n_vertices;
    for (const std::string& item : texts) {
      const auto id = program_detail::parse_scalar<int64_t>(name, item);
      if (id < 0 || id >= limit)
        throw Error(ErrorKind::usage, "--" + name + " " + std::to_string(id) + " is not a vertex id (ids are 0.." +
                                          std::to_string(limit - 1) + ")");
      ids.push_back(id);
    }
  }
  note_values(name, std::move(texts));
  return RunValues<int64_t>(std::move(ids));
}

void Invocation::note_values(const std::string& name, std::vector<std::string> texts) {
  if (texts.size() > 1) listed_[name] = std::move(texts);
}

std::string Invocation::run_values_text(size_t value_index) const {
  std::string out;
  for (const auto& [name, texts] : listed_) out += (out.empty() ? "--" : " --") + name + " " + texts[value_index];
  return out;
}

std::string Invocation::out_path_of(int64_t run) const {
  std::string path = out_path_;
  const size_t at = path.find("{run}");
  if (at != std::string::npos) path.replace(at, 5, std::to_string(run + 1));
  return path;
}

namespace {

// "1.23 G products/s, 4.5 GTEPS": the rates of the work counted, per second of compute.
std::string rates_text(const WorkCounts& w, double seconds) {
  const double t = seconds > 0 ? seconds : 1e-9;
  std::string out;
  const auto add = [&](int64_t count, const char* unit) {
    if (count > 0) out += (out.empty() ? "" : ", ") + human_rate(count / t) + unit;
  };
  add(w.products, "products/s");
  add(w.edges, "edges/s");
  add(w.searched_edges, "TEPS");
  add(w.updates, "updates/s");
  return out;
}

double median_of(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  const size_t n = xs.size();
  return n % 2 == 1 ? xs[n / 2] : (xs[n / 2 - 1] + xs[n / 2]) / 2;
}

}  // namespace

void Invocation::print_summary(const std::string& result_summary) const {
  std::cout << kernel_ << ": " << result_summary << " (--out FILE writes it, --stats times the run)\n";
}


void Invocation::print_header() const {
  if (!stats_) return;
  std::cout << "kernel:  " << kernel_ << '\n';
  const auto phase = [&](Phase p, const char* line) {
    if (const auto it = once_seconds_.find(p); it != once_seconds_.end()) std::printf(line, it->second);
  };
  phase(Phase::load, "load:    %.6f s\n");
  phase(Phase::device_start, "device start: %.6f s (before the kernel's time)\n");
  phase(Phase::upload, "upload:  %.6f s\n");
  std::fflush(stdout);
}

void Invocation::print_run(int64_t run, const RunRecord& record) const {
  const double download = std::max(record.download_seconds, 0.0);
  std::printf("run %lld/%lld%s%s: time %.6f s (compute %.6f s", static_cast<long long>(run + 1),
              static_cast<long long>(runs_.runs()), record.values.empty() ? "" : " ", record.values.c_str(),
              record.compute_seconds + download, record.compute_seconds);
  if (record.download_seconds >= 0) std::printf(", download %.6f s", record.download_seconds);
  const std::string rates = rates_text(record.work, record.compute_seconds);
  std::printf(")%s%s\n", rates.empty() ? "" : ", ", rates.c_str());
  std::fflush(stdout);
}

void Invocation::print_stats(const std::string& result_summary, std::span<const std::string> plan) const {
  if (explain_) {
    std::cout << (runs_.runs() > 1 ? "plan (run 1):\n" : "plan:\n");
    for (const auto& line : plan) std::cout << "  " << line << '\n';
  }
  if (!stats_) return;
  const auto it = once_seconds_.find(Phase::upload);
  const double upload = it == once_seconds_.end() ? 0.0 : it->second;
  const bool downloads = !records_.empty() && records_.front().download_seconds >= 0;
  if (records_.size() == 1) {
    const RunRecord& r = records_.front();
    std::printf("compute: %.6f s\n", r.compute_seconds);
    if (downloads) std::printf("download: %.6f s\n", r.download_seconds);
    std::printf("time:    %.6f s\n", upload + r.compute_seconds + std::max(r.download_seconds, 0.0));
    const WorkCounts& w = r.work;
    const double t = r.compute_seconds > 0 ? r.compute_seconds : 1e-9;
    if (w.products) std::cout << "products: " << w.products << " (" << human_rate(w.products / t) << "products/s)\n";
    if (w.edges) std::cout << "edges:   " << w.edges << " (" << human_rate(w.edges / t) << "edges/s)\n";
    if (w.searched_edges)
      std::cout << "searched edges: " << w.searched_edges << " (" << human_rate(w.searched_edges / t) << "TEPS)\n";
    if (w.updates) std::cout << "updates: " << w.updates << " (" << human_rate(w.updates / t) << "updates/s)\n";
  } else {
    std::vector<double> times, computes, downloads_s;
    for (const RunRecord& r : records_) {
      times.push_back(r.compute_seconds + std::max(r.download_seconds, 0.0));
      computes.push_back(r.compute_seconds);
      downloads_s.push_back(std::max(r.download_seconds, 0.0));
    }
    std::printf("runs:    %lld (%lld values, --repeat %lld)\n", static_cast<long long>(runs_.runs()),
                static_cast<long long>(runs_.values), static_cast<long long>(runs_.repeat));
    std::printf("median time: %.6f s (compute %.6f s", median_of(times), median_of(computes));
    if (downloads) std::printf(", download %.6f s", median_of(downloads_s));
    std::printf("; min %.6f s, max %.6f s)\n", *std::min_element(times.begin(), times.end()),
                *std::max_element(times.begin(), times.end()));
    // The harmonic mean of each run's rate (Graph500's summary of TEPS): runs over the sum of the
    // seconds each unit of work took, over the runs that did such work.
    const auto harmonic = [&](int64_t WorkCounts::*count, const char* label, const char* unit) {
      double inverse = 0;
      int64_t n = 0, total = 0;
      for (const RunRecord& r : records_) {
        const int64_t c = r.work.*count;
        if (c <= 0) continue;
        inverse += std::max(r.compute_seconds, 1e-9) / static_cast<double>(c);
        total += c;
        ++n;
      }
      if (n > 0)
        std::cout << label << total << " in all; harmonic mean " << human_rate(static_cast<double>(n) / inverse)
                  << unit << " of compute over " << n << " runs\n";
    };
    harmonic(&WorkCounts::products, "products: ", "products/s");
    harmonic(&WorkCounts::edges, "edges:   ", "edges/s");
    harmonic(&WorkCounts::searched_edges, "searched edges: ", "TEPS");
    harmonic(&WorkCounts::updates, "updates: ", "updates/s");
  }
  if (!out_path_.empty()) std::printf("write:   %.6f s\n", write_seconds_);
  std::cout << "result:  " << result_summary << (records_.size() > 1 ? " (the last run)" : "") << '\n';
  std::cout << "peak memory: " << peak_memory_bytes() / (1024 * 1024) << " MiB\n";
  std::cout << "threads: " << omp_get_max_threads() << '\n';
}

namespace program_detail {

void require_matrix_market(const std::string& named, const char* what) {
  if (output_format(named) != Format::matrix_market)
    throw Error(ErrorKind::usage, std::string(what) + " is written as Matrix Market: name the file .mtx or .mm "
                                  "(optionally .gz)", {named});
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  size_t begin = 0;
  for (size_t comma; (comma = text.find(',', begin)) != std::string::npos; begin = comma + 1)
    items.push_back(text.substr(begin, comma - begin));
  items.push_back(text.substr(begin));
  return items;
}

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
    // inf and -inf as the language reads them: the float infinities, an integer's largest and lowest value.
    if (text == "inf" || text == "+inf")
      return std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity() : std::numeric_limits<T>::max();
    if (text == "-inf")
      return std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::lowest();
    r = std::from_chars(first, last, value);
    if (r.ec == std::errc::result_out_of_range) throw bad("out of range for the parameter's type");
    if (r.ec != std::errc() || r.ptr != last || first == last) throw bad("not a number of the parameter's type");
    return value;
  }
}

void print_result_line(const std::string& line) {
  std::cout << line << '\n' << std::flush;
  if (!std::cout) throw Error(ErrorKind::io, "cannot write the result", {"standard output"});
}

template <class T>
  requires std::is_arithmetic_v<T>
std::string scalar_text(T x) {
  if constexpr (std::is_same_v<T, bool>) {
    return x ? "true" : "false";
  } else if constexpr (std::is_floating_point_v<T>) {
    char buf[64];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
  } else {
    return std::to_string(x);  // promotes 8-bit integers, so they print as numbers
  }
}

template <class T>
  requires std::is_arithmetic_v<T>
void write_result(const std::string& path, T x) {
  const std::string line = scalar_text(x);
  if (path == "-") return print_result_line(line);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << line << '\n';
  file.close();
  if (!file) throw Error(ErrorKind::io, "cannot write the result", {path});
}

#define GQL_INSTANTIATE_SCALAR(T)                                          \
  template T parse_scalar<T>(const std::string&, const std::string&); \
  template void write_result<T>(const std::string&, T);                \
  template std::string scalar_text<T>(T);
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

namespace {

// Freed blocks stay in the process for the next allocation: a kernel's loop makes and drops vectors
// of the same sizes every iteration, and memory handed back to the system returns as fresh pages,
// each faulted in and zeroed again (a tenth of PageRank's time on kron:20). glibc otherwise maps
// blocks above a moving threshold and trims the heap's top; 32 MiB is its largest mapping threshold.
void keep_freed_memory() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, std::numeric_limits<int>::max());
#endif
}

bool& writes_flag() {
  static bool writes = true;
  return writes;
}

}  // namespace

void set_program_writes(bool writes) { writes_flag() = writes; }
bool program_writes() { return writes_flag(); }

int run_program(int argc, char** argv, std::span<const KernelEntry> kernels) {
  keep_freed_memory();
  if (!program_writes()) {  // both streams, whichever of C's and C++'s output writes to them
    if (!std::freopen("/dev/null", "w", stdout) || !std::freopen("/dev/null", "w", stderr)) return 1;
  }
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
  RunCount runs;
  std::optional<std::string> fill;
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
    } else if (arg == "--fill") {
      const char* v = next();
      if (!v) return usage_error("--fill needs a value");
      fill = v;
    } else if (arg == "--threads") {
      const char* v = next();
      int threads = 0;
      // The bound the schedules' `threads` directive has: more threads than that is a mistake.
      if (!v || std::from_chars(v, v + std::string_view(v).size(), threads).ec != std::errc() || threads < 1 ||
          threads > max_threads)
        return usage_error("--threads needs a whole number from 1 to " + std::to_string(max_threads));
      omp_set_num_threads(threads);
    } else if (arg == "--repeat") {
      const char* v = next();
      if (!v || std::from_chars(v, v + std::string_view(v).size(), runs.repeat).ec != std::errc() || runs.repeat < 1 ||
          runs.repeat > max_runs)
        return usage_error("--repeat needs a whole number from 1 to " + std::to_string(max_runs));
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
  if (fill && std::none_of(kernel->params.begin(), kernel->params.end(),
                           [](const ParamSpec& p) { return p.kind == ParamKind::matrix; }))
    return usage_error("--fill gives a matrix parameter's absent entries, and kernel '" + kernel->name +
                       "' has no matrix parameter");
  // Every list parameter has the same number of values; the others have one, shared by every run.
  std::string listed;
  for (const auto& p : kernel->params) {
    if (p.kind != ParamKind::scalar && p.kind != ParamKind::vertex) continue;
    int64_t count = 1;
    try {
      count = value_count(p, values.at(p.name));
    } catch (const Error& e) {
      return usage_error(e.reason());
    }
    if (count == 1) continue;
    if (runs.values > 1 && count != runs.values)
      return usage_error("--" + p.name + " has " + std::to_string(count) + " values and --" + listed + " has " +
                         std::to_string(runs.values) + ": lists run side by side and need the same length");
    runs.values = count;
    listed = p.name;
  }
  if (runs.runs() > max_runs) return usage_error("more than " + std::to_string(max_runs) + " runs asked for");
  if (!out_path.empty())
    if (const std::string problem = out_path_problem(out_path, kernel->result_type); !problem.empty())
      return usage_error("--out " + out_path + ": " + problem);
  if (runs.runs() > 1 && !out_path.empty() && out_path.find("{run}") == std::string::npos)
    return usage_error("--out " + out_path + ": " + std::to_string(runs.runs()) +
                       " runs write a result each; put {run} in the file name for the run's number (e.g. levels-{run}.mtx)");

  try {
    Invocation invocation(kernel->name, std::move(values), std::move(out_path), stats, explain, read, runs,
                          std::move(fill));
    kernel->run(invocation);
    // The summary, --stats and --explain go to standard output too: one that could not be written
    // (a full disk) fails the program like a result that could not.
    std::cout.flush();
    if (!std::cout) throw Error(ErrorKind::io, "cannot write the program's output", {"standard output"});
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
