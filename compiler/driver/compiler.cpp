#include "gql/compiler/compiler.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gql/compiler/install_layout.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/error.hpp"
#include "parse/parser.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler {

namespace fs = std::filesystem;

namespace {
constexpr int max_import_depth = 32;
constexpr size_t max_files = 256;

// The most text a spec and its imports may hold together (80 times the largest spec shipped): the
// front end's memory and time grow with the text, up to about 260 bytes and 3 us per byte for a
// body of short statements, so this bounds both.
constexpr uintmax_t max_text_bytes = uintmax_t{1} << 20;

std::string text_bound() { return "a spec and its imports may hold at most " + std::to_string(max_text_bytes >> 20) + " MiB together"; }

// Why a file was not read: too large for the bound (file-too-large), or unreadable.
struct ReadFailure {
  DiagnosticId id = DiagnosticId::unreadable_file;
  std::string why;
};

// The text of a spec file of at most `limit` bytes, or why it cannot be read (in `failure`).
std::optional<std::string> read_file(const std::string& path, uintmax_t limit, ReadFailure& failure) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  if (ec) {  // a missing file, or a folder on the way that cannot be searched
    failure.why = ec.message();
    return std::nullopt;
  }
  if (!fs::is_regular_file(status)) {
    failure.why = fs::is_directory(status) ? "it is a folder" : "not a regular file";
    return std::nullopt;
  }
  const auto too_big = [&](uintmax_t size) {
    failure.id = DiagnosticId::file_too_large;
    const uintmax_t before = max_text_bytes - limit;
    failure.why = std::to_string(size) + " bytes" +
                  (before > 0 ? ", and the files read before it hold " + std::to_string(before) : std::string()) +
                  "; " + text_bound();
    return std::nullopt;
  };
  const uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > limit) return too_big(size);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    failure.why = "cannot open it";
    return std::nullopt;
  }
  // Read in pieces up to the limit, not by the size measured above: the file may grow meanwhile.
  std::string text;
  char piece[1 << 16];
  while (in.read(piece, sizeof piece) || in.gcount() > 0) {
    text.append(piece, static_cast<size_t>(in.gcount()));
    if (text.size() > limit) return too_big(text.size());
  }
  return text;
}

// Bytes of text read so far (the spec and its imports).
uintmax_t text_bytes(const SourceManager& sources) {
  uintmax_t total = 0;
  for (uint32_t f = 0; f < sources.size(); ++f) total += sources.file(f).text.size();
  return total;
}

std::string canonical(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(path, ec);
  return ec ? path : p.string();
}
}  // namespace

const char* to_string(Stage stage) noexcept {
  switch (stage) {
    case Stage::none: return "none";
    case Stage::read: return "read";
    case Stage::parse: return "parse";
    case Stage::imports: return "imports";
    case Stage::sema: return "sema";
    case Stage::plan: return "plan";
    case Stage::codegen: return "codegen";
    case Stage::build: return "build";
  }
  return "unknown";
}

const char* default_stdlib_dir() noexcept {
  // An installed gqlc uses the stdlib installed beside it (install_layout.hpp), else this build's.
  static const std::string dir = [] {
    try {
      return runtime_layout().stdlib_dir;
    } catch (const Error&) {
      return std::string(GQL_STDLIB_DIR);
    }
  }();
  return dir.c_str();
}

Compiler::Compiler(Options options) : options_(std::move(options)), diagnostics_(options_.max_errors) {
  if (options_.stdlib_dir.empty()) options_.stdlib_dir = default_stdlib_dir();
  for (DiagnosticId id : options_.silenced_warnings) diagnostics_.silence(id);
}

Compiler::~Compiler() = default;

const ast::File* Compiler::main_ast() const noexcept { return files_.empty() ? nullptr : files_.front().get(); }

bool Compiler::compile_file(const std::string& path) {
  ReadFailure failure;
  auto text = read_file(path, max_text_bytes, failure);
  if (!text) {
    diagnostics_.error(Span{UINT32_MAX, 0, 0}, failure.id, "cannot read '" + path + "': " + failure.why);
    failed_stage_ = Stage::read;
    return false;
  }
  return compile_source(path, std::move(*text));
}

