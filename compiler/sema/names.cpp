// Names: the global declarations of every file, duplicate checks, and "did you mean".
#include <algorithm>

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

void Analyzer::report_unknown(Span span, const std::string& kind, const std::string& name,
                              const std::vector<std::string>& candidates) {
  std::string message = "unknown " + kind + " '" + name + "'";
  std::string guess = closest_name(name, candidates);
  if (!guess.empty()) message += "; did you mean '" + guess + "'?";
  diagnostics_.error(span, message);
}

std::vector<std::string> Analyzer::global_value_names() const {
  std::vector<std::string> names;
  for (const auto& [name, decl] : constant_decls_) names.push_back(name);
  for (const auto& [name, decl] : function_decls_) names.push_back(name);
  return names;
}

// A file's declarations hide same-named ones of files loaded before it (its imports); two
// declarations of one name in one file are an error.
void Analyzer::declare_globals(const ast::File& file) {
  auto previous = [&](const std::string& name) -> std::optional<Span> {
    if (auto it = constant_decls_.find(name); it != constant_decls_.end()) return it->second->name_span;
    if (auto it = function_decls_.find(name); it != function_decls_.end()) return it->second->name_span;
    if (auto it = kernels_.find(name); it != kernels_.end()) return it->second->name_span;
    return std::nullopt;
  };
  auto hide = [&](const std::string& name) {
    constant_decls_.erase(name);
    function_decls_.erase(name);
    kernels_.erase(name);
  };
  auto redefinition = [&](Span span, const std::string& what, const std::string& name, Span first) {
    if (Diagnostic* d = diagnostics_.error(span, "redefinition of " + what + " '" + name + "'")) {
      d->notes.push_back({first, "'" + name + "' was first defined here"});
    }
  };
  // Returns true when `name` may be declared at `span` (hiding an imported declaration if any).
  auto claim = [&](const std::string& what, const std::string& name, Span span) {
    auto first = previous(name);
    if (first && first->file == span.file) {
      redefinition(span, what, name, *first);
      return false;
    }
    hide(name);
    return true;
  };
  for (const ast::Const& c : file.consts) {
    if (claim("constant", c.name, c.name_span)) constant_decls_[c.name] = &c;
  }
  for (const ast::Function& f : file.functions) {
    if (claim("function", f.name, f.name_span)) function_decls_[f.name] = &f;
  }
  for (const ast::Kernel& k : file.kernels) {
    if (claim("kernel", k.name, k.name_span)) kernels_[k.name] = &k;
  }
  for (const ast::Semiring& s : file.semirings) {
    auto it = semirings_.find(s.name);
    if (it != semirings_.end() && it->second->name_span.file == s.name_span.file) {
      redefinition(s.name_span, "semiring", s.name, it->second->name_span);
    } else {
      semirings_[s.name] = &s;
    }
  }
}

}  // namespace gql::compiler::sema
