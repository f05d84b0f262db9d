// The front end as a library: reads a .gql file (and its imports), parses, checks and lowers it
// to the IR, collecting diagnostics. Tools print what it collected; it never prints or exits.
#pragma once

#include <memory>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "gql/compiler/ast.hpp"
#include "gql/compiler/diagnostic.hpp"
#include "gql/compiler/ir.hpp"
#include "gql/compiler/source.hpp"
#include "gql/compiler/stage.hpp"

namespace gql::compiler {

struct Options {
  std::vector<std::string> include_dirs;  // searched for imports after the importing file's folder
  std::string stdlib_dir;                 // searched last; empty: the installed stdlib
  ir::Target target = ir::Target::openmp;
  bool recognize_traversals = true;       // BFS / Bellman-Ford loops become one traversal op each
  bool fuse_elementwise = true;           // OpenMP: applies and vxm results fused into their one reader
  bool distributed = false;               // OpenMP: for several processes (gqlc --mpi, ir::Module::distributed)
  bool whole_on_every_rank = false;       // with distributed: no value split (the JIT's; ir::Module::whole_on_every_rank)
  size_t max_errors = 50;
  std::vector<DiagnosticId> silenced_warnings;  // left unreported (gqlc -Wno-NAME)
};

// The stdlib folder this build was configured with.
const char* default_stdlib_dir() noexcept;

class Compiler {
 public:
  explicit Compiler(Options options);
  ~Compiler();
  Compiler(const Compiler&) = delete;
  Compiler& operator=(const Compiler&) = delete;

  // Runs the front end on a file, or on text named `path`. Returns false when any error was found.
  bool compile_file(const std::string& path);
  bool compile_source(const std::string& path, std::string text);

  // The stage that stopped the last compile_file / compile_source (Stage::none when it succeeded);
  // diagnostics() holds what that stage found.
  Stage failed_stage() const noexcept { return failed_stage_; }
  const Diagnostics& diagnostics() const noexcept { return diagnostics_; }
  const SourceManager& sources() const noexcept { return sources_; }
  std::string rendered_diagnostics() const { return render_all(diagnostics_, sources_); }

  const ast::File* main_ast() const noexcept;  // null when the main file could not be read
  const ir::Module* module() const noexcept { return module_ ? &*module_ : nullptr; }  // null on errors

 private:
  void load_imports(size_t file_index, int depth);
  std::optional<std::string> resolve_import(const std::string& import, const std::string& from) const;
  std::map<uint32_t, std::set<uint32_t>> transitive_imports() const;

  Options options_;
  SourceManager sources_;
  Diagnostics diagnostics_;
  std::vector<std::unique_ptr<ast::File>> files_;      // main file first, then imports as found
  std::vector<std::string> canonical_paths_;
  std::vector<size_t> order_;                          // files, imports before importers
  std::vector<std::vector<size_t>> direct_imports_;    // per file, the files its imports name
  std::optional<ir::Module> module_;
  Stage failed_stage_ = Stage::none;
};

}  // namespace gql::compiler