bool Compiler::compile_source(const std::string& path, std::string text) {
  if (text.size() > max_text_bytes) {
    diagnostics_.error(Span{UINT32_MAX, 0, 0}, DiagnosticId::file_too_large,
                       "'" + path + "' holds " + std::to_string(text.size()) + " bytes; " + text_bound());
    failed_stage_ = Stage::read;
    return false;
  }
  failed_stage_ = Stage::none;
  const size_t errors_before = diagnostics_.error_count();
  uint32_t id = sources_.add(path, std::move(text));
  files_.push_back(std::make_unique<ast::File>(parse_file(sources_, id, diagnostics_)));
  const bool syntax_errors = diagnostics_.error_count() > errors_before;
  canonical_paths_.push_back(canonical(path));
  direct_imports_.emplace_back();
  load_imports(0, 0);
  order_.push_back(0);
  // Syntax errors stop here: checking a half-parsed program would only add noise.
  if (diagnostics_.has_errors()) {
    diagnostics_.sort_by_location();
    failed_stage_ = syntax_errors ? Stage::parse : Stage::imports;
    return false;
  }
  sema::Program program;
  for (size_t i : order_) program.files.push_back(files_[i].get());
  program.main = files_.front().get();
  program.imports = transitive_imports();
  program.sources = &sources_;
  sema::AnalyzeOptions analyze_options;
  analyze_options.target = options_.target;
  ir::Module module = sema::analyze(program, analyze_options, diagnostics_);
  diagnostics_.sort_by_location();
  if (diagnostics_.has_errors()) {
    failed_stage_ = Stage::sema;
    return false;
  }
  module.distributed = options_.distributed;
  module.whole_on_every_rank = options_.whole_on_every_rank;
  if (options_.recognize_traversals) plan::recognize_traversals(module);
  if (options_.fuse_elementwise) plan::fuse_elementwise(module);
  module_ = std::move(module);
  return true;
}

std::optional<std::string> Compiler::resolve_import(const std::string& import, const std::string& from) const {
  std::vector<fs::path> dirs;
  dirs.push_back(fs::path(from).parent_path());
  for (const std::string& d : options_.include_dirs) dirs.emplace_back(d);
  dirs.emplace_back(options_.stdlib_dir);
  for (const fs::path& dir : dirs) {
    fs::path candidate = dir / import;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

// Depth-first: every file's imports are analyzed before it (order_); a file is read once.
void Compiler::load_imports(size_t file_index, int depth) {
  const uint32_t source = files_[file_index]->source;
  std::vector<ast::Import> imports = files_[file_index]->imports;
  for (const ast::Import& imp : imports) {
    if (depth >= max_import_depth || files_.size() >= max_files) {
      diagnostics_.error(imp.span, DiagnosticId::too_many_imports, "imports nest too deeply or name too many files");
      return;
    }
    if (imp.path.find('\0') != std::string::npos) {  // the file system would read a shorter name
      diagnostics_.error(imp.span, DiagnosticId::import_not_found, "an import path cannot hold a NUL byte");
      continue;
    }
    auto path = resolve_import(imp.path, sources_.file(source).path);
    if (!path) {
      diagnostics_.error(imp.span, DiagnosticId::import_not_found,
                         "cannot find import \"" + imp.path + "\" (searched the file's folder, -I folders and " +
                             options_.stdlib_dir + ")");
      continue;
    }
    std::string key = canonical(*path);
    auto seen = std::find(canonical_paths_.begin(), canonical_paths_.end(), key);
    if (seen != canonical_paths_.end()) {
      direct_imports_[file_index].push_back(static_cast<size_t>(seen - canonical_paths_.begin()));
      continue;
    }
    ReadFailure failure;
    auto text = read_file(*path, max_text_bytes - text_bytes(sources_), failure);
    if (!text) {
      diagnostics_.error(imp.span, failure.id, "cannot read import '" + *path + "': " + failure.why);
      continue;
    }
    uint32_t id = sources_.add(*path, std::move(*text));
    files_.push_back(std::make_unique<ast::File>(parse_file(sources_, id, diagnostics_)));
    canonical_paths_.push_back(key);
    direct_imports_.emplace_back();
    size_t index = files_.size() - 1;
    direct_imports_[file_index].push_back(index);
    load_imports(index, depth + 1);
    order_.push_back(index);
  }
}

// Source id -> the source ids of every file it imports, directly or not (a depth-first walk per file;
// a few dozen files at most).
std::map<uint32_t, std::set<uint32_t>> Compiler::transitive_imports() const {
  std::map<uint32_t, std::set<uint32_t>> result;
  for (size_t root = 0; root < files_.size(); ++root) {
    std::set<uint32_t>& reached = result[files_[root]->source];
    std::vector<size_t> stack = direct_imports_[root];
    while (!stack.empty()) {
      size_t f = stack.back();
      stack.pop_back();
      if (!reached.insert(files_[f]->source).second) continue;
      stack.insert(stack.end(), direct_imports_[f].begin(), direct_imports_[f].end());
    }
  }
  return result;
}

}  // namespace gql::compiler
