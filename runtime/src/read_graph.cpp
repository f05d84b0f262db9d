// The entry points: pick the format, read the bytes, parse, and build under the caller's policies.
#include <type_traits>

#include "element_types.hpp"
#include "file_bytes.hpp"
#include "gql/generate.hpp"
#include "gql/host_memory.hpp"
#include "gql/io.hpp"
#include "readers.hpp"

namespace gql {
namespace {

// Only the binary format arrives as a finished Csr; policies that change it go through the builder.
template <class T>
Csr<T> apply_policies(Csr<T> graph, const ReadOptions& options, const std::string& source) {
  if (options.self_loops == SelfLoops::keep && !options.symmetrize) return graph;
  EdgeList<T> edges;
  edges.n_rows = graph.n_rows();
  edges.n_cols = graph.n_cols();
  edges.rows.resize(static_cast<size_t>(graph.nvals()));
  for (int64_t r = 0; r < graph.n_rows(); ++r)
    for (offset_t p = graph.row_offsets()[r]; p < graph.row_offsets()[r + 1]; ++p) edges.rows[p] = static_cast<index_t>(r);
  edges.cols.assign(graph.col_indices().begin(), graph.col_indices().end());
  edges.values.assign(graph.values().begin(), graph.values().end());
  return build_csr<T>(std::move(edges), options, source);
}

// The graph as a dense matrix, `fill` where it has no entry; a sparse source without a stated fill is
// refused (no value is right for every use: 0 for sums, inf for distances).
template <class T>
Matrix<T> densify(const Csr<T>& graph, const std::optional<T>& fill, const std::string& source) {
  if (!fill)
    throw Error(ErrorKind::usage,
                "a sparse matrix read as a dense one needs a value for its absent entries (a program's --fill VALUE, "
                "read_matrix's fill)",
                {source});
  // Checked here as well as by the matrix, so that the error names the file.
  check_host_allocation(bytes_for(static_cast<uint64_t>(graph.n_rows()) * static_cast<uint64_t>(graph.n_cols()),
                                  sizeof(storage_t<T>)),
                        "a dense " + std::to_string(graph.n_rows()) + " x " + std::to_string(graph.n_cols()) + " matrix",
                        source);
  Matrix<T> out(graph.n_rows(), graph.n_cols(), static_cast<storage_t<T>>(*fill));
  for (int64_t r = 0; r < graph.n_rows(); ++r)
    for (offset_t p = graph.row_offsets()[r]; p < graph.row_offsets()[r + 1]; ++p)
      out(r, graph.col_indices()[p]) = static_cast<storage_t<T>>(graph.value_at(p));
  return out;
}

Format resolve(Format format, const std::string& source) {
  return format == Format::automatic ? format_from_name(source) : format;
}

}  // namespace

Format format_from_name(const std::string& path) {
  const std::string ext = detail::extension_without_gz(path);
  if (ext == ".mtx" || ext == ".mm") return Format::matrix_market;
  if (ext == ".txt" || ext == ".el" || ext == ".csv" || ext == ".tsv" || ext == ".dat" || ext == ".edges")
    return Format::edge_list;
  if (ext == ".gr") return Format::dimacs;
  if (ext == ".jlg" || ext == ".lg") return Format::lg;
  if (ext == ".gqlb") return Format::binary;
  throw Error(ErrorKind::io,
              "cannot tell the format from the name (known: .mtx .mm .txt .el .csv .tsv .dat .edges .gr .jlg .lg "
              ".gqlb, each optionally .gz): name the file with one of them",
              {path});
}

Format output_format(const std::string& path) {
  const auto refuse = [&](const std::string& why) {
    return Error(ErrorKind::io,
                 "cannot write " + why + " (written: .mtx .mm .txt .el .csv .tsv .dat .edges .gr, each optionally .gz, "
                 "and .gqlb)",
                 {path});
  };
  const std::string ext = detail::extension_without_gz(path);
  if (ext == ".jlg" || ext == ".lg") throw refuse("the " + ext + " format: it is read only");
  const Format format = [&] {
    try {
      return format_from_name(path);
    } catch (const Error&) {
      throw refuse(ext.empty() ? "a file whose name has no format extension" : "a " + ext + " file");
    }
  }();
  if (format == Format::binary && path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0) throw refuse("a compressed .gqlb file");
  return format;
}

template <class T>
Csr<T> parse_graph(std::string_view contents, Format format, const std::string& source, const ReadOptions& options) {
  format = resolve(format, source);
  detail::FileBytes inflated;
  if (detail::is_gzip(contents)) {
    inflated = detail::gunzip(contents, source);
    contents = detail::text_of(inflated);
  }
  // Lines are kept only where a later error may need them: duplicate errors and integer overflows.
  const bool record_lines = options.duplicates == Duplicates::error ||
                            (options.duplicates == Duplicates::sum && std::is_integral_v<T> && stores_values<T>);
  switch (format) {
    case Format::matrix_market:
      return build_csr<T>(detail::read_matrix_market_entries<T>(contents, source, record_lines), options, source);
    case Format::edge_list:
      return build_csr<T>(detail::read_edge_list_entries<T>(contents, source, record_lines), options, source);
    case Format::dimacs:
      return build_csr<T>(detail::read_dimacs_entries<T>(contents, source, record_lines), options, source);
    case Format::lg:
      return build_csr<T>(detail::read_lg_entries<T>(contents, source, record_lines), options, source);
    case Format::binary:
      return apply_policies(detail::read_binary_csr<T>(contents, source), options, source);
    case Format::automatic: break;
  }
  throw Error(ErrorKind::internal, "unresolved file format", {source});
}

template <class T>
Csr<T> read_graph(const std::string& path_or_spec, const ReadOptions& options) {
  if (is_generator_spec(path_or_spec)) return generate_graph<T>(path_or_spec, options);
  if (resolve(options.format, path_or_spec) == Format::binary)
    return apply_policies(detail::read_binary_csr_file<T>(path_or_spec), options, path_or_spec);
  const detail::FileBytes file = detail::read_file(path_or_spec);
  const std::string_view bytes = detail::text_of(file);
  return parse_graph<T>(bytes, options.format, path_or_spec, options);
}

template <class T>
Matrix<T> read_matrix(const std::string& path_or_spec, const ReadOptions& options, const std::optional<T>& fill) {
  if (!is_generator_spec(path_or_spec) && resolve(options.format, path_or_spec) == Format::matrix_market) {
    const detail::FileBytes file = detail::read_file(path_or_spec);
    const std::string_view bytes = detail::text_of(file);
    if (detail::is_matrix_market_array(bytes)) return detail::read_matrix_market_array<T>(bytes, path_or_spec);
    return densify(parse_graph<T>(bytes, Format::matrix_market, path_or_spec, options), fill, path_or_spec);
  }
  return densify(read_graph<T>(path_or_spec, options), fill, path_or_spec);
}

template <class T>
Vector<T> read_vector(const std::string& path, const ReadOptions& options) {
  if (resolve(options.format, path) != Format::matrix_market)
    throw Error(ErrorKind::io, "a vector is read from a Matrix Market file", {path});
  const detail::FileBytes file = detail::read_file(path);
  const std::string_view bytes = detail::text_of(file);
  const auto not_a_vector = [&](int64_t rows, int64_t cols) {
    return Error(ErrorKind::io,
                 "a vector file has one column or one row; this one is " + std::to_string(rows) + " x " +
                     std::to_string(cols),
                 {path});
  };
  if (detail::is_matrix_market_array(bytes)) {
    Matrix<T> m = detail::read_matrix_market_array<T>(bytes, path);
    if (m.n_rows() != 1 && m.n_cols() != 1) throw not_a_vector(m.n_rows(), m.n_cols());
    auto v = Vector<T>::dense(m.n_rows() * m.n_cols(), storage_t<T>{});
    std::copy(m.data().begin(), m.data().end(), v.values().begin());
    return v;
  }
  ReadOptions plain = options;
  plain.symmetrize = false;
  // A bool vector keeps its entries' values (a bool graph is a pattern and keeps none).
  using Parsed = std::conditional_t<std::is_same_v<T, bool>, double, T>;
  const Csr<Parsed> g = parse_graph<Parsed>(bytes, Format::matrix_market, path, plain);
  if (g.n_cols() != 1 && g.n_rows() != 1) throw not_a_vector(g.n_rows(), g.n_cols());
  Array<index_t> indices;
  Array<storage_t<T>> values;
  if (g.n_cols() == 1) {
    for (int64_t r = 0; r < g.n_rows(); ++r)
      if (g.row_degree(r) == 1) indices.push_back(static_cast<index_t>(r));
  } else {
    indices.assign(g.col_indices().begin(), g.col_indices().end());
  }
  for (offset_t p = 0; p < g.nvals(); ++p) values.push_back(static_cast<storage_t<T>>(static_cast<T>(g.value_at(p))));
  return Vector<T>::sparse(g.n_cols() == 1 ? g.n_rows() : g.n_cols(), std::move(indices), std::move(values));
}

#define GQL_INSTANTIATE(T)                                                                                 \
  template Csr<T> parse_graph<T>(std::string_view, Format, const std::string&, const ReadOptions&);        \
  template Csr<T> read_graph<T>(const std::string&, const ReadOptions&);                                   \
  template Matrix<T> read_matrix<T>(const std::string&, const ReadOptions&, const std::optional<T>&);      \
  template Vector<T> read_vector<T>(const std::string&, const ReadOptions&);
GQL_FOR_EACH_ELEMENT_TYPE(GQL_INSTANTIATE)
#undef GQL_INSTANTIATE

}  // namespace gql
