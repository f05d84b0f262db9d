// Names: the global declarations of every file, duplicate checks, "did you mean", the words of the
// builtin monoids, and the names a declaration cannot take (builtins, and for kernels, whose names
// the generated C++ and the JIT use as they are, what C++ reserves).
#include <algorithm>
#include <cctype>
#include <set>

#include "gql/compiler/op_table.hpp"
#include "sema/analyzer.hpp"

namespace gql::compiler::sema {

namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
// neighbouring characters (the commonest typo) each cost 1.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

}  // namespace

const std::set<std::string>& container_producing_calls() {
  // The constructors (type names called: graph<T>(...)) and the builtin calls of the op table that
  // make a container.
  static const std::set<std::string> names = [] {
    std::set<std::string> all = {"graph", "matrix", "vector"};
    for (const ir::OpInfo& op : ir::op_table())
      if (*op.spec_name && !op.makes_scalar) all.insert(op.spec_name);
    return all;
  }();
  return names;
}

bool is_container_operation(const std::string& name) {
  return container_producing_calls().count(name) || ir::op_named(name) || name == "rows" || name == "cols" ||
         name == "nvals";
}

const std::vector<std::string>& builtin_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = {"min", "max", "abs", "sqrt",  // scalar functions
                                    "rows", "cols", "nvals",      // container queries
                                    // the ops that apply and union name
                                    "plus", "minus", "times", "div", "first", "second", "negate", "identity"};
    for (const ir::OpInfo& op : ir::op_table())
      if (*op.spec_name) all.push_back(op.spec_name);
    all.insert(all.end(), {"graph", "matrix", "vector"});
    return all;
  }();
  return names;
}

bool is_builtin_name(const std::string& name) {
  const auto& names = builtin_names();
  return std::find(names.begin(), names.end(), name) != names.end() || scalar_from_name(name).has_value() ||
         name == "inf";
}

std::string reserved_in_generated_code(const std::string& name) {
  // C++20's keywords and alternative tokens, and the names generated code uses unqualified: the
  // fixed-width integer types, namespaces, main, the C library's macros, CUDA's built-in variables.
  static const std::vector<std::string> words = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "break", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval", "constexpr",
      "constinit", "const_cast", "continue", "co_await", "co_return", "co_yield", "decltype", "default", "delete",
      "do", "double", "dynamic_cast", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not", "not_eq",
      "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register", "reinterpret_cast",
      "requires", "return", "short", "signed", "sizeof", "static", "static_assert", "static_cast", "struct",
      "switch", "template", "this", "thread_local", "throw", "true", "try", "typedef", "typeid", "typename",
      "unsigned", "using", "virtual", "void", "volatile", "wchar_t", "while", "xor", "xor_eq",
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "size_t",
      "ptrdiff_t", "std", "cub", "thrust", "main",
      "NULL", "errno", "assert", "EOF", "stdin", "stdout", "stderr", "INFINITY", "NAN", "HUGE_VAL", "offsetof",
      "va_arg", "va_start", "va_end", "va_copy", "setjmp", "CHAR_BIT", "INT_MAX", "INT_MIN", "UINT_MAX",
      "LONG_MAX", "LONG_MIN", "LLONG_MAX", "LLONG_MIN", "SIZE_MAX", "RAND_MAX", "EXIT_SUCCESS", "EXIT_FAILURE",
      "BUFSIZ", "FILENAME_MAX", "SEEK_SET", "SEEK_CUR", "SEEK_END", "unix", "linux",
      "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize", "dim3"};
  if (std::find(words.begin(), words.end(), name) != words.end()) return "a word of C++ or of its libraries";
  if (name.rfind("gql", 0) == 0 || name.rfind("GQL", 0) == 0) return "a name of gql's own (gql and GQL prefix them)";
  if (name.find("__") != std::string::npos || (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]))))
    return "a name C++ reserves (a double underscore, or an underscore and a capital letter first)";
  return "";
}

const std::vector<std::string>& monoid_words() {
  static const std::vector<std::string> words = {"sum", "prod", "min", "max", "or", "and", "lor", "land", "any"};
  return words;
}

std::string monoid_word(gql::Monoid m) {
  switch (m) {
    case gql::Monoid::sum: return "sum";
    case gql::Monoid::prod: return "prod";
    case gql::Monoid::min: return "min";
    case gql::Monoid::max: return "max";
    case gql::Monoid::lor: return "or";
    case gql::Monoid::land: return "and";
    case gql::Monoid::any: return "any";
    case gql::Monoid::user: break;
  }
  return "user";
}

std::optional<gql::Monoid> monoid_named(const std::string& word) {
  if (word == "sum") return gql::Monoid::sum;
  if (word == "prod") return gql::Monoid::prod;
  if (word == "min") return gql::Monoid::min;
  if (word == "max") return gql::Monoid::max;
  if (word == "or" || word == "lor") return gql::Monoid::lor;
  if (word == "and" || word == "land") return gql::Monoid::land;
  if (word == "any") return gql::Monoid::any;
  return std::nullopt;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& candidates) {
  if (name.size() > 64) return "";
  size_t limit = name.size() < 4 ? 1 : std::max<size_t>(2, name.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    if (c.empty() || c == name || c.size() > 64) continue;
    size_t d = edit_distance(name, c);
    if (d < best_distance) {
      best_distance = d;
      best = c;
    }
  }
  return best;
}

