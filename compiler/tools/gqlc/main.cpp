// gqlc: the command line over gql::compiler. Argument parsing and printing only.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "gql/compiler/codegen.hpp"
#include "gql/compiler/compiler.hpp"
#include "gql/compiler/diagnostic_ids.hpp"
#include "gql/compiler/plan.hpp"
#include "gql/compiler/toolchain.hpp"
#include "gql/compiler/verify.hpp"
#include "gql/compiler/version.hpp"
#include "gql/error.hpp"

namespace {

const char* usage =
    "usage: gqlc [options] FILE -o PROGRAM\n"
    "       gqlc [options] FILE --emit ast|ir|plan|source\n"
    "       gqlc [options] FILE --emit kernels --kernels-out BASE\n"
    "       gqlc check [options] FILE\n"
    "       gqlc check -verify [options] FILE\n"
    "       gqlc --list-diagnostics\n"
    "\n"
    "Compiles a .gql spec of semiring graph kernels.\n"
    "\n"
    "commands:\n"
    "  check              check FILE: errors and warnings (user-written aggs are sampled for their laws)\n"
    "options:\n"
    "  -verify            match the diagnostics against FILE's '// expected-error {{TEXT}}' comments\n"
    "                     (and expected-warning, expected-note; @N, @+N, @-N name another line;\n"
    "                     expected-no-diagnostics; [ID] before {{TEXT}} also matches the ID);\n"
    "                     print only what differs, exit 1 if anything does\n"
    "  -Wno-ID            leave out the warnings of this ID (as --list-diagnostics names it)\n"
    "  -o PROGRAM         build an executable: PROGRAM KERNEL --PARAM VALUE ... [--out FILE] [--stats]\n"
    "  --emit ast|ir|plan|source\n"
    "                     print the syntax tree, the typed IR, the plan per operation, or the\n"
    "                     generated C++ (OpenMP) or CUDA source\n"
    "  --emit kernels     write the kernels without main() to BASE.cpp (BASE.cu for cuda) and their\n"
    "                     declarations to BASE.hpp (--kernels-out BASE), for linking into a program\n"
    "  --target T         openmp (default) or cuda: the back end, and whose schedules apply\n"
    "  --keep-source      with -o: keep the generated source next to PROGRAM\n"
    "  --cuda-arch LIST   with -o --target cuda: the compute capabilities to build for (80,86,90);\n"
    "                     default $GQL_CUDA_ARCH, else this machine's GPUs, else 80,86,89,90\n"
    "  --literal-loops    lower every loop as written (no BFS / Bellman-Ford loop recognition)\n"
    "  --no-fusion        keep every element-wise op apart (no apply or vxm fused into its reader)\n"
    "  --mpi              a program for several processes (mpiexec -n N PROGRAM ...): openmp: its\n"
    "                     products, BFS levels and closures run over the ranks; cuda: its closures,\n"
    "                     over the ranks' GPUs; rank 0 writes\n"
    "  -I DIR             search DIR for imports (after the file's folder, before the stdlib)\n"
    "  --list-diagnostics\n"
    "                     print every diagnostic ID: its name, error or warning, and what it reports\n"
    "  --help             print this help\n"
    "  --version          print the version\n";

int fail_usage(const std::string& message) {
  std::fprintf(stderr, "gqlc: error: %s\n%s", message.c_str(), usage);
  return 2;
}

// Writes a generated file; throws gql::Error(io) when it cannot (closed first: a full disk may say so
// only then).
void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw gql::Error(gql::ErrorKind::io, "cannot write the generated file", {path});
}

// One line per row of the diagnostics table: the name (what -Wno- and -verify's [ID] take, and what
// ends a diagnostic's first line), error or warning, and what it reports.
void list_diagnostics() {
  size_t width = 0;
  for (const gql::compiler::DiagnosticInfo& row : gql::compiler::diagnostic_table())
    width = std::max(width, std::strlen(row.name));
  for (const gql::compiler::DiagnosticInfo& row : gql::compiler::diagnostic_table())
    std::printf("%-*s  %-7s  %s\n", static_cast<int>(width), row.name, gql::compiler::to_string(row.severity),
                row.description);
}

// -verify: prints where the diagnostics and the spec's expectations differ, nothing when they agree.
int verify(const gql::compiler::Compiler& compiler) {
  const std::string report = gql::compiler::verify_diagnostics(compiler.diagnostics(), compiler.sources());
  std::fputs(report.c_str(), stderr);
  return report.empty() ? 0 : 1;
}

