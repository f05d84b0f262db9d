// SNAP-style edge lists: `src dst [weight]` separated by spaces, tabs or commas; `#` and `%` comments;
// ids as written (n = largest id + 1, or SNAP's `# Nodes: N` in the leading comments when larger); one
// optional header line of words (e.g. `start end`).
#include <algorithm>

#include "element_types.hpp"
#include "readers.hpp"
#include "text_parse.hpp"

namespace gql::detail {
namespace {

bool is_comment(std::string_view line) {
  const char c = first_char(line);
  return c == '#' || c == '%';
}

// A header line names columns: none of its tokens starts like a number.
bool is_header(std::string_view line) {
  Tokens tokens(line, true);
  std::string_view tok;
  bool any = false;
  while (tokens.next(tok)) {
    const char c = tok[0];
    if ((c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.') return false;
    any = true;
  }
  return any;
}

// SNAP's `# Nodes: N Edges: M` comment: N, else -1.
int64_t declared_nodes(std::string_view line) {
  const size_t at = line.find("Nodes:");
  if (first_char(line) != '#' || at == std::string_view::npos) return -1;
  std::string_view rest = line.substr(at + 6);
  while (!rest.empty() && (rest.front() == ' ' || rest.front() == '\t')) rest.remove_prefix(1);
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  int64_t n = -1;
  Problem p;
  if (digits == 0 || !parse_id(rest.substr(0, digits), n, p) || n > max_vertex_count) return -1;
  return n;
}

}  // namespace

template <class T>
EdgeList<T> read_edge_list_entries(std::string_view text, const std::string& source, bool record_lines) {
  // Skip the leading comments and, at most once, a header line; the rest is parsed in parallel.
  int64_t line_no = 1, nodes = -1;
  for (std::string_view rest = text; !rest.empty();) {
    std::string_view before = rest;
    const std::string_view line = take_line(rest);
    if (is_blank(line) || is_comment(line)) {
      nodes = std::max(nodes, declared_nodes(line));
      text = rest;
      ++line_no;
      continue;
    }
    if (is_header(line)) {
      text = rest;
      ++line_no;
    } else {
      text = before;
    }
    break;
  }

  const LineSlots slots{.values = stores_values<T>, .lines = record_lines};
  auto parsed = parse_lines<T>(text, line_no, source, slots,
                               [&](Chunk<T>& c, std::string_view line, int64_t no, Problem& p) {
    const auto same_columns = [&](int columns) {
      if (c.columns == 0) {
        c.columns = columns;
        c.first_data_line = no;
      } else if (columns != c.columns) {
        p = {nullptr, "this line has " + std::to_string(columns) + " columns, earlier lines " + std::to_string(c.columns)};
        return false;
      }
      return true;
    };
    const auto add = [&](int64_t source_id, int64_t target_id, storage_t<T> v) {
      c.rows.push_back(static_cast<index_t>(source_id));
      c.cols.push_back(static_cast<index_t>(target_id));
      if constexpr (stores_values<T>) c.values.push_back(v);
      if (record_lines) c.lines.push_back(no);
      c.max_id = std::max({c.max_id, source_id, target_id});
    };
    int64_t id[2];
    std::string_view rest;
    if (scan_two_ids(line, true, id[0], id[1], rest) && rest.empty() && id[0] < max_vertex_count &&
        id[1] < max_vertex_count) {
      if (!same_columns(2)) return false;
      add(id[0], id[1], storage_t<T>{1});
      return true;
    }
    if (is_blank(line) || is_comment(line)) return true;
    Tokens tokens(line, true);
    std::string_view tok[3];
    int columns = 0;
    for (std::string_view t; tokens.next(t);) {
      if (columns == 3) {
        p = {t.data(), "an edge line reads 'source target [weight]'; unexpected token '" + shown(t) + "'"};
        return false;
      }
      tok[columns++] = t;
    }
    if (columns < 2) {
      p = {nullptr, "an edge line reads 'source target [weight]'"};
      return false;
    }
    if (!same_columns(columns)) return false;
    for (int k = 0; k < 2; ++k) {
      if (!parse_id(tok[k], id[k], p)) return false;
      if (id[k] >= max_vertex_count) {
        p = {tok[k].data(), "vertex id " + shown(tok[k]) + " needs more than 2^31-1 vertices"};
        return false;
      }
    }
    storage_t<T> v{1};
    if (columns == 3 && !parse_value<T>(tok[2], v, p)) return false;
    add(id[0], id[1], v);
    return true;
  });

  EdgeList<T> edges;
  int columns = 0;
  int64_t max_id = -1;
  for (auto& c : parsed.chunks) {
    if (c.columns != 0 && columns != 0 && c.columns != columns)
      throw Error(ErrorKind::io,
                  "this line has " + std::to_string(c.columns) + " columns, earlier lines " + std::to_string(columns),
                  {source, c.first_data_line});
    if (columns == 0) columns = c.columns;
    max_id = std::max(max_id, c.max_id);
  }
  // Without SNAP's header to declare an empty graph, no edges at all means a wrong or emptied file.
  if (max_id < 0 && nodes < 0) throw Error(ErrorKind::io, "no edges: the file is empty or holds only comments", {source});
  edges.n_rows = edges.n_cols = std::max(max_id + 1, nodes);
  gather(parsed, edges);
  return edges;
}

#define GQL_INSTANTIATE(T) \
  template EdgeList<T> read_edge_list_entries<T>(std::string_view, const std::string&, bool);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql::detail