void Analyzer::report_unknown(Span span, DiagnosticId id, const std::string& kind, const std::string& name,
                              const std::vector<std::string>& candidates) {
  std::string message = "unknown " + kind + " '" + name + "'";
  std::string guess = closest_name(name, candidates);
  if (!guess.empty()) message += "; did you mean '" + guess + "'?";
  diagnostics_.error(span, id, message);
}

std::vector<std::string> Analyzer::global_value_names() const {
  std::vector<std::string> names;
  for (const auto& [name, decl] : constant_decls_) names.push_back(name);
  for (const auto& [name, decl] : function_decls_) names.push_back(name);
  return names;
}

// A file's declarations hide same-named ones of the files it imports; two declarations of one name
// in one file are an error. Two files that do not import each other may declare one name only with
// the same text (a helper copied into several library files); otherwise which one a use meant would
// depend on the order of the imports, so that is an error naming both.
void Analyzer::declare_globals(const ast::File& file, const Program& program) {
  auto previous = [&](const std::string& name) -> std::optional<Span> {
    if (auto it = constant_decls_.find(name); it != constant_decls_.end()) return it->second->span;
    if (auto it = function_decls_.find(name); it != function_decls_.end()) return it->second->span;
    if (auto it = kernels_.find(name); it != kernels_.end()) return it->second->span;
    return std::nullopt;
  };
  auto hide = [&](const std::string& name) {
    constant_decls_.erase(name);
    function_decls_.erase(name);
    kernels_.erase(name);
  };
  auto imports = [&](uint32_t importer, uint32_t imported) {
    auto it = program.imports.find(importer);
    return it != program.imports.end() && it->second.count(imported) > 0;
  };
  auto same_text = [&](Span a, Span b) { return program.sources && program.sources->text(a) == program.sources->text(b); };
  enum class Claim { declare, keep_first, reject };
  // Whether the declaration spanning `whole` (named at `name_span`) replaces `first`, the one
  // declared before it under the same name.
  auto claim = [&](const std::string& what, const std::string& name, Span name_span, Span whole, Span first,
                   Span first_name) {
    if (first.file == whole.file) {
      if (Diagnostic* d = diagnostics_.error(name_span, DiagnosticId::redefinition,
                                             "redefinition of " + what + " '" + name + "'")) {
        d->notes.push_back({first_name, "'" + name + "' was first defined here"});
      }
      return Claim::reject;
    }
    if (imports(whole.file, first.file)) return Claim::declare;
    if (same_text(whole, first)) return Claim::keep_first;
    if (Diagnostic* d = diagnostics_.error(name_span, DiagnosticId::conflicting_definition,
                                           "conflicting definitions of " + what + " '" + name +
                                               "' in files that do not import each other")) {
      d->notes.push_back({first_name, "the other definition of '" + name + "'; rename one, or move it to one file both import"});
    }
    return Claim::reject;
  };
  auto name_span_of = [&](const std::string& name) -> Span {
    if (auto it = constant_decls_.find(name); it != constant_decls_.end()) return it->second->name_span;
    if (auto it = function_decls_.find(name); it != function_decls_.end()) return it->second->name_span;
    return kernels_.at(name)->name_span;
  };
  // Declares `name` at `span` unless an earlier declaration stands.
  auto declare = [&](const std::string& what, const std::string& name, Span name_span, Span whole) {
    auto first = previous(name);
    if (first && claim(what, name, name_span, whole, *first, name_span_of(name)) != Claim::declare) return false;
    hide(name);
    return true;
  };
  // A declaration named like a builtin would never be reached: a call of that name is the builtin's.
  auto not_builtin = [&](const std::string& what, const std::string& name, Span name_span) {
    if (!is_builtin_name(name)) return true;
    diagnostics_.error(name_span, DiagnosticId::reserved_name,
                       "'" + name + "' is a builtin of the language; a " + what + " cannot take its name");
    return false;
  };
  for (const ast::Const& c : file.consts) {
    if (not_builtin("constant", c.name, c.name_span) && declare("constant", c.name, c.name_span, c.span))
      constant_decls_[c.name] = &c;
  }
  for (const ast::Function& f : file.functions) {
    if (not_builtin("function", f.name, f.name_span) && declare("function", f.name, f.name_span, f.span))
      function_decls_[f.name] = &f;
  }
  for (const ast::Kernel& k : file.kernels) {
    if (!not_builtin("kernel", k.name, k.name_span)) continue;
    if (const std::string why = reserved_in_generated_code(k.name); !why.empty()) {
      diagnostics_.error(k.name_span, DiagnosticId::reserved_name,
                         "kernel '" + k.name + "' cannot be named so: it is " + why +
                             ", and a kernel's name is a C++ function's in the generated code");
      continue;
    }
    if (declare("kernel", k.name, k.name_span, k.span)) kernels_[k.name] = &k;
  }
  for (const ast::Semiring& s : file.semirings) {
    auto it = semirings_.find(s.name);
    if (it == semirings_.end() ||
        claim("semiring", s.name, s.name_span, s.span, it->second->span, it->second->name_span) == Claim::declare) {
      semirings_[s.name] = &s;
    }
  }
}

}  // namespace gql::compiler::sema
