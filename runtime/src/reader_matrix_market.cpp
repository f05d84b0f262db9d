// Matrix Market: the banner, comments, the size line, then 1-based entries (coordinate) or column-major
// values (array). A .mtx without the banner is read as a headerless body (see docs/runtime.md).
#include <algorithm>
#include <cctype>

#include "element_types.hpp"
#include "readers.hpp"
#include "text_parse.hpp"

namespace gql::detail {
namespace {

enum class Field { real, integer, pattern, complex };
enum class Symmetry { general, symmetric, skew, hermitian };

struct Banner {
  bool coordinate = true;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
};

constexpr std::string_view banner_word = "%%matrixmarket";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

bool starts_with_banner(std::string_view text) {
  return text.size() >= banner_word.size() && lower(text.substr(0, banner_word.size())) == banner_word;
}

Banner parse_banner(std::string_view line, const std::string& source) {
  Tokens tokens(line, false);
  std::string_view word[5];
  const int n = tokens.first(word);
  if (n != 5 || !tokens.at_end())
    fail_line(source, 1, "Matrix Market banner must read '%%MatrixMarket matrix <format> <field> <symmetry>'");
  if (lower(word[1]) != "matrix") fail_line(source, 1, "only Matrix Market 'matrix' objects are supported");
  Banner b;
  const std::string format = lower(word[2]), field = lower(word[3]), symmetry = lower(word[4]);
  if (format == "coordinate") b.coordinate = true;
  else if (format == "array") b.coordinate = false;
  else fail_line(source, 1, "unknown Matrix Market format '" + shown(word[2]) + "'");
  if (field == "real" || field == "double") b.field = Field::real;
  else if (field == "integer") b.field = Field::integer;
  else if (field == "pattern") b.field = Field::pattern;
  else if (field == "complex") b.field = Field::complex;
  else fail_line(source, 1, "unknown Matrix Market field '" + shown(word[3]) + "'");
  if (symmetry == "general") b.symmetry = Symmetry::general;
  else if (symmetry == "symmetric") b.symmetry = Symmetry::symmetric;
  else if (symmetry == "skew-symmetric") b.symmetry = Symmetry::skew;
  else if (symmetry == "hermitian") b.symmetry = Symmetry::hermitian;
  else fail_line(source, 1, "unknown Matrix Market symmetry '" + shown(word[4]) + "'");
  if (b.field == Field::complex || b.symmetry == Symmetry::hermitian)
    fail_line(source, 1, "complex Matrix Market files are not supported");
  if (b.field == Field::pattern && !b.coordinate) fail_line(source, 1, "a pattern matrix must be in coordinate format");
  return b;
}

struct Header {
  Banner banner;
  int64_t n_rows = 0, n_cols = 0, entries = 0;
  int64_t size_line = 0;   // line number of the size line
  std::string_view body;   // the text after the size line
};

// Reads the banner, the comments and the size line.
template <class T>
Header parse_header(std::string_view text, const std::string& source) {
  Header h;
  h.banner = parse_banner(take_line(text), source);
  int64_t line_no = 1;
  std::string_view line;
  do {
    if (text.empty()) fail_line(source, line_no, "missing the size line");
    line = take_line(text);
    ++line_no;
  } while (is_blank(line) || first_char(line) == '%');
  h.size_line = line_no;
  Tokens tokens(line, false);
  const int wanted = h.banner.coordinate ? 3 : 2;
  int64_t number[3] = {0, 0, 0};
  for (int k = 0; k < wanted; ++k) {
    std::string_view tok;
    Problem problem;
    if (!tokens.next(tok))
      fail_line(source, line_no, h.banner.coordinate ? "size line must read 'rows columns entries'"
                                                : "size line must read 'rows columns'");
    if (!parse_id(tok, number[k], problem)) fail_line(source, line_no, "size line: " + problem.reason);
  }
  if (!tokens.at_end()) fail_line(source, line_no, "size line has extra tokens");
  h.n_rows = number[0];
  h.n_cols = number[1];
  h.entries = number[2];
  if (h.n_rows > max_vertex_count || h.n_cols > max_vertex_count)
    fail_line(source, line_no, "matrix is " + std::to_string(h.n_rows) + " x " + std::to_string(h.n_cols) +
                              "; at most 2^31-1 rows and columns fit 32-bit indices");
  if (h.banner.symmetry != Symmetry::general && h.n_rows != h.n_cols)
    fail_line(source, line_no, "a symmetric or skew-symmetric matrix must be square");
  if (h.banner.symmetry == Symmetry::skew && stores_values<T> && std::is_unsigned_v<T>)
    fail_line(source, 1, std::string("a skew-symmetric matrix needs a signed element type, not ") + type_name<T>());
  h.body = text;
  return h;
}

template <class T>
bool finish_entry(Tokens& tokens, const int64_t (&id)[2], int64_t line_no, bool with_value, Chunk<T>& out,
                  Problem& problem, bool record_lines);

// `row col [value]` with 1-based ids; returns false with a problem on a bad line.
template <class T>
bool parse_entry(std::string_view line, int64_t line_no, bool with_value, Chunk<T>& out, Problem& problem,
                 bool record_lines) {
  int64_t id[2];
  std::string_view rest;
  if (scan_two_ids(line, false, id[0], id[1], rest) && id[0] > 0 && id[1] > 0 && id[0] <= max_vertex_count &&
      id[1] <= max_vertex_count) {
    Tokens tail(rest, false);
    return finish_entry<T>(tail, id, line_no, with_value, out, problem, record_lines);
  }
  Tokens tokens(line, false);
  std::string_view tok;
  for (int k = 0; k < 2; ++k) {
    if (!tokens.next(tok)) {
      problem = {nullptr, with_value ? "expected 'row column value'" : "expected 'row column'"};
      return false;
    }
    if (!parse_id(tok, id[k], problem)) return false;
    if (id[k] == 0) {
      problem = {tok.data(), "index 0 in a 1-based file"};
      return false;
    }
    if (id[k] > max_vertex_count) {
      problem = {tok.data(), "index " + shown(tok) + " exceeds 2^31-1"};
      return false;
    }
  }
  return finish_entry<T>(tokens, id, line_no, with_value, out, problem, record_lines);
}

// The value (if the field has one) and the end of the line, after the two indices.
template <class T>
bool finish_entry(Tokens& tokens, const int64_t (&id)[2], int64_t line_no, bool with_value, Chunk<T>& out,
                  Problem& problem, bool record_lines) {
  std::string_view tok;
  if (with_value) {
    if (!tokens.next(tok)) {
      problem = {nullptr, "expected 'row column value': the value is missing"};
      return false;
    }
    storage_t<T> v{};
    if (!parse_value<T>(tok, v, problem)) return false;
    if constexpr (stores_values<T>) out.values.push_back(v);
  } else if constexpr (stores_values<T>) {
    out.values.push_back(storage_t<T>{1});
  }
  if (tokens.next(tok)) {
    problem = {tok.data(), "unexpected token '" + shown(tok) + "'"};
    return false;
  }
  out.rows.push_back(static_cast<index_t>(id[0] - 1));
  out.cols.push_back(static_cast<index_t>(id[1] - 1));
  if (record_lines) out.lines.push_back(line_no);
  return true;
}

template <class T>
EdgeList<T> read_headerless(std::string_view text, const std::string& source, bool record_lines) {
  const LineSlots slots{.values = stores_values<T>, .lines = record_lines};
  auto parsed = parse_lines<T>(text, 1, source, slots,
                               [&](Chunk<T>& c, std::string_view line, int64_t line_no, Problem& p) {
    if (is_blank(line) || first_char(line) == '%') return true;
    Tokens count(line, false);
    int columns = 0;
    for (std::string_view tok; count.next(tok);) ++columns;
    if (columns != 2 && columns != 3) {
      p = {nullptr, "a headerless Matrix Market line must read 'row column [value]'"};
      return false;
    }
    if (c.columns == 0) {
      c.columns = columns;
      c.first_data_line = line_no;
    } else if (columns != c.columns) {
      p = {nullptr, "this line has " + std::to_string(columns) + " columns, earlier lines " +
                        std::to_string(c.columns)};
      return false;
    }
    if (!parse_entry<T>(line, line_no, columns == 3, c, p, record_lines)) return false;
    c.max_id = std::max<int64_t>({c.max_id, c.rows.back(), c.cols.back()});
    return true;
  });
  EdgeList<T> edges;
  edges.index_base = 1;
  int columns = 0;
  int64_t max_id = -1;
  for (auto& c : parsed.chunks) {
    if (c.columns != 0 && columns != 0 && c.columns != columns)
      fail_line(source, c.first_data_line, "this line has " + std::to_string(c.columns) +
                                          " columns, earlier lines " + std::to_string(columns));
    if (columns == 0) columns = c.columns;
    max_id = std::max(max_id, c.max_id);
  }
  if (max_id < 0) fail_line(source, 1, "no Matrix Market banner and no entries: the file is empty or not Matrix Market");
  // n = the largest id: a headerless body cannot tell trailing isolated vertices.
  edges.n_rows = edges.n_cols = max_id + 1;
  gather(parsed, edges);
  return edges;
}

}  // namespace

bool is_matrix_market_array(std::string_view text) {
  if (!starts_with_banner(text)) return false;
  Tokens tokens(take_line(text), false);
  std::string_view tok;
  return tokens.next(tok) && tokens.next(tok) && tokens.next(tok) && lower(tok) == "array";
}

template <class T>
EdgeList<T> read_matrix_market_entries(std::string_view text, const std::string& source, bool record_lines) {
  if (!starts_with_banner(text)) return read_headerless<T>(text, source, record_lines);
  const Header h = parse_header<T>(text, source);
  if (!h.banner.coordinate)
    fail_line(source, 1, "a Matrix Market array is a dense matrix: read it with read_matrix or read_vector");
  const bool with_value = h.banner.field != Field::pattern;
  const Symmetry symmetry = h.banner.symmetry;
  const LineSlots slots{.values = stores_values<T>, .lines = record_lines};
  auto parsed = parse_lines<T>(h.body, h.size_line + 1, source, slots,
                               [&](Chunk<T>& c, std::string_view line, int64_t line_no, Problem& p) {
    if (is_blank(line) || first_char(line) == '%') return true;
    if (!parse_entry<T>(line, line_no, with_value, c, p, record_lines)) return false;
    const index_t r = c.rows.back(), col = c.cols.back();
    if (r >= h.n_rows || col >= h.n_cols) {
      p = {nullptr, "entry (" + std::to_string(r + 1) + ", " + std::to_string(col + 1) + ") is outside the " +
                        std::to_string(h.n_rows) + " x " + std::to_string(h.n_cols) + " matrix"};
      return false;
    }
    if (symmetry != Symmetry::general && (r < col || (symmetry == Symmetry::skew && r == col))) {
      p = {nullptr, symmetry == Symmetry::skew
                        ? "a skew-symmetric file stores only entries below the diagonal"
                        : "a symmetric file stores only entries on or below the diagonal"};
      return false;
    }
    if constexpr (std::is_signed_v<T> && !std::is_floating_point_v<T>) {
      if (symmetry == Symmetry::skew && c.values.back() == std::numeric_limits<T>::min()) {
        p = {nullptr, "the mirrored value of this entry does not fit the element type"};
        return false;
      }
    }
    return true;
  });
  EdgeList<T> edges;
  edges.n_rows = h.n_rows;
  edges.n_cols = h.n_cols;
  edges.index_base = 1;
  gather(parsed, edges);
  if (static_cast<int64_t>(edges.rows.size()) != h.entries)
    fail_line(source, h.size_line, "the size line promises " + std::to_string(h.entries) + " entries, the file has " +
                                  std::to_string(edges.rows.size()));
  if (symmetry != Symmetry::general) mirror(edges, symmetry == Symmetry::skew);
  return edges;
}

template <class T>
Matrix<T> read_matrix_market_array(std::string_view text, const std::string& source) {
  const Header h = parse_header<T>(text, source);
  if (h.banner.coordinate) fail_line(source, 1, "expected a Matrix Market array");
  const Symmetry symmetry = h.banner.symmetry;
  const int64_t n = h.n_rows, m = h.n_cols;
  auto parsed = parse_lines<T>(h.body, h.size_line + 1, source, {.entries = false, .values = true},
                               [&](Chunk<T>& c, std::string_view line, int64_t, Problem& p) {
    if (is_blank(line) || first_char(line) == '%') return true;
    Tokens tokens(line, false);
    std::string_view tok;
    tokens.next(tok);
    storage_t<T> v{};
    if (!parse_value<T>(tok, v, p)) return false;
    if (tokens.next(tok)) {
      p = {tok.data(), "one value per line expected, found '" + shown(tok) + "'"};
      return false;
    }
    if constexpr (std::is_same_v<T, bool>) {
      // A boolean array keeps the value's truth, not just its presence.
      double d = 0;
      std::from_chars(tok.data() + (tok[0] == '+'), tok.data() + tok.size(), d);
      v = d != 0;
    }
    c.values.push_back(v);
    return true;
  });
  // Column-major on disk; symmetric arrays list the lower triangle (skew: below the diagonal) by column.
  compact(parsed);
  const Array<storage_t<T>>& values = parsed.values;
  int64_t expected = n * m;
  if (symmetry == Symmetry::symmetric) expected = n * (n + 1) / 2;
  if (symmetry == Symmetry::skew) expected = n * (n - 1) / 2;
  if (static_cast<int64_t>(values.size()) != expected)
    fail_line(source, h.size_line, "a " + std::to_string(n) + " x " + std::to_string(m) + " array needs " +
                                  std::to_string(expected) + " values, the file has " +
                                  std::to_string(values.size()));
  Matrix<T> out(n, m);
  size_t k = 0;
  for (int64_t j = 0; j < m; ++j) {
    const int64_t first_row = symmetry == Symmetry::general ? 0 : (symmetry == Symmetry::skew ? j + 1 : j);
    for (int64_t i = first_row; i < n; ++i) {
      const storage_t<T> v = values[k++];
      out(i, j) = v;
      if (symmetry == Symmetry::symmetric) out(j, i) = v;
      if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>) {
        if (symmetry == Symmetry::skew) {
          if constexpr (std::is_integral_v<T>)
            if (v == std::numeric_limits<T>::min())
              fail_line(source, h.size_line, "a mirrored value of this skew-symmetric array does not fit the element type");
          out(j, i) = static_cast<T>(-v);
        }
      }
    }
  }
  return out;
}

#define GQL_INSTANTIATE(T)                                                                            \
  template EdgeList<T> read_matrix_market_entries<T>(std::string_view, const std::string&, bool); \
  template Matrix<T> read_matrix_market_array<T>(std::string_view, const std::string&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql::detail
