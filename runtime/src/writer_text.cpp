// Text output of graphs, matrices and vectors: Matrix Market (graphs, dense matrices, vectors), SNAP
// edge lists and DIMACS arcs (graphs); sorted, integers exact and floats in the shortest text that
// reads back to the same bits (std::to_chars), so equal data always gives equal files.
#include <omp.h>

#include <charconv>
#include <type_traits>

#include "element_types.hpp"
#include "file_bytes.hpp"
#include "gql/io.hpp"

namespace gql {
namespace {

// with_values: every entry carries its value (dense matrices, vectors): a bool's as the integer 0 or 1.
template <class T>
const char* field_name(bool with_values) {
  if constexpr (std::is_same_v<T, bool>) return with_values ? "integer" : "pattern";
  else if constexpr (std::is_floating_point_v<T>) return "real";
  else return "integer";
}

void append_integer(std::string& out, int64_t x) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, x).ptr);
}

template <class T>
void append_value(std::string& out, storage_t<T> x) {
  char buf[64];
  if constexpr (std::is_same_v<T, bool>) out += x ? '1' : '0';
  else out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<T>(x)).ptr);
}

// Formats [0, n) in parallel blocks (each through `block(out, begin, end)`) and joins them in order.
template <class Block>
void append_parallel(std::string& out, int64_t n, Block block) {
  const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>(int64_t{omp_get_max_threads()} * 4, n / 4096));
  std::vector<std::string> parts(static_cast<size_t>(blocks));
#pragma omp parallel for schedule(dynamic, 1)
  for (int64_t b = 0; b < blocks; ++b) block(parts[b], n * b / blocks, n * (b + 1) / blocks);
  size_t total = out.size();
  for (auto& p : parts) total += p.size();
  out.reserve(total);
  for (auto& p : parts) out += p;
}

std::string banner(const char* format, const char* field) {
  return std::string("%%MatrixMarket matrix ") + format + " " + field + " general\n";
}

}  // namespace

namespace {

// One line per entry, in row order: PREFIX ROW COL [VALUE], ids counted from `base`; the value is
// written for valued graphs, and as 1 for a pattern when `always_value` (DIMACS arcs carry a weight).
template <class T>
void append_entries(std::string& out, const Csr<T>& graph, int base, const char* prefix, bool always_value) {
  append_parallel(out, graph.n_rows(), [&](std::string& part, int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      for (offset_t p = graph.row_offsets()[r]; p < graph.row_offsets()[r + 1]; ++p) {
        part += prefix;
        append_integer(part, r + base);
        part += ' ';
        append_integer(part, int64_t{graph.col_indices()[p]} + base);
        if constexpr (stores_values<T>) {
          part += ' ';
          append_value<T>(part, graph.values()[p]);
        } else if (always_value) {
          part += " 1";
        }
        part += '\n';
      }
    }
  });
}

// Edge lists and DIMACS files hold square graphs only.
template <class T>
void check_square(const Csr<T>& graph, const char* format, const std::string& path) {
  if (graph.n_rows() != graph.n_cols())
    throw Error(ErrorKind::io,
                std::string("a ") + format + " holds a square graph, and this one is " + std::to_string(graph.n_rows()) +
                    " x " + std::to_string(graph.n_cols()) + "; write Matrix Market (.mtx) instead",
                {path});
}

}  // namespace

template <class T>
std::string format_matrix_market(const Csr<T>& graph) {
  std::string out = banner("coordinate", field_name<T>(false)) + std::to_string(graph.n_rows()) + ' ' +
                    std::to_string(graph.n_cols()) + ' ' + std::to_string(graph.nvals()) + '\n';
  append_entries(out, graph, 1, "", false);
  return out;
}

template <class T>
std::string format_edge_list(const Csr<T>& graph) {
  // SNAP's header: the reader takes the vertex count from it, so vertices without edges survive.
  std::string out = "# Nodes: " + std::to_string(graph.n_rows()) + " Edges: " + std::to_string(graph.nvals()) + '\n';
  append_entries(out, graph, 0, "", false);
  return out;
}

template <class T>
std::string format_dimacs(const Csr<T>& graph) {
  std::string out = "p sp " + std::to_string(graph.n_rows()) + ' ' + std::to_string(graph.nvals()) + '\n';
  append_entries(out, graph, 1, "a ", true);
  return out;
}

template <class T>
void write_graph(const std::string& path, const Csr<T>& graph, Format format) {
  switch (format == Format::automatic ? output_format(path) : format) {
    case Format::matrix_market: return detail::write_file(path, format_matrix_market(graph));
    case Format::edge_list:
      check_square(graph, "edge list", path);
      return detail::write_file(path, format_edge_list(graph));
    case Format::dimacs:
      check_square(graph, "DIMACS file", path);
      return detail::write_file(path, format_dimacs(graph));
    case Format::binary: return write_binary(path, graph);
    default: throw Error(ErrorKind::internal, "write_graph: no writer for the format", {path});
  }
}

template <class T>
std::string format_matrix_market(const Matrix<T>& matrix) {
  std::string out = banner("array", field_name<T>(true));
  append_integer(out, matrix.n_rows());
  out += ' ';
  append_integer(out, matrix.n_cols());
  out += '\n';
  // Column-major, as the format says.
  append_parallel(out, matrix.n_cols(), [&](std::string& part, int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      for (int64_t r = 0; r < matrix.n_rows(); ++r) {
        append_value<T>(part, matrix(r, c));
        part += '\n';
      }
    }
  });
  return out;
}

// A vector is coordinate (n x 1) whatever its storage, each entry with its value: the file depends on
// the vector's value alone and reads back to it.
template <class T>
std::string format_matrix_market(const Vector<T>& vector) {
  std::string out = banner("coordinate", field_name<T>(true));
  append_integer(out, vector.size());
  out += " 1 ";
  append_integer(out, vector.nvals());
  out += '\n';
  append_parallel(out, vector.nvals(), [&](std::string& part, int64_t begin, int64_t end) {
    for (int64_t k = begin; k < end; ++k) {
      append_integer(part, (vector.is_dense() ? k : int64_t{vector.indices()[k]}) + 1);
      part += " 1 ";
      append_value<T>(part, vector.values()[k]);
      part += '\n';
    }
  });
  return out;
}

template <class T>
void write_matrix_market(const std::string& path, const Csr<T>& graph) {
  detail::write_file(path, format_matrix_market(graph));
}

template <class T>
void write_matrix_market(const std::string& path, const Matrix<T>& matrix) {
  detail::write_file(path, format_matrix_market(matrix));
}

template <class T>
void write_matrix_market(const std::string& path, const Vector<T>& vector) {
  detail::write_file(path, format_matrix_market(vector));
}

#define GQL_INSTANTIATE(T)                                                        \
  template std::string format_matrix_market<T>(const Csr<T>&);                    \
  template std::string format_matrix_market<T>(const Matrix<T>&);                 \
  template std::string format_matrix_market<T>(const Vector<T>&);                 \
  template void write_matrix_market<T>(const std::string&, const Csr<T>&);        \
  template void write_matrix_market<T>(const std::string&, const Vector<T>&);     \
  template void write_matrix_market<T>(const std::string&, const Matrix<T>&);     \
  template std::string format_edge_list<T>(const Csr<T>&);                        \
  template std::string format_dimacs<T>(const Csr<T>&);                           \
  template void write_graph<T>(const std::string&, const Csr<T>&, Format);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql
