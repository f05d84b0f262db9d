// gqlc: the command line over gql::compiler. Argument parsing and printing only.
#include <cstdio>
#include <cstring>
#include <string>

#include "gql/compiler/compiler.hpp"
#include "gql/compiler/version.hpp"

namespace {

const char* usage =
    "usage: gqlc [options] FILE --emit ast|ir\n"
    "       gqlc check [options] FILE\n"
    "\n"
    "Compiles a .gql spec of semiring graph kernels.\n"
    "\n"
    "commands:\n"
    "  check              check FILE, sampling user-written aggs for their laws (warnings)\n"
    "options:\n"
    "  --emit ast|ir      print the syntax tree or the typed IR\n"
    "  --target T         openmp (default) or cuda: whose schedules the IR carries\n"
    "  -I DIR             search DIR for imports (after the file's folder, before the stdlib)\n"
    "  --help             print this help\n"
    "  --version          print the version\n";

int fail_usage(const std::string& message) {
  std::fprintf(stderr, "gqlc: error: %s\n%s", message.c_str(), usage);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  gql::compiler::Options options;
  std::string file, emit;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--help" || arg == "-h") {
      std::fputs(usage, stdout);
      return 0;
    }
    if (arg == "--version") {
      std::printf("gqlc %s\n", gql::compiler::version());
      return 0;
    }
    if (arg == "check" && file.empty() && !check) {
      check = true;
    } else if (arg == "--emit" || arg.rfind("--emit=", 0) == 0) {
      const char* v = arg == "--emit" ? next() : argv[i] + 7;
      if (!v || (std::strcmp(v, "ast") != 0 && std::strcmp(v, "ir") != 0)) return fail_usage("--emit takes ast or ir");
      emit = v;
    } else if (arg == "--target" || arg.rfind("--target=", 0) == 0) {
      const char* v = arg == "--target" ? next() : argv[i] + 9;
      if (v && std::strcmp(v, "openmp") == 0) options.target = gql::compiler::ir::Target::openmp;
      else if (v && std::strcmp(v, "cuda") == 0) options.target = gql::compiler::ir::Target::cuda;
      else return fail_usage("--target takes openmp or cuda");
    } else if (arg == "-I" || (arg.rfind("-I", 0) == 0 && arg.size() > 2)) {
      const char* v = arg == "-I" ? next() : argv[i] + 2;
      if (!v) return fail_usage("-I takes a folder");
      options.include_dirs.emplace_back(v);
    } else if (!arg.empty() && arg[0] == '-') {
      return fail_usage("unknown option '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return fail_usage("more than one input file ('" + file + "' and '" + arg + "')");
    }
  }
  if (file.empty()) return fail_usage("no input file");
  if (!check && emit.empty()) return fail_usage("nothing to do: use 'gqlc check FILE' or --emit ast|ir");
  options.check_laws = check;

  gql::compiler::Compiler compiler(options);
  bool ok = compiler.compile_file(file);
  std::fputs(compiler.rendered_diagnostics().c_str(), stderr);
  // The syntax tree prints even when later stages found errors, as long as the file was read.
  if (emit == "ast" && compiler.main_ast()) std::fputs(gql::compiler::ast::print(*compiler.main_ast()).c_str(), stdout);
  if (!ok) return 1;
  if (emit == "ir") std::fputs(gql::compiler::ir::print_module(*compiler.module()).c_str(), stdout);
  return 0;
}
