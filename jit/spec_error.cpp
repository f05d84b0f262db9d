#include "spec_error.hpp"

#include <algorithm>

namespace gql::jit {

Error spec_error(ErrorKind kind, const compiler::Compiler& front, const std::string& name) {
  const auto& all = front.diagnostics().all();
  const auto first = std::find_if(all.begin(), all.end(),
                                  [](const compiler::Diagnostic& d) { return d.severity == compiler::Severity::error; });
  if (first == all.end()) return Error(kind, "the spec was refused", {name});
  // The first error without its "file:line:col: error: " head, which where() and the kind say.
  Location where{name};
  std::string head = "error: ";
  if (first->span.file < front.sources().size()) {
    const compiler::LineColumn at = front.sources().line_column(first->span.file, first->span.begin);
    where = {front.sources().file(first->span.file).path, at.line, at.column};
    head = where.file + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " + head;
  }
  std::string reason = compiler::render(*first, front.sources());
  if (reason.compare(0, head.size(), head) == 0) reason.erase(0, head.size());
  for (auto d = all.begin(); d != all.end(); ++d)
    if (d != first) reason += compiler::render(*d, front.sources());
  while (!reason.empty() && reason.back() == '\n') reason.pop_back();
  return Error(kind, std::move(reason), std::move(where));
}

}  // namespace gql::jit
