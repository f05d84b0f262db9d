// The op table's rows (gql/compiler/ops.def) as OpInfo values, and the lookups over them.
#include "gql/compiler/op_table.hpp"

#include <string>

namespace gql::compiler::ir {

const std::vector<OpInfo>& op_table() {
  static const std::vector<OpInfo> rows = {
#define GQL_OP(kind_, ...) OpInfo{.kind = OpKind::kind_, .name = #kind_ __VA_OPT__(, ) __VA_ARGS__},
#include "gql/compiler/ops.def"
#undef GQL_OP
  };
  return rows;
}

const OpInfo& op_info(OpKind kind) noexcept { return op_table()[static_cast<size_t>(kind)]; }

const OpInfo* op_named(std::string_view spec_name) noexcept {
  if (spec_name.empty()) return nullptr;
  for (const OpInfo& op : op_table())
    if (spec_name == op.spec_name) return &op;
  return nullptr;
}

const char* to_string(OpKind kind) noexcept { return op_info(kind).name; }

uint8_t container_kind_bit(TypeKind kind) noexcept {
  switch (kind) {
    case TypeKind::graph: return graphs;
    case TypeKind::matrix: return matrices;
    case TypeKind::vector: return vectors;
    default: return 0;
  }
}

std::string container_kinds_text(uint8_t kinds) {
  std::vector<const char*> words;
  if (kinds & graphs) words.push_back("graph");
  if (kinds & matrices) words.push_back("matrix");
  if (kinds & vectors) words.push_back("vector");
  std::string text = "a ";
  for (size_t n = 0; n < words.size(); ++n) text += std::string(n == 0 ? "" : n + 1 == words.size() ? " or " : ", ") + words[n];
  return text;
}

}  // namespace gql::compiler::ir