int run(int argc, char** argv) {
  gql::compiler::Options options;
  std::string file, emit, output, kernels_out;
  bool check = false, keep_source = false, verify_expectations = false;
  std::vector<int> cuda_archs;
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
    if (arg == "--list-diagnostics") {
      list_diagnostics();
      return 0;
    }
    if (arg == "check" && file.empty() && !check) {
      check = true;
    } else if (arg == "--emit" || arg.rfind("--emit=", 0) == 0) {
      const char* v = arg == "--emit" ? next() : argv[i] + 7;
      const std::string what = v ? v : "";
      if (what != "ast" && what != "ir" && what != "plan" && what != "source" && what != "kernels")
        return fail_usage("--emit takes ast, ir, plan, source or kernels");
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
    } else if (arg == "-o") {
      const char* v = next();
      if (!v) return fail_usage("-o takes the program to write");
      output = v;
    } else if (arg == "--kernels-out") {
      const char* v = next();
      if (!v) return fail_usage("--kernels-out takes the base name of the files to write");
      kernels_out = v;
    } else if (arg == "--cuda-arch") {
      const char* v = next();
      if (!v) return fail_usage("--cuda-arch takes compute capabilities such as 80,86,90");
      try {
        cuda_archs = gql::compiler::parse_cuda_archs(v, "--cuda-arch");
      } catch (const gql::Error& e) {
        return fail_usage(e.reason());
      }
    } else if (arg == "-verify") {
      verify_expectations = true;
    } else if (arg.rfind("-Wno-", 0) == 0) {
      const std::string name = arg.substr(5);
      const auto id = gql::compiler::diagnostic_named(name);
      if (!id)
        return fail_usage("unknown diagnostic '" + name + "' in " + arg + "; gqlc --list-diagnostics lists them");
      if (gql::compiler::diagnostic_info(*id).severity != gql::compiler::Severity::warning)
        return fail_usage(arg + ": '" + name + "' is an error, and only warnings can be silenced");
      options.silenced_warnings.push_back(*id);
    } else if (arg == "--keep-source") {
      keep_source = true;
    } else if (arg == "--literal-loops") {
      options.recognize_traversals = false;
    } else if (arg == "--no-fusion") {
      options.fuse_elementwise = false;
    } else if (arg == "--mpi") {
      options.distributed = true;
    } else if (!arg.empty() && arg[0] == '-') {
      return fail_usage("unknown option '" + arg + "'");
    } else if (file.empty()) {
      file = arg;
    } else {
      return fail_usage("more than one input file ('" + file + "' and '" + arg + "')");
    }
  }
  if (file.empty()) return fail_usage("no input file");
  if ((emit == "kernels") != !kernels_out.empty()) return fail_usage("--emit kernels goes with --kernels-out BASE");
  if (verify_expectations && (!emit.empty() || !output.empty()))
    return fail_usage("-verify checks the diagnostics of the front end; it takes no -o or --emit");
  if (!check && !verify_expectations && emit.empty() && output.empty())
    return fail_usage("nothing to do: use -o PROGRAM, --emit ast|ir|plan|source, or 'gqlc check FILE'");

  gql::compiler::Compiler compiler(options);
  bool ok = compiler.compile_file(file);
  // A spec that could not be read holds no expectations: its error is printed as usual.
  if (verify_expectations && compiler.failed_stage() != gql::compiler::Stage::read) return verify(compiler);
  std::fputs(compiler.rendered_diagnostics().c_str(), stderr);
  // The syntax tree prints even when later stages found errors, as long as the file was read.
  if (emit == "ast" && compiler.main_ast())
    std::fputs(gql::compiler::ast::print(*compiler.main_ast(), compiler.sources()).c_str(), stdout);
  if (!ok) return 1;
  const auto& module = *compiler.module();
  if (emit == "ir") std::fputs(gql::compiler::ir::print_module(module).c_str(), stdout);
  if (emit == "plan") std::fputs(gql::compiler::plan::print_plan(gql::compiler::plan::plan_module(module)).c_str(), stdout);
  if (emit == "kernels") {
    try {
      const gql::compiler::CodegenOptions codegen{file, /*with_main=*/false};
      const bool cuda = options.target == gql::compiler::ir::Target::cuda;
      write_file(kernels_out + (cuda ? ".cu" : ".cpp"), cuda ? gql::compiler::generate_cuda(module, codegen)
                                                             : gql::compiler::generate_openmp(module, codegen));
      write_file(kernels_out + ".hpp", gql::compiler::generate_kernel_declarations(module, codegen));
    } catch (const gql::Error& e) {
      std::fprintf(stderr, "gqlc: %s\n", e.what());
      return 1;
    }
    return 0;
  }
  if (emit != "source" && output.empty()) return 0;
  try {
    const gql::compiler::CodegenOptions codegen{file, /*with_main=*/true};
    const std::string source = options.target == gql::compiler::ir::Target::cuda
                                   ? gql::compiler::generate_cuda(module, codegen)
                                   : gql::compiler::generate_openmp(module, codegen);
    if (emit == "source") std::fputs(source.c_str(), stdout);
    if (!output.empty()) gql::compiler::build_executable(
        source, {.target = options.target, .output = output, .compiler = "", .keep_source = keep_source,
                 .cuda_archs = cuda_archs, .distributed = options.distributed});
  } catch (const gql::Error& e) {
    std::fprintf(stderr, "gqlc: %s\n", e.what());
    return 1;
  }
  return 0;
}

}  // namespace

// What gqlc cannot finish (a spec too large for memory, say) is reported, never an abort; so is what it
// printed that did not reach standard output (--emit on a full disk).
int main(int argc, char** argv) {
  int status = 1;
  try {
    status = run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fputs("gqlc: out of memory\n", stderr);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gqlc: internal error: %s\n", e.what());
  }
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    std::fputs("gqlc: standard output: io error: cannot write what was printed\n", stderr);
    return 1;
  }
  return status;
}
