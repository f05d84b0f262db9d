// DIMACS shortest-path graphs (.gr): `c` comments, one `p sp N M` line, then M arcs `a u v w`, 1-based.
#include "element_types.hpp"
#include "readers.hpp"
#include "text_parse.hpp"

namespace gql::detail {

template <class T>
EdgeList<T> read_dimacs_entries(std::string_view text, const std::string& source, bool record_lines) {
  int64_t line_no = 0, n = 0, m = 0, problem_line = 0;
  while (problem_line == 0) {
    if (text.empty()) fail_line(source, line_no, "missing the problem line 'p sp N M'");
    const std::string_view line = take_line(text);
    ++line_no;
    const char c = first_char(line);
    if (c == 'c' || c == '\0') continue;
    if (c != 'p') fail_line(source, line_no, "expected the problem line 'p sp N M' before any arc");
    Tokens tokens(line, false);
    std::string_view tok[5];
    const int k = tokens.first(tok);
    Problem p;
    if (k != 4 || tok[1] != "sp") fail_line(source, line_no, "the problem line must read 'p sp N M'");
    if (!parse_id(tok[2], n, p) || !parse_id(tok[3], m, p)) fail_line(source, line_no, "problem line: " + p.reason);
    if (n > max_vertex_count) fail_line(source, line_no, "N = " + std::to_string(n) + " exceeds 2^31-1 vertices");
    problem_line = line_no;
  }

  const LineSlots slots{.values = stores_values<T>, .lines = record_lines};
  auto parsed = parse_lines<T>(text, line_no + 1, source, slots,
                               [&](Chunk<T>& c, std::string_view line, int64_t no, Problem& p) {
    const char kind = first_char(line);
    if (kind == 'c' || kind == '\0') return true;
    if (kind == 'p') {
      p = {nullptr, "a second problem line"};
      return false;
    }
    Tokens tokens(line, false);
    std::string_view tok[5];
    const int k = tokens.first(tok);
    if (kind != 'a' || tok[0] != "a" || k != 4) {
      p = {nullptr, "expected an arc 'a u v w'"};
      return false;
    }
    int64_t id[2];
    for (int i = 0; i < 2; ++i) {
      if (!parse_id(tok[1 + i], id[i], p)) return false;
      if (id[i] < 1 || id[i] > n) {
        p = {tok[1 + i].data(), "vertex " + shown(tok[1 + i]) + " is outside 1.." + std::to_string(n)};
        return false;
      }
    }
    storage_t<T> w{};
    if (!parse_value<T>(tok[3], w, p)) return false;
    c.rows.push_back(static_cast<index_t>(id[0] - 1));
    c.cols.push_back(static_cast<index_t>(id[1] - 1));
    if constexpr (stores_values<T>) c.values.push_back(w);
    if (record_lines) c.lines.push_back(no);
    return true;
  });

  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = n;
  edges.index_base = 1;
  gather(parsed, edges);
  if (static_cast<int64_t>(edges.rows.size()) != m)
    fail_line(source, problem_line, "the problem line promises " + std::to_string(m) + " arcs, the file has " +
                                   std::to_string(edges.rows.size()));
  return edges;
}

#define GQL_INSTANTIATE(T) template EdgeList<T> read_dimacs_entries<T>(std::string_view, const std::string&, bool);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql::detail
