// The LG format of Graphs.jl (.jlg, usually gzip): a header `nv,ne,d|u,name[,...]`, then ne lines
// `src,dst`, 1-based. An undirected (`u`) graph lists each edge once and is expanded to both directions.
#include "element_types.hpp"
#include "readers.hpp"
#include "text_parse.hpp"

namespace gql::detail {

template <class T>
EdgeList<T> read_lg_entries(std::string_view text, const std::string& source, bool record_lines) {
  if (text.empty()) fail_line(source, 1, "empty file: expected the header 'nv,ne,d|u,name'");
  const std::string_view header = take_line(text);
  Tokens tokens(header, true);
  std::string_view tok[3];
  const int k = tokens.first(tok);
  int64_t nv = 0, ne = 0;
  Problem p;
  if (k < 3 || (tok[2] != "d" && tok[2] != "u")) fail_line(source, 1, "the LG header must read 'nv,ne,d|u,name'");
  if (!parse_id(tok[0], nv, p) || !parse_id(tok[1], ne, p)) fail_line(source, 1, "LG header: " + p.reason);
  if (nv > max_vertex_count) fail_line(source, 1, "nv = " + std::to_string(nv) + " exceeds 2^31-1 vertices");
  const bool undirected = tok[2] == "u";

  const LineSlots slots{.values = stores_values<T>, .lines = record_lines};
  auto parsed = parse_lines<T>(text, 2, source, slots,
                               [&](Chunk<T>& c, std::string_view line, int64_t no, Problem& pr) {
    if (is_blank(line)) return true;
    Tokens edge(line, true);
    std::string_view ids[2], extra;
    if (!edge.next(ids[0]) || !edge.next(ids[1]) || edge.next(extra)) {
      pr = {nullptr, "an LG edge line reads 'src,dst'"};
      return false;
    }
    int64_t id[2];
    for (int i = 0; i < 2; ++i) {
      if (!parse_id(ids[i], id[i], pr)) return false;
      if (id[i] < 1 || id[i] > nv) {
        pr = {ids[i].data(), "vertex " + shown(ids[i]) + " is outside 1.." + std::to_string(nv)};
        return false;
      }
    }
    c.rows.push_back(static_cast<index_t>(id[0] - 1));
    c.cols.push_back(static_cast<index_t>(id[1] - 1));
    if constexpr (stores_values<T>) c.values.push_back(storage_t<T>{1});
    if (record_lines) c.lines.push_back(no);
    return true;
  });

  EdgeList<T> edges;
  edges.n_rows = edges.n_cols = nv;
  edges.index_base = 1;
  gather(parsed, edges);
  if (static_cast<int64_t>(edges.rows.size()) != ne)
    fail_line(source, 1, "the header promises " + std::to_string(ne) + " edges, the file has " +
                        std::to_string(edges.rows.size()));
  if (undirected) mirror(edges, false);
  return edges;
}

#define GQL_INSTANTIATE(T) template EdgeList<T> read_lg_entries<T>(std::string_view, const std::string&, bool);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql::detail
